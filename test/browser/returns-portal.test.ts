import { beforeAll, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/app.js';
import { enablePortal, orderShipment, shipOrder } from '../returns-portal/portal-fixtures.js';
import { axeViolations } from './axe.js';
import { collectPageErrors, describeWithBrowser, saveScreenshot, useSampleWorld } from './browser-harness.js';

describeWithBrowser('returns portal in Chromium', () => {
  const world = useSampleWorld();
  let shop: TestAccount;
  let reference: string;

  beforeAll(async () => {
    const t = world.t;
    shop = await t.account({ features: ['returns', 'booking'], carriers: [{ carrier_reference: 'sb', booking: ['return'] }] });
    const delivered = new Date(t.clock.now().getTime() - 2 * 86_400_000).toISOString().slice(0, 19).concat('Z');
    await shipOrder(t, shop, orderShipment('PORTAL-1', 'SO-20001', { email: 'mila@example.com', postal_code: '10435' }), delivered);
    reference = await enablePortal(t, shop, (policy) => {
      policy.portal_name = 'Nordlicht Outdoor';
      policy.return_methods = ['drop_off', 'send_by_consumer'];
      policy.auto_approval = { enabled: true, max_value: null };
      policy.non_returnable = { product_ids: ['GIFT'], product_references: [], categories: [] };
    });
  });

  it('takes a consumer on a small screen, by keyboard, from the order to a label, with no accessibility violation', {
    timeout: 60_000,
  }, async () => {
    const context = await world.browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 1,
      locale: 'en-GB',
      bypassCSP: true,
      acceptDownloads: true,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(5_000);
    // The form sent without a reason is answered 422 on purpose (the page with its errors).
    const errors = collectPageErrors(page, (url) => url.includes('/order/'));
    expect((await page.goto(`${world.baseUrl}/returns/${reference}`))?.status()).toBe(200);
    // The portal runs no script of its own (axe, injected below, is the test's).
    expect(await page.locator('script').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    saveScreenshot('returns-portal-find', await page.screenshot({ fullPage: true }));

    // A wrong postal code first: the notice, and the fields keep what was typed.
    await page.getByLabel('Order number').fill('SO-20001');
    await page.getByLabel('E-mail address or postal code').fill('99999');
    await page.getByLabel('E-mail address or postal code').press('Enter');
    await expect.poll(() => page.locator('.notice').innerText()).toMatch(/could not find an order/);
    expect(await page.getByLabel('Order number').inputValue()).toBe('SO-20001');

    // The right one, by keyboard only.
    await page.getByLabel('E-mail address or postal code').fill('mila@example.com');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/order\//);
    expect(await page.locator('h1').innerText()).toBe('Choose what to return');
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.locator('[data-item="id:GIFT"]').innerText()).toContain('This item cannot be returned.');

    // Sent without a reason: the error is tied to the field, and nothing else changes.
    await page.getByLabel('Quantity to return – Shirt').selectOption('1');
    await page.getByText('Drop it off at a parcel shop').click();
    await page.getByRole('button', { name: 'Request return' }).click();
    const reason = page.getByLabel('Reason – Shirt');
    await expect.poll(() => reason.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await reason.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`#${describedBy.split(' ').pop()}`).innerText()).toBe('Choose a reason for this item.');
    expect(await page.getByLabel('Quantity to return – Shirt').inputValue()).toBe('1');
    expect(await axeViolations(page)).toEqual([]);
    saveScreenshot('returns-portal-choose', await page.screenshot({ fullPage: true }));

    await reason.selectOption('too_small');
    await page.getByLabel('Comment (optional)').fill('Runs a size small');
    await page.getByLabel('Comment (optional)').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/status\//);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('label_ready');
    expect(await page.locator('li[aria-current="step"]').innerText()).toContain('Label ready');
    expect(await axeViolations(page)).toEqual([]);

    const link = page.getByRole('link', { name: /Download your return label/ });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 4).toString()).toBe('%PDF');
    expect(errors, errors.join('\n')).toEqual([]);
    saveScreenshot('returns-portal-status', await page.screenshot({ fullPage: true }));
    await context.close();
  });
});

import { expect, it } from 'vitest';
import { collectPageErrors, describeWithBrowser, saveScreenshot, useSampleWorld } from './browser-harness.js';

describeWithBrowser('notification template editor in Chromium', () => {
  const world = useSampleWorld();

  it('edits a template, previews the unsaved text in the sandboxed frame, saves it and finds it kept', async () => {
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 2400 }, deviceScaleFactor: 1, locale: 'en-GB' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    await page.goto(`${world.baseUrl}/console/sign-in/`);
    await page.getByLabel('Client id').fill(world.sample.account.clientId);
    await page.getByLabel('Client secret').fill(world.sample.account.clientSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/shipments\/$/);

    // From the navigation to the settings, then to the editor, then to one template.
    await page.getByRole('link', { name: 'Notifications', exact: true }).click();
    await page.waitForURL(/\/console\/notifications\/$/);
    await page.getByRole('link', { name: 'Edit the message templates' }).click();
    await page.waitForURL(/\/console\/notifications\/templates\/$/);
    await page.getByLabel('Trigger').selectOption('out_for_delivery');
    await page.getByLabel('Channel').selectOption('email');
    await page.getByLabel('Language').selectOption('en');
    await page.getByRole('button', { name: 'Open template' }).click();
    await page.waitForURL(/trigger=out_for_delivery&channel=email&language=en$/);

    // The saved (default) template is previewed in the frame from the start.
    const frame = page.frameLocator('iframe[title="E-mail preview"]');
    await expect.poll(() => frame.locator('body').innerText()).toContain('Track your parcel');
    const defaultBody = await page.getByLabel('Message text').inputValue();
    expect(defaultBody.length).toBeGreaterThan(0);

    // Change the text and preview it: the frame shows the new text, nothing is saved yet.
    const text =
      'Good news, {{ recipient.name }}: parcel {{ shipment.shipment_id }} is on the van today.\n\nSee you soon, {{ merchant.name }}.';
    await page.getByLabel('Subject').fill('Arriving today: {{ shipment.shipment_id }}');
    await page.getByLabel('Message text').fill(text);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForLoadState('load');
    expect(await page.locator('#preview-heading').innerText()).toContain('not saved');
    await expect.poll(() => frame.locator('body').innerText()).toMatch(/parcel \S+ is on the van today\./);
    expect(await page.locator('[data-preview="subject"]').innerText()).toMatch(/^Arriving today: \S+$/);
    expect(await page.locator('[data-preview="text"]').innerText()).toMatch(/is on the van today\./);
    expect(await page.getByLabel('Message text').inputValue()).toBe(text);
    // The frame is sandboxed, and its document runs under its own policy.
    expect(await page.locator('iframe[title="E-mail preview"]').getAttribute('sandbox')).toBe('');
    const frameUrl = await page.locator('iframe[title="E-mail preview"]').getAttribute('src');
    const framed = await page.request.get(`${world.baseUrl}${frameUrl}`);
    expect(framed.headers()['content-security-policy']).toContain('sandbox');
    // A viewport as tall as the page: a full-page capture resizes it, and the sandboxed frame may not repaint in time.
    saveScreenshot('notification-template-editor', await page.screenshot({ fullPage: false }));

    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/saved=1$/);
    expect(await page.getByRole('status').first().innerText()).toContain('Template saved.');
    await page.reload();
    expect(await page.getByLabel('Message text').inputValue()).toBe(text);
    expect(await page.getByLabel('Subject').inputValue()).toBe('Arriving today: {{ shipment.shipment_id }}');
    await expect.poll(() => frame.locator('body').innerText()).toMatch(/is on the van today\./);
    expect(await page.getByRole('button', { name: 'Reset to default' }).count()).toBe(1);

    // No script anywhere, and everything loaded under the pages' policies.
    expect(await page.locator('script').count()).toBe(0);
    expect(errors, errors.join('\n')).toEqual([]);
    await context.close();
  });
});

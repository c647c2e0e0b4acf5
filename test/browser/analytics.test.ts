import type { ConsoleMessage } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/app.js';
import { seedDeliveryHistory } from './analytics-sample.js';
import { collectPageErrors, describeWithBrowser, saveScreenshot, useSampleWorld } from './browser-harness.js';

describeWithBrowser('console Analytics page in Chromium', () => {
  const world = useSampleWorld();
  let merchant: TestAccount;
  beforeAll(async () => {
    merchant = await world.t.account();
    await seedDeliveryHistory(world.t, merchant);
  });

  it('draws the charts under the console policy, with their tables, and filters by carrier', async () => {
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, locale: 'en-GB' });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors = collectPageErrors(page);
    // A blocked style or script is reported on the console (as an error, or a warning in report-only cases).
    const policy: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) policy.push(message.text());
    });

    await page.goto(`${world.baseUrl}/console/sign-in/`);
    await page.getByLabel('Client id').fill(merchant.clientId);
    await page.getByLabel('Client secret').fill(merchant.clientSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/shipments\/$/);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.waitForURL(/\/console\/analytics\/$/);
    expect(await page.locator('h1').textContent()).toBe('Delivery analytics');

    // Three charts, each drawn at a real size with the stylesheet's rules applied (Plot's own were taken out).
    const charts = page.locator('svg.analytics-chart');
    expect(await charts.count()).toBe(3);
    for (const chart of await charts.all()) {
      const box = await chart.boundingBox();
      expect(box?.width).toBeGreaterThan(300);
      expect(box?.height).toBeGreaterThan(100);
      expect(await chart.evaluate((svg) => getComputedStyle(svg).display)).toBe('block');
      expect(await chart.getAttribute('aria-label')).toBeTruthy();
      expect(await chart.getAttribute('aria-description')).toBeTruthy();
    }
    // Assistive technology finds each chart as an image by its label.
    for (const name of ['Transit time per carrier', 'Weekly on-time rate per carrier', 'First-attempt success rate per carrier']) {
      expect(await page.getByRole('img', { name, exact: true }).count(), name).toBe(1);
    }
    expect(await page.locator('svg.analytics-chart rect title').count()).toBeGreaterThan(20);
    // Every chart has its table beside it, and the carrier × destination table is shaded by band.
    expect(await page.locator('.chart-pair table').count()).toBe(3);
    expect(await page.locator('.rate-table td.rate-high, .rate-table td.rate-good').count()).toBeGreaterThan(0);
    const shaded = await page
      .locator('.rate-table td.rate-high')
      .first()
      .evaluate((td) => getComputedStyle(td).backgroundColor);
    expect(shaded).toBe('rgb(207, 234, 216)');
    // Six parcels overdue, longest first, each linking to its shipment.
    const queue = page.locator('section[aria-labelledby="exceptions"] tbody tr');
    expect(await queue.count()).toBe(6);
    expect(await queue.first().locator('a').textContent()).toBe('SO-10391');
    expect(await page.locator('script').count()).toBe(0);
    saveScreenshot('console-analytics', await page.screenshot({ fullPage: true }));

    // One carrier: the first-attempt chart has one bar, and the queue that carrier's parcels only.
    await page.getByLabel('Carrier', { exact: true }).selectOption('hermes');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/carrier=hermes/);
    expect(await page.locator('section[aria-labelledby="first-attempt"] tbody tr').count()).toBe(1);
    expect(await page.locator('section[aria-labelledby="exceptions"] tbody tr').count()).toBe(2);
    const weekly = page.locator('section[aria-labelledby="weekly-on-time"]');
    saveScreenshot('console-analytics-carrier', await weekly.screenshot());

    // The shipment page of a queued parcel opens from the queue.
    await page.locator('section[aria-labelledby="exceptions"] tbody a').first().click();
    await page.waitForURL(/\/console\/shipments\/[0-9a-f-]{36}\/$/);

    expect(policy, policy.join('\n')).toEqual([]);
    expect(errors, errors.join('\n')).toEqual([]);
    await context.close();
  });
});

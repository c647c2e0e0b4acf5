import fs from 'node:fs';
import { expect, it } from 'vitest';
import { collectPageErrors, describeWithBrowser, saveScreenshot, useSampleWorld } from './browser-harness.js';

describeWithBrowser('merchant console in Chromium', () => {
  const world = useSampleWorld();

  it('signs in, finds a shipment, opens its timeline and downloads its label', async () => {
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1, locale: 'en-GB' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    // Unsigned visitors land on the sign-in form; a wrong secret is refused on the page.
    await page.goto(`${world.baseUrl}/console/`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in/');
    await page.getByLabel('Client id').fill(world.sample.account.clientId);
    await page.getByLabel('Client secret').fill('not-the-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.locator('[role="alert"]').count()).toBeGreaterThan(0);
    expect((await context.cookies()).map((c) => c.name)).not.toContain('waybill_console');

    await page.getByLabel('Client id').fill(world.sample.account.clientId);
    await page.getByLabel('Client secret').fill(world.sample.account.clientSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/shipments\/$/);
    errors.length = 0; // the refused sign-in above answered 401, as it should
    const session = (await context.cookies()).find((c) => c.name === 'waybill_console');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');
    // The secret is nowhere in the browser's storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
    expect(stored).not.toContain(world.sample.account.clientSecret);
    expect(await page.locator('tbody tr').count()).toBeGreaterThanOrEqual(8);
    saveScreenshot('console', await page.screenshot({ fullPage: false }));

    // Search by shipment id: exactly the booked shipment.
    await page.getByLabel('Search in').selectOption('shipment_id');
    await page.getByLabel('Search for').fill(world.sample.booked.shipmentId);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=SO-10482/);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(1);
    await rows.first().getByRole('link', { name: world.sample.booked.shipmentId }).click();

    // Its page: the timeline, newest first, and the label.
    await page.waitForURL(/\/console\/shipments\/[0-9a-f-]{36}\/$/);
    expect(await page.locator('h1').innerText()).toContain(world.sample.booked.shipmentId);
    const timeline = page.locator('ol.timeline li');
    expect(await timeline.count()).toBeGreaterThan(0);
    expect(await page.locator('body').innerText()).toContain(world.sample.booked.trackingNumber);
    saveScreenshot('console-shipment', await page.screenshot({ fullPage: true }));

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Download label/ }).click()]);
    const file = await download.path();
    expect(file).toBeTruthy();
    expect(
      fs
        .readFileSync(file as string)
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('%PDF');

    // The page runs no script and every resource loaded under its policy.
    expect(await page.locator('script').count()).toBe(0);
    expect(errors, errors.join('\n')).toEqual([]);
    await context.close();
  });
});

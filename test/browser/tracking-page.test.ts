import { expect, it } from 'vitest';
import { collectPageErrors, describeWithBrowser, saveScreenshot, useSampleWorld } from './browser-harness.js';
import { PRIVATE_TEXT } from './sample-data.js';

describeWithBrowser('tracking page in Chromium', () => {
  const world = useSampleWorld();

  it('shows the phase line and the timeline, reachable by keyboard, with nothing private on the page', async () => {
    const context = await world.browser.newContext({ viewport: { width: 760, height: 900 }, deviceScaleFactor: 1, locale: 'en-GB' });
    const page = await context.newPage();
    const errors = collectPageErrors(page, (url) => url.includes('no-such-reference'));
    const response = await page.goto(`${world.baseUrl}/t/${world.sample.trackingReference}`);
    expect(response?.status()).toBe(200);

    // The phase line: steps before the current one done, the current one marked for assistive technology.
    const current = page.locator('ol.progress li[aria-current="step"]');
    await expect.poll(() => current.getAttribute('data-step')).toBe('out_for_delivery');
    expect(await page.locator('ol.progress li.done').evaluateAll((items) => items.map((li) => li.getAttribute('data-step')))).toEqual([
      'info_received',
      'in_transit',
    ]);
    expect(await page.locator('.status').innerText()).toMatch(/out for delivery/i);

    // The timeline is visible, newest first, each event with a machine-readable time.
    const timeline = page.locator('ol.timeline');
    expect(await timeline.isVisible()).toBe(true);
    const events = timeline.locator('li');
    expect(await events.count()).toBeGreaterThan(4);
    expect(await events.first().locator('.what').innerText()).toMatch(/out for delivery|delivery vehicle/i);
    const times = await timeline.locator('time').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('datetime') ?? ''));
    expect(times.every((time) => /^\d{4}-\d{2}-\d{2}/.test(time))).toBe(true);

    // Keyboard: the first Tab reaches the skip link, which takes focus to the main content with the timeline.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip');
    expect(await page.locator('.skip').isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(await page.evaluate(() => document.activeElement?.contains(document.querySelector('ol.timeline')))).toBe(true);

    // Nothing a recipient should not see: no street, postal code, name, e-mail, phone, price or sender.
    const text = await page.locator('body').innerText();
    for (const secret of PRIVATE_TEXT) expect(text, secret).not.toContain(secret);
    expect(text).toMatch(/WB3000117/);
    // The page runs no script at all (the policy forbids it) and loads without errors.
    expect(await page.locator('script').count()).toBe(0);
    expect(errors, errors.join('\n')).toEqual([]);

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    saveScreenshot('tracking-page', await page.screenshot({ fullPage: true }));
    await context.close();
  });

  it('answers an unknown reference with the not-found page', async () => {
    const page = await world.browser.newPage();
    const response = await page.goto(`${world.baseUrl}/t/no-such-reference`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBeTruthy();
    await page.close();
  });
});

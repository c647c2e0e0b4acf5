import { expect, it } from 'vitest';
import { collectPageErrors, describeWithBrowser, saveScreenshot, useSampleWorld } from './browser-harness.js';
import { PRIVATE_TEXT } from './sample-data.js';

const GERMAN_DATE = /\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}/;

describeWithBrowser('tracking page in German, in Chromium', () => {
  const world = useSampleWorld();

  it('speaks the browser’s language: German words, <html lang="de">, German dates, the same keyboard path', async () => {
    // Chromium with a German locale sends Accept-Language: de-DE.
    const context = await world.browser.newContext({ viewport: { width: 760, height: 900 }, deviceScaleFactor: 1, locale: 'de-DE' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const response = await page.goto(`${world.baseUrl}/t/${world.sample.trackingReference}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-language']).toBe('de');

    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await page.title()).toBe('Sendungsverfolgung – In Zustellung');
    expect(await page.locator('h1').textContent()).toBe('Ihr Paket');
    expect(await page.locator('.status').textContent()).toBe('In Zustellung');

    // The phase line, with its state words for assistive technology in German.
    const current = page.locator('ol.progress li[aria-current="step"]');
    expect(await current.getAttribute('data-step')).toBe('out_for_delivery');
    expect(await current.textContent()).toBe('In Zustellung (aktueller Schritt)');
    expect(await page.locator('ol.progress').getAttribute('aria-label')).toBe('Fortschritt der Zustellung');
    expect(await page.locator('ol.progress li.done').first().textContent()).toBe('Sendungsdaten übermittelt (abgeschlossen)');

    // Facts and the timeline headed in German, every time written with a German month.
    expect(await page.locator('dl.facts dt').allInnerTexts()).toEqual(expect.arrayContaining(['Sendungsnummer', 'Paketdienst']));
    expect(await page.locator('#timeline-heading').textContent()).toBe('Sendungsverlauf');
    const labels = await page.locator('ol.timeline time').allInnerTexts();
    expect(labels.length).toBeGreaterThan(4);
    for (const label of labels) expect(label).toMatch(GERMAN_DATE);

    // Keyboard: the skip link, in German, takes focus to the main content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Zum Inhalt springen');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

    // The page's own words are German (event descriptions stay as the carrier wrote them).
    const text = await page.locator('body').textContent();
    for (const english of [
      'Track your parcel',
      'Current status',
      'Tracking history',
      'Tracking number',
      'Skip to content',
      'Times are shown',
    ]) {
      expect(text).not.toContain(english);
    }
    for (const secret of PRIVATE_TEXT) expect(text, secret).not.toContain(secret);
    expect(await page.locator('script').count()).toBe(0);
    expect(errors, errors.join('\n')).toEqual([]);

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    saveScreenshot('tracking-page-de', await page.screenshot({ fullPage: true }));
    await context.close();
  });

  it('lets ?lang= override the browser, and keeps a German not-found page', async () => {
    const context = await world.browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto(`${world.baseUrl}/t/${world.sample.trackingReference}?lang=en`);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.locator('.status').textContent()).toMatch(/out for delivery/i);

    const missing = await page.goto(`${world.baseUrl}/t/no-such-reference`);
    expect(missing?.status()).toBe(404);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await page.locator('h1').textContent()).toBe('Sendungsverfolgung nicht gefunden');
    await context.close();
  });
});

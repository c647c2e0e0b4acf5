import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { collectPageErrors, describeWithBrowser, saveScreenshot, useSampleWorld } from './browser-harness.js';

/** The ids of the policy form's fields a person can fill (every input but the hidden token, selects, text areas). */
function formFieldIds(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('form[action="/console/returns/policy/"] :is(input, select, textarea)')]
      .filter((element) => (element as HTMLInputElement).type !== 'hidden')
      .map((element) => element.id),
  );
}

/** The text of the elements that describe the focused field (its message and its hint). */
function focusedDescription(page: Page): Promise<string> {
  return page.evaluate(() => {
    const ids = (document.activeElement?.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  });
}

describeWithBrowser('returns policy console page in Chromium, keyboard only', () => {
  const world = useSampleWorld();

  it('reaches every field with Tab, saves changes typed with the keyboard, and ties a refusal to its field', async () => {
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, locale: 'en-GB' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    await page.goto(`${world.baseUrl}/console/sign-in/`);
    await page.getByLabel('Client id', { exact: true }).fill(world.sample.account.clientId);
    await page.getByLabel('Client secret', { exact: true }).fill(world.sample.account.clientSecret);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/shipments\/$/);

    // From the navigation, with the keyboard.
    await page.getByRole('link', { name: 'Returns policy', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/returns\/policy\/$/);
    const portalUrl = await page.locator('a[data-portal-url]').getAttribute('href');
    expect(portalUrl).toMatch(/\/returns\/[A-Za-z0-9_-]{22}$/);
    expect(await page.locator('body').textContent()).toContain('off: takes no returns');

    // Tab from the portal link reaches every field of the form, in the order of the page, and then the button.
    const ids = await formFieldIds(page);
    expect(ids.length).toBeGreaterThan(80);
    await page.locator('a[data-portal-url]').focus();
    const reached: string[] = [];
    for (let i = 0; i < ids.length + 1; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent || ''));
    }
    expect(reached.slice(0, ids.length)).toEqual(ids);
    expect(reached[ids.length]).toBe('Save policy');

    // Typed and chosen with the keyboard: the portal on, a name, a new reason in an empty row, store credit offered.
    await page.getByLabel('Returns portal', { exact: true }).focus();
    await page.keyboard.press('ArrowUp');
    expect(await page.getByLabel('Returns portal', { exact: true }).inputValue()).toBe('on');
    await page.getByLabel('Portal name', { exact: true }).focus();
    await page.keyboard.type('Nordlicht returns');
    const rows = await page.locator('tr[data-reason]').count();
    await page.getByLabel(`Reason ${rows - 2} code`, { exact: true }).focus();
    await page.keyboard.type('late');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Arrived too late');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Zu spät angekommen');
    await page.getByLabel('Store credit', { exact: true }).focus();
    await page.keyboard.press('Space');
    await page.getByLabel('Portal name', { exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/saved=1$/);
    expect(await page.getByRole('status').first().textContent()).toContain('Policy saved.');
    expect(await page.locator('body').textContent()).toContain('on: takes returns');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    saveScreenshot('console-return-policy', await page.screenshot({ fullPage: true }));

    const api = world.t.as(world.sample.account);
    const saved = (await api('GET', '/v5/returns/policy/')).json().data;
    expect(saved.enabled).toBe(true);
    expect(saved.portal_name).toBe('Nordlicht returns');
    expect(saved.refund_methods).toEqual(['original_payment', 'store_credit']);
    expect(saved.reasons.at(-1)).toEqual({ code: 'late', label: 'Arrived too late', translations: { de: 'Zu spät angekommen' } });

    expect(errors, errors.join('\n')).toEqual([]);

    // A refusal: the message is the field's description, and nothing is saved.
    await page.getByLabel('Return window (days)', { exact: true }).fill('0');
    await page.getByLabel('Return window (days)', { exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toContain('Return window: Enter a number of days from 1 to 365.');
    await page.getByLabel('Return window (days)', { exact: true }).focus();
    expect(await focusedDescription(page)).toContain('Enter a number of days from 1 to 365.');
    expect(await page.getByLabel('Return window (days)', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect((await api('GET', '/v5/returns/policy/')).json().data.return_window_days).toBe(30);

    expect(await page.locator('script').count()).toBe(0);
    // The refused form answered 400, as it should (the browser reports it twice), and nothing else failed.
    expect(errors.length, errors.join('\n')).toBeGreaterThan(0);
    for (const error of errors) expect(error).toMatch(/\b400\b/);
    await context.close();
  });
});

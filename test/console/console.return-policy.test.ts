import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { type ConsoleBrowser, signIn, visibleText } from './console-client.js';

const PAGE = '/console/returns/policy/';

type Pairs = Array<[string, string]>;

function htmlText(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}(?:="([^"]*)")?(?=[\\s>])`).exec(tag);
  return match ? htmlText(match[1] ?? '') : undefined;
}

/** The policy form of a page as a browser sends it: its inputs, ticked boxes, chosen options and texts, in page order. */
function formPairs(page: string): Pairs {
  const start = page.indexOf(`<form method="post" action="${PAGE}"`);
  expect(start, 'the policy form').toBeGreaterThan(-1);
  const form = page.slice(start, page.indexOf('</form>', start));
  const pairs: Pairs = [];
  for (const match of form.matchAll(/<input\b[^>]*>|<select\b[^>]*>[\s\S]*?<\/select>|<textarea\b[^>]*>([\s\S]*?)<\/textarea>/g)) {
    const element = match[0];
    const tag = /^<[^>]*>/.exec(element)![0];
    const name = attribute(tag, 'name');
    if (!name) continue;
    if (element.startsWith('<input')) {
      const type = attribute(tag, 'type') ?? 'text';
      if (type === 'checkbox' && attribute(tag, 'checked') === undefined) continue;
      pairs.push([name, attribute(tag, 'value') ?? (type === 'checkbox' ? 'on' : '')]);
    } else if (element.startsWith('<select')) {
      const selected = /<option value="([^"]*)" selected>/.exec(element) ?? /<option value="([^"]*)"/.exec(element);
      pairs.push([name, htmlText(selected![1])]);
    } else {
      // A browser drops the one line break right after <textarea>.
      pairs.push([name, htmlText(match[1]).replace(/^\n/, '')]);
    }
  }
  return pairs;
}

/** The pairs with one field's value replaced (it must be on the form). */
function withValue(pairs: Pairs, name: string, value: string): Pairs {
  expect(
    pairs.some(([n]) => n === name),
    name,
  ).toBe(true);
  return pairs.map(([n, v]) => [n, n === name ? value : v]);
}

/** The pairs with a checkbox ticked or not. */
function withBox(pairs: Pairs, name: string, value: string, ticked: boolean): Pairs {
  const rest = pairs.filter(([n, v]) => !(n === name && v === value));
  return ticked ? [...rest, [name, value]] : rest;
}

/** A field's messages under it: the element the input's aria-describedby names, its text. */
function problemOf(page: string, field: string): string {
  const input = new RegExp(`<(?:input|select|textarea|table|fieldset)\\b[^>]*\\bid="${field}"[^>]*>`).exec(page);
  expect(input, `the field ${field}`).not.toBeNull();
  const describedBy = attribute(input![0], 'aria-describedby') ?? '';
  // A field is marked invalid; a group (the reasons' table, a fieldset of boxes) is only described.
  if (/^<(?:input|select|textarea)/.test(input![0])) expect(attribute(input![0], 'aria-invalid'), `${field} marked invalid`).toBe('true');
  expect(describedBy.split(' ')).toContain(`${field}-problem`);
  const message = new RegExp(`<p class="notice" id="${field}-problem">([\\s\\S]*?)</p>`).exec(page);
  expect(message, `the message of ${field}`).not.toBeNull();
  return visibleText(message![1]);
}

/**
 * The returns policy page of the console through fastify.inject: the form as the page renders it, submitted
 * as a browser would, checked against what `GET /v5/returns/policy/` answers.
 */
describe('console: returns policy', () => {
  let t: TestApp;
  let acct: TestAccount;
  let other: TestAccount;
  let noReturns: TestAccount;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_PUBLIC_URL: 'https://returns.shop.example' } });
    acct = await t.account({ features: ['returns'] });
    other = await t.account({ features: ['returns'] });
    noReturns = await t.account({});
    browser = await signIn(t, acct);
  });
  afterAll(() => t?.close());

  const apiPolicy = async (who = acct) => {
    const res = await t.call(who.token, 'GET', '/v5/returns/policy/');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  const submit = (pairs: Pairs, who: ConsoleBrowser = browser): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: 'POST',
      url: PAGE,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: who.cookie },
      payload: new URLSearchParams(pairs).toString(),
    });

  const openForm = async (): Promise<Pairs> => {
    const page = await browser.get(PAGE);
    expect(page.statusCode, page.body).toBe(200);
    return formPairs(page.body);
  };

  it('is in the console navigation and shows the portal address, off, and the default policy in the form', async () => {
    const shipments = await browser.get('/console/shipments/');
    expect(shipments.body).toContain(`<a href="${PAGE}">Returns policy</a>`);

    const page = await browser.get(PAGE);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain(`<a href="${PAGE}" aria-current="page">Returns policy</a>`);
    expect(page.body).not.toContain('<script');
    const policy = await apiPolicy();
    expect(policy.portal_url).toMatch(/^https:\/\/returns\.shop\.example\/returns\/[A-Za-z0-9_-]{22}$/);
    expect(page.body).toContain(`<a href="${policy.portal_url}" data-portal-url>${policy.portal_url}</a>`);
    const text = visibleText(page.body);
    expect(text).toContain('off: takes no returns');
    expect(text).toContain('never (the default policy)');

    const pairs = formPairs(page.body);
    const value = (name: string) => pairs.filter(([n]) => n === name).map(([, v]) => v);
    expect(value('enabled')).toEqual(['off']);
    expect(value('return_window_days')).toEqual(['30']);
    expect(value('return_methods')).toEqual(['drop_off']);
    expect(value('refund_methods')).toEqual(['original_payment']);
    expect(value('primary_color')).toEqual(['#1f4e79']);
    expect(value('auto_approval_enabled')).toEqual(['off']);
    // The default reasons with their six translations, then three empty rows to add reasons.
    const reasons = policy.reasons as Array<{ code: string; label: string; translations: Record<string, string> }>;
    reasons.forEach((reason, row) => {
      expect(value(`reason_${row}_code`)).toEqual([reason.code]);
      expect(value(`reason_${row}_label`)).toEqual([reason.label]);
      for (const language of ['en', 'de', 'fr', 'nl', 'es', 'it']) {
        expect(value(`reason_${row}_${language}`)).toEqual([reason.translations[language]]);
      }
    });
    expect(value(`reason_${reasons.length + 2}_code`)).toEqual(['']);
    expect(value(`reason_${reasons.length + 3}_code`)).toEqual([]);
    expect(value('reason_1_de')).toEqual(['Zu groß']);
  });

  it('gives every field of the form a label', async () => {
    const page = (await browser.get(PAGE)).body;
    const form = page.slice(page.indexOf(`action="${PAGE}"`), page.indexOf('</form>', page.indexOf(`action="${PAGE}"`)));
    const fields = [...form.matchAll(/<(input|select|textarea)\b[^>]*>/g)].filter(([tag]) => attribute(tag, 'type') !== 'hidden');
    expect(fields.length).toBeGreaterThan(80);
    for (const [tag] of fields) {
      const id = attribute(tag, 'id');
      expect(id, tag).toBeTruthy();
      expect(new RegExp(`<label[^>]*\\bfor="${id}"[^>]*>[^<]+</label>`).test(page), `label of ${id}`).toBe(true);
    }
  });

  it('saves the form sent back unchanged as the same policy', async () => {
    const before = await apiPolicy();
    const res = await submit(await openForm());
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`${PAGE}?saved=1`);
    const after = await apiPolicy();
    expect(after.updated_at).not.toBeNull();
    expect({ ...after, updated_at: null }).toEqual({ ...before, updated_at: null });
    const page = await browser.get(res.headers.location as string);
    expect(visibleText(page.body)).toContain('Policy saved.');
  });

  it('edits every setting: reasons changed, removed and added, methods, approval, non-returnable products, the portal’s look', async () => {
    let pairs = await openForm();
    pairs = withValue(pairs, 'enabled', 'on');
    pairs = withValue(pairs, 'portal_name', 'Sock Shop returns');
    pairs = withValue(pairs, 'primary_color', '#AA3300');
    pairs = withValue(pairs, 'logo_url', 'https://cdn.shop.example/logo.png');
    pairs = withValue(pairs, 'return_window_days', '60');
    pairs = withBox(pairs, 'return_methods', 'pick_up', true);
    pairs = withBox(pairs, 'refund_methods', 'original_payment', false);
    pairs = withBox(pairs, 'refund_methods', 'store_credit', true);
    pairs = withValue(pairs, 'auto_approval_enabled', 'on');
    pairs = withValue(pairs, 'max_value_amount', '150');
    pairs = withValue(pairs, 'max_value_currency', 'eur');
    pairs = withValue(pairs, 'non_returnable_product_ids', 'GIFT-CARD\r\n\r\n  GIFT-CARD \r\nVOUCHER-10');
    pairs = withValue(pairs, 'non_returnable_product_references', 'SKU-UNDERWEAR');
    pairs = withValue(pairs, 'non_returnable_categories', 'Hygiene, personal care\r\nEarrings');
    // Reason 2 (too_large) gets a new German text and no Italian one; reason 1 (too_small) is removed.
    pairs = withValue(pairs, 'reason_1_de', 'Viel zu groß');
    pairs = withValue(pairs, 'reason_1_it', '');
    pairs = withBox(pairs, 'reason_0_remove', 'on', true);
    // A new reason in the first empty row, with two translations.
    pairs = withValue(pairs, 'reason_7_code', 'colour');
    pairs = withValue(pairs, 'reason_7_label', 'Colour not as pictured');
    pairs = withValue(pairs, 'reason_7_de', 'Farbe anders als abgebildet');
    pairs = withValue(pairs, 'reason_7_fr', 'Couleur différente');

    const res = await submit(pairs);
    expect(res.statusCode, res.body).toBe(303);
    const saved = await apiPolicy();
    expect(saved).toMatchObject({
      enabled: true,
      portal_name: 'Sock Shop returns',
      return_window_days: 60,
      return_methods: ['drop_off', 'pick_up'],
      refund_methods: ['store_credit'],
      auto_approval: { enabled: true, max_value: { amount: '150.00', currency: 'EUR' } },
      non_returnable: {
        product_ids: ['GIFT-CARD', 'VOUCHER-10'],
        product_references: ['SKU-UNDERWEAR'],
        categories: ['Hygiene, personal care', 'Earrings'],
      },
      branding: { primary_color: '#aa3300', logo_url: 'https://cdn.shop.example/logo.png' },
    });
    const codes = saved.reasons.map((r: { code: string }) => r.code);
    expect(codes).toEqual(['too_large', 'damaged', 'not_as_described', 'wrong_item', 'changed_mind', 'other', 'colour']);
    expect(saved.reasons[0].translations).toEqual({
      en: 'Too large',
      de: 'Viel zu groß',
      fr: 'Trop grand',
      nl: 'Te groot',
      es: 'Demasiado grande',
    });
    expect(saved.reasons[6]).toEqual({
      code: 'colour',
      label: 'Colour not as pictured',
      translations: { de: 'Farbe anders als abgebildet', fr: 'Couleur différente' },
    });

    // The page shows the portal on, the saved values, and three empty rows again.
    const page = await browser.get(PAGE);
    expect(visibleText(page.body)).toContain('on: takes returns');
    const shown = formPairs(page.body);
    const value = (name: string) => shown.filter(([n]) => n === name).map(([, v]) => v);
    expect(value('enabled')).toEqual(['on']);
    expect(value('max_value_currency')).toEqual(['EUR']);
    expect(value('non_returnable_product_ids')).toEqual(['GIFT-CARD\nVOUCHER-10']);
    expect(value('reason_6_code')).toEqual(['colour']);
    expect(value('reason_6_it')).toEqual(['']);
    expect(value('reason_9_code')).toEqual(['']);
    expect(value('reason_10_code')).toEqual([]);
    // The other account's policy is its own.
    expect((await apiPolicy(other)).enabled).toBe(false);
  });

  it('shows the service’s refusals next to their fields and saves nothing', async () => {
    const before = await apiPolicy();
    let pairs = await openForm();
    // Codes must be unique, the currency real, the logo on https: rules of ReturnPolicyService.put.
    pairs = withValue(pairs, 'reason_1_code', 'too_large');
    pairs = withValue(pairs, 'max_value_currency', 'XYZ');
    pairs = withValue(pairs, 'logo_url', 'http://cdn.shop.example/logo.png');
    pairs = withValue(pairs, 'portal_name', 'Changed, not saved');
    const res = await submit(pairs);
    expect(res.statusCode).toBe(400);
    expect(problemOf(res.body, 'reason_1_code')).toBe('Already used by an earlier reason: codes must be unique.');
    expect(problemOf(res.body, 'max_value_currency')).toBe('Not an ISO 4217 currency code.');
    expect(problemOf(res.body, 'logo_url')).toBe('Must be an https URL.');
    const text = visibleText(res.body);
    expect(text).toContain('The policy was not saved. Check these fields:');
    expect(text).toContain('Reason 2 code: Already used by an earlier reason: codes must be unique.');
    expect(text).toContain('Logo URL: Must be an https URL.');
    // What was typed is shown again; nothing changed.
    const shown = formPairs(res.body);
    expect(shown.find(([n]) => n === 'portal_name')?.[1]).toBe('Changed, not saved');
    expect(shown.find(([n]) => n === 'reason_1_code')?.[1]).toBe('too_large');
    expect(await apiPolicy()).toEqual(before);
  });

  it('refuses what the form itself can tell is wrong, each message at its field, and saves nothing', async () => {
    const before = await apiPolicy();
    let pairs = await openForm();
    pairs = withValue(pairs, 'return_window_days', '366');
    pairs = withBox(pairs, 'return_methods', 'drop_off', false);
    pairs = withBox(pairs, 'return_methods', 'pick_up', false);
    pairs = withValue(pairs, 'primary_color', 'red');
    pairs = withValue(pairs, 'max_value_amount', '12,50');
    pairs = withValue(pairs, 'reason_8_label', 'A reason without a code');
    pairs = withValue(pairs, 'reason_2_code', 'Damaged!');
    pairs = withValue(pairs, 'non_returnable_product_references', `SKU-1\n${'X'.repeat(51)}`);
    const res = await submit(pairs);
    expect(res.statusCode).toBe(400);
    expect(problemOf(res.body, 'return_window_days')).toBe('Enter a number of days from 1 to 365.');
    expect(problemOf(res.body, 'return_methods')).toBe('Tick at least one return method.');
    expect(problemOf(res.body, 'primary_color')).toBe('Enter # and six hexadecimal digits, such as #1f4e79.');
    expect(problemOf(res.body, 'max_value_amount')).toBe('Enter an amount such as 150 or 99.95 (a point before the decimals).');
    expect(problemOf(res.body, 'reason_8_code')).toBe('Enter a code.');
    expect(problemOf(res.body, 'reason_2_code')).toBe('Only lower-case letters, digits and _, at most 40.');
    expect(problemOf(res.body, 'non_returnable_product_references')).toBe('Line 2: at most 50 characters.');
    // Each return method's box points at the message too.
    expect(res.body).toMatch(
      /id="return_methods_drop_off" name="return_methods" value="drop_off" aria-invalid="true" aria-describedby="return_methods-problem"/,
    );
    const summary = visibleText(
      res.body.slice(res.body.indexOf('role="alert"'), res.body.indexOf('</div>', res.body.indexOf('role="alert"'))),
    );
    expect(summary.indexOf('Return window:')).toBeLessThan(summary.indexOf('Reason 3 code:'));
    expect(summary.indexOf('Reason 3 code:')).toBeLessThan(summary.indexOf('Reason 9 code:'));
    expect(await apiPolicy()).toEqual(before);
  });

  it('keeps at least one reason, and a maximum value needs its currency', async () => {
    const before = await apiPolicy();
    let pairs = await openForm();
    for (const [name] of pairs.filter(([n]) => /^reason_\d+_code$/.test(n)))
      pairs = withBox(pairs, name.replace('code', 'remove'), 'on', true);
    pairs = withValue(pairs, 'max_value_currency', '');
    const res = await submit(pairs);
    expect(res.statusCode).toBe(400);
    expect(problemOf(res.body, 'reasons')).toBe('Keep at least one reason.');
    expect(problemOf(res.body, 'max_value_currency')).toBe('Enter the currency of the amount.');
    // The boxes stay ticked as sent.
    expect(formPairs(res.body).filter(([n]) => n.endsWith('_remove')).length).toBeGreaterThan(5);
    expect(await apiPolicy()).toEqual(before);
  });

  it('takes long lists of products (a form larger than the console’s usual 16 KiB) and refuses more than 1,000 lines or 30 reasons', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `PRODUCT-${String(i).padStart(42, '0')}`);
    expect(ids[999]).toHaveLength(50);
    const res = await submit(withValue(await openForm(), 'non_returnable_product_ids', ids.join('\r\n')));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
    expect((await apiPolicy()).non_returnable.product_ids).toEqual(ids);

    const before = await apiPolicy();
    const tooMany = await submit(withValue(await openForm(), 'non_returnable_product_ids', [...ids, 'ONE-MORE'].join('\n')));
    expect(tooMany.statusCode).toBe(400);
    expect(problemOf(tooMany.body, 'non_returnable_product_ids')).toBe('At most 1,000 lines.');
    // Rows beyond the empty ones the page shows are read too: 31 reasons are one too many.
    const extra: Pairs = [];
    for (let row = 20; row < 44; row++) extra.push([`reason_${row}_code`, `extra_${row}`], [`reason_${row}_label`, `Extra ${row}`]);
    const reasons = await submit([...(await openForm()), ...extra]);
    expect(reasons.statusCode).toBe(400);
    expect(problemOf(reasons.body, 'reasons')).toBe('At most 30 reasons: remove 1.');
    expect(await apiPolicy()).toEqual(before);
  });

  it('keeps the order of methods set through the API, and adds a ticked one after them', async () => {
    const policy = await apiPolicy();
    const { portal_reference: _r, portal_url: _u, updated_at: _t, ...body } = policy;
    const put = await t.call(acct.token, 'PUT', '/v5/returns/policy/', { ...body, refund_methods: ['store_credit', 'original_payment'] });
    expect(put.statusCode, put.body).toBe(200);
    const pairs = withBox(await openForm(), 'refund_methods', 'exchange', true);
    expect((await submit(pairs)).statusCode).toBe(303);
    expect((await apiPolicy()).refund_methods).toEqual(['store_credit', 'original_payment', 'exchange']);
  });

  it('refuses a form without the session’s token, and accounts without returns', async () => {
    const before = await apiPolicy();
    const pairs = withValue(
      (await openForm()).filter(([n]) => n !== 'csrf'),
      'portal_name',
      'Forged',
    );
    const forged = await submit(pairs);
    expect(forged.statusCode).toBe(403);
    expect(await apiPolicy()).toEqual(before);

    const without = await signIn(t, noReturns);
    const page = await without.get(PAGE);
    expect(page.statusCode).toBe(403);
    expect(visibleText(page.body)).toContain('Feature not enabled: returns');
    const post = await without.post(PAGE, { portal_name: 'No' });
    expect(post.statusCode).toBe(403);
  });
});

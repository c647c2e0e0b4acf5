import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/** GET/PUT /v5/returns/policy/: the default policy and portal address, a replaced policy, and what is refused. */
describe('the returns policy', () => {
  let t: TestApp;
  let acct: TestAccount;
  let other: TestAccount;
  let noReturns: TestAccount;

  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_PUBLIC_URL: 'https://returns.shop.example' } });
    acct = await t.account({ features: ['returns'] });
    other = await t.account({ features: ['returns'] });
    noReturns = await t.account({});
  });
  afterAll(() => t?.close());

  const get = (who = acct) => t.call(who.token, 'GET', '/v5/returns/policy/');
  const put = (body: unknown, who = acct) => t.call(who.token, 'PUT', '/v5/returns/policy/', body);
  const stored = async () => t.context.database.db.selectFrom('return_policies').selectAll().execute();

  /** A policy as a merchant would send it: the one GET answered, changed. */
  async function edited(change: (policy: Record<string, any>) => void): Promise<Record<string, any>> {
    const policy = structuredClone((await get()).json().data);
    change(policy);
    return policy;
  }

  it('answers the default policy, the portal off, with a portal address that stays the same', async () => {
    const res = await get();
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      enabled: false,
      portal_name: null,
      return_window_days: 30,
      return_methods: ['drop_off'],
      refund_methods: ['original_payment'],
      auto_approval: { enabled: false, max_value: null },
      non_returnable: { product_ids: [], product_references: [], categories: [] },
      branding: { primary_color: '#1f4e79', logo_url: null },
      updated_at: null,
    });
    expect(data.portal_reference).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(data.portal_url).toBe(`https://returns.shop.example/returns/${data.portal_reference}`);
    expect(data.reasons.map((r: { code: string }) => r.code)).toContain('damaged');
    expect(data.reasons.find((r: { code: string }) => r.code === 'too_small').translations.de).toBe('Zu klein');
    expect((await get()).json().data.portal_reference).toBe(data.portal_reference);
  });

  it('gives every account its own portal reference', async () => {
    const mine = (await get()).json().data.portal_reference;
    const theirs = (await get(other)).json().data.portal_reference;
    expect(theirs).not.toBe(mine);
  });

  it('replaces the policy with what PUT sends, the GET answer changed and sent back', async () => {
    const before = (await get()).json().data;
    const body = await edited((p) => {
      p.enabled = true;
      p.portal_name = 'Sock Shop returns';
      p.return_window_days = 60;
      p.reasons = [
        { code: 'too_small', label: 'Too small', translations: { de: 'Zu klein' } },
        { code: 'colour', label: 'Colour not as pictured' },
      ];
      p.return_methods = ['drop_off', 'pick_up'];
      p.refund_methods = ['store_credit', 'original_payment'];
      p.auto_approval = { enabled: true, max_value: { amount: 150, currency: 'EUR' } };
      p.non_returnable = { product_ids: ['GIFT-CARD', 'GIFT-CARD'], product_references: ['SKU-UNDERWEAR'], categories: ['Hygiene'] };
      p.branding = { primary_color: '#AA3300', logo_url: 'https://cdn.shop.example/logo.png' };
    });
    const res = await put(body);
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json().data;
    expect(saved).toMatchObject({
      portal_reference: before.portal_reference,
      enabled: true,
      portal_name: 'Sock Shop returns',
      return_window_days: 60,
      reasons: [
        { code: 'too_small', label: 'Too small', translations: { de: 'Zu klein' } },
        { code: 'colour', label: 'Colour not as pictured', translations: {} },
      ],
      return_methods: ['drop_off', 'pick_up'],
      refund_methods: ['store_credit', 'original_payment'],
      auto_approval: { enabled: true, max_value: { amount: '150.00', currency: 'EUR' } },
      non_returnable: { product_ids: ['GIFT-CARD'], product_references: ['SKU-UNDERWEAR'], categories: ['Hygiene'] },
      branding: { primary_color: '#aa3300', logo_url: 'https://cdn.shop.example/logo.png' },
    });
    expect(saved.updated_at).toEqual(expect.any(String));
    expect((await get()).json().data).toEqual(saved);
    // The other account's policy is untouched.
    expect((await get(other)).json().data).toMatchObject({ enabled: false, return_window_days: 30, updated_at: null });
  });

  it('refuses a policy that breaks a rule with 4030 naming each field, and keeps the policy it had', async () => {
    const before = await stored();
    const body = await edited((p) => {
      p.reasons = [
        { code: 'damaged', label: 'Damaged' },
        { code: 'damaged', label: 'Broken' },
        { code: 'Bad Code', label: 'x', translations: { xx: 'y' } },
      ];
      p.return_methods = ['drop_off', 'drop_off'];
      p.auto_approval = { enabled: true, max_value: { amount: 10, currency: 'XYZ' } };
      p.branding = { primary_color: '#abc', logo_url: 'http://cdn.shop.example/logo.png' };
    });
    const shape = await put(body);
    expect(shape.statusCode, shape.body).toBe(400);
    expect(shape.json().api_response).toBe('4030');
    const shapeErrors = shape.json().errors;
    expect(shapeErrors.reasons['2'].code).toBeDefined();
    expect(shapeErrors.branding.primary_color).toBeDefined();

    const rules = await put(
      await edited((p) => {
        p.reasons = [
          { code: 'damaged', label: 'Damaged' },
          { code: 'damaged', label: 'Broken' },
        ];
        p.return_methods = ['drop_off', 'drop_off'];
        p.auto_approval = { enabled: true, max_value: { amount: 10, currency: 'XYZ' } };
        p.branding = { primary_color: '#abcdef', logo_url: 'http://cdn.shop.example/logo.png' };
      }),
    );
    expect(rules.statusCode, rules.body).toBe(400);
    expect(rules.json()).toEqual({
      api_response: '4030',
      message: 'validation_error',
      errors: {
        reasons: { 1: { code: ['Already used by an earlier reason: codes must be unique.'] } },
        return_methods: { 1: ['Listed twice.'] },
        auto_approval: { max_value: { currency: ['Not an ISO 4217 currency code.'] } },
        branding: { logo_url: ['Must be an https URL.'] },
      },
    });
    expect(await stored()).toEqual(before);
  });

  it('refuses a logo address with no host right after its slashes, which a URL parser would read as a host, or that is no URI', async () => {
    const before = await stored();
    for (const logo of [
      'https:///logo.png',
      'https:/cdn.shop.example/logo.png',
      'https:cdn.shop.example/logo.png',
      'https://',
      'https:// cdn.shop.example/l.png',
      'https://\\cdn.shop.example/logo.png',
      'https://cdn.shop.example/my logo.png',
    ]) {
      const res = await put(await edited((p) => (p.branding = { primary_color: '#abcdef', logo_url: logo })));
      expect(res.statusCode, logo).toBe(400);
      expect(res.json().errors, logo).toEqual({ branding: { logo_url: ['Must be an https URL.'] } });
    }
    expect(await stored()).toEqual(before);
    const good = await put(await edited((p) => (p.branding = { primary_color: '#abcdef', logo_url: 'https://cdn.shop.example/logo.png' })));
    expect(good.statusCode, good.body).toBe(200);
  });

  it('refuses a body without a field, and ignores one it does not know, naming it', async () => {
    const { return_window_days: _, ...missing } = await edited(() => {});
    const res = await put(missing);
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors.return_window_days).toBeDefined();
    const unknown = await put(await edited((p) => (p.refund_days = 14)));
    expect(unknown.statusCode, unknown.body).toBe(200);
    expect(unknown.headers['waybill-ignored-fields']).toBe('refund_days');
    expect(unknown.json().data.refund_days).toBeUndefined();
    const empty = await put(await edited((p) => (p.reasons = [])));
    expect(empty.json().errors.reasons).toBeDefined();
  });

  it('is for accounts with the returns feature only', async () => {
    const res = await get(noReturns);
    expect(res.statusCode).toBe(403);
    expect((await put({}, noReturns)).statusCode).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('admin API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a missing or wrong admin token with 401', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/admin/v1/accounts/' });
    expect(none.statusCode).toBe(401);
    const wrong = await t.app.inject({ method: 'GET', url: '/admin/v1/accounts/', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('refuses a merchant token on the admin API', async () => {
    const acct = await t.account();
    const res = await t.app.inject({ method: 'GET', url: '/admin/v1/accounts/', headers: { authorization: `Bearer ${acct.token}` } });
    expect(res.statusCode).toBe(401);
  });

  it('creates, reads, lists and updates accounts', async () => {
    const created = await t.admin('POST', '/admin/v1/accounts/', { name: 'Acme', features: ['returns', 'booking', 'returns'] });
    expect(created.statusCode).toBe(201);
    const account = created.json();
    expect(account).toMatchObject({ name: 'Acme', features: ['booking', 'returns'] });
    expect(account.account_uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await t.admin('GET', `/admin/v1/accounts/${account.account_uuid}/`)).json().name).toBe('Acme');
    const list = (await t.admin('GET', '/admin/v1/accounts/')).json();
    expect(list.map((a: { account_uuid: string }) => a.account_uuid)).toContain(account.account_uuid);
    const patched = await t.admin('PATCH', `/admin/v1/accounts/${account.account_uuid}/`, { name: 'Acme Ltd', features: [] });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Acme Ltd', features: [] });
  });

  it('refuses bad input naming the field, and unknown accounts with 404', async () => {
    const bad = await t.admin('POST', '/admin/v1/accounts/', { name: '', features: ['flying'] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['features', 'name']);
    const missing = await t.admin('GET', '/admin/v1/accounts/00000000-0000-4000-8000-000000000000/');
    expect(missing.statusCode).toBe(404);
    const malformed = await t.admin('GET', '/admin/v1/accounts/not-a-uuid/');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors.account_uuid).toBeDefined();
  });

  it('shows a client secret once and lists credentials without it', async () => {
    const acct = await t.account();
    const list = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/credentials/`);
    expect(list.json()).toEqual([expect.objectContaining({ client_id: acct.clientId, revoked_date: null })]);
    expect(list.body).not.toContain(acct.clientSecret);
    expect(acct.clientSecret.length).toBeGreaterThanOrEqual(43);
    const unknown = await t.admin('DELETE', `/admin/v1/accounts/${acct.accountUuid}/credentials/wbc_unknown/`);
    expect(unknown.statusCode).toBe(404);
  });

  it('manages carrier configurations and keeps settings encrypted', async () => {
    const acct = await t.account();
    const base = `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`;
    const created = await t.admin('POST', base, {
      carrier_reference: 'sandbox-main',
      carrier_id: 'sandbx',
      booking: ['outbound', 'return'],
      settings: { api_key: 'very-secret-carrier-key' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ carrier_reference: 'sandbox-main', booking: { outbound: true, return: true } });
    expect(created.body).not.toContain('very-secret-carrier-key');
    const rows = await t.context.database.db.selectFrom('carrier_configs').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain('very-secret-carrier-key');
    const duplicate = await t.admin('POST', base, { carrier_reference: 'sandbox-main', carrier_id: 'sandbx' });
    expect(duplicate.statusCode).toBe(409);
    const unknownCarrier = await t.admin('POST', base, { carrier_reference: 'x', carrier_id: 'nopexx' });
    expect(unknownCarrier.statusCode).toBe(400);
    expect(unknownCarrier.json().errors.carrier_id).toBeDefined();
    const tooLong = await t.admin('POST', base, { carrier_reference: 'r'.repeat(51), carrier_id: 'sandbx' });
    expect(tooLong.json().errors.carrier_reference).toEqual(['Ensure this field has no more than 50 characters.']);
    expect((await t.admin('GET', base)).json()).toHaveLength(1);
    expect((await t.admin('DELETE', `${base}sandbox-main/`)).statusCode).toBe(204);
    expect((await t.admin('DELETE', `${base}sandbox-main/`)).statusCode).toBe(404);
    expect((await t.admin('GET', base)).json()).toHaveLength(0);
  });
});

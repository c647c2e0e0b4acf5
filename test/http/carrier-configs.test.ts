import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, usingPostgres } from '../helpers/app.js';

describe('GET /v5/carrier-configs/', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("lists the account's configurations with the Carrier record and its settings, secrets masked", async () => {
    const acct = await t.account({
      carriers: [{ carrier_reference: 'sb-out', booking: ['outbound'], settings: { api_key: 'hunter2-secret' } }],
    });
    const res = await t.call(acct.token, 'GET', '/v5/carrier-configs/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.api_response).toBe('200');
    expect(body.data).toHaveLength(1);
    expect(Object.keys(body.data[0]).sort()).toEqual([
      'booking',
      'carrier',
      'carrier_reference',
      'created_date',
      'fallback',
      'settings',
      'updated_date',
    ]);
    expect(body.data[0].settings).toEqual({ api_key: '********' });
    expect(body.data[0].carrier).toEqual({
      id: 'sandbx',
      name: 'Waybill Sandbox',
      country_iso: ['DE', 'NL', 'FR', 'GB', 'US', 'SG'],
      language: ['en'],
      supported_languages: ['en'],
      contact: null,
      site_link: null,
    });
    expect(body.data[0].booking).toEqual({ outbound: true, return: false });
    expect(res.body).not.toContain('hunter2');
  });

  it('lets only an aggregator be the fallback, refusing it on the field and storing nothing', async () => {
    const acct = await t.account({ carriers: [{ carrier_reference: 'sb-main' }] });
    const path = `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`;
    const added = await t.admin('POST', path, { carrier_reference: 'sb-fallback', carrier_id: 'sandbx', fallback: true });
    expect(added.statusCode, added.body).toBe(400);
    expect(added.json().errors).toEqual({ fallback: [expect.stringContaining('aggregator')] });
    const changed = await t.admin('PATCH', `${path}sb-main/`, { fallback: true });
    expect(changed.statusCode, changed.body).toBe(400);
    expect(changed.json().errors).toEqual({ fallback: [expect.stringContaining('aggregator')] });
    const listed = (await t.call(acct.token, 'GET', '/v5/carrier-configs/')).json().data;
    expect(listed.map((c: { carrier_reference: string; fallback: boolean }) => [c.carrier_reference, c.fallback])).toEqual([
      ['sb-main', false],
    ]);
  });

  it("never shows another account's configurations", async () => {
    await t.account({ carriers: [{ carrier_reference: 'theirs' }] });
    const mine = await t.account();
    const res = await t.call(mine.token, 'GET', '/v5/carrier-configs/');
    expect(res.json()).toEqual({ api_response: '200', data: [] });
  });
});

describe('GET /v5/carrier-configs/ answered from memory (WAYBILL_CARRIER_CONFIG_CACHE_SECONDS)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_CARRIER_CONFIG_CACHE_SECONDS: '3600' } });
  });
  afterAll(() => t.close());

  const references = async (token: string) =>
    ((await t.call(token, 'GET', '/v5/carrier-configs/')).json().data as Array<{ carrier_reference: string }>).map(
      (c) => c.carrier_reference,
    );

  it('shows every change made through this process at once: added, changed, removed', async () => {
    const acct = await t.account({ carriers: [{ carrier_reference: 'first', settings: { api_key: 'one' } }] });
    const before = (await t.call(acct.token, 'GET', '/v5/carrier-configs/')).json().data;
    expect(before.map((c: { carrier_reference: string }) => c.carrier_reference)).toEqual(['first']);

    const added = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_id: 'sandbx',
      carrier_reference: 'second',
    });
    expect(added.statusCode).toBe(201);
    expect(await references(acct.token)).toEqual(['first', 'second']);

    t.clock.advance(1000);
    const changed = await t.admin('PATCH', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/first/`, {
      booking: ['outbound', 'return'],
      settings: { api_key: 'two' },
    });
    expect(changed.statusCode).toBe(200);
    const after = (await t.call(acct.token, 'GET', '/v5/carrier-configs/')).json().data[0];
    expect(after.booking).toEqual({ outbound: true, return: true });
    expect(after.updated_date).toBe(changed.json().updated_date);
    expect(after.updated_date).not.toBe(before[0].updated_date);

    expect((await t.admin('DELETE', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/first/`)).statusCode).toBe(204);
    expect(await references(acct.token)).toEqual(['second']);
  });

  it('keeps nothing from a refused change, and answers the same list to repeated calls', async () => {
    const acct = await t.account({ carriers: [{ carrier_reference: 'only' }] });
    expect(await references(acct.token)).toEqual(['only']);
    const refused = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_id: 'upsglb',
      carrier_reference: 'ups',
      settings: { client_id: 'id-only' },
    });
    expect(refused.statusCode).toBe(400);
    const first = await t.call(acct.token, 'GET', '/v5/carrier-configs/');
    const second = await t.call(acct.token, 'GET', '/v5/carrier-configs/');
    expect(second.body).toBe(first.body);
    expect(first.json().data.map((c: { carrier_reference: string }) => c.carrier_reference)).toEqual(['only']);
  });
});

describe.skipIf(usingPostgres)('carrier configurations changed by another process on the same database', () => {
  let reader: TestApp;
  let writer: TestApp;
  let reads: (token: string) => Promise<Array<{ carrier_reference: string; booking: { return: boolean } }>>;
  beforeAll(async () => {
    reader = await createTestApp({ env: { WAYBILL_CARRIER_CONFIG_CACHE_SECONDS: '5' } });
    writer = await createTestApp({ env: { WAYBILL_DATA_DIR: reader.config.dataDir } });
    reads = async (token) => (await reader.call(token, 'GET', '/v5/carrier-configs/')).json().data;
  });
  afterAll(async () => {
    await writer.close();
    await reader.close();
  });

  it('are seen once the list this process read is older than the cache time, and the operator sees them at once', async () => {
    const acct = await reader.account({ carriers: [{ carrier_reference: 'shared' }] });
    expect((await reads(acct.token))[0].booking.return).toBe(false);

    const changed = await writer.admin('PATCH', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/shared/`, {
      booking: ['return'],
    });
    expect(changed.statusCode).toBe(200);
    // A merchant's list may be up to the cache time old, never older.
    expect((await reads(acct.token))[0].booking.return).toBe(false);
    reader.clock.advance(5_000);
    expect((await reads(acct.token))[0].booking.return).toBe(true);

    await writer.admin('PATCH', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/shared/`, { booking: [] });
    // The operator's list is read from the database every time (and what it read is what merchants see next).
    const operator = await reader.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(operator.json()[0].booking.return).toBe(false);
    expect((await reads(acct.token))[0].booking.return).toBe(false);
  });
});

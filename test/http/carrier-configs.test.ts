import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

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

  it("never shows another account's configurations", async () => {
    await t.account({ carriers: [{ carrier_reference: 'theirs' }] });
    const mine = await t.account();
    const res = await t.call(mine.token, 'GET', '/v5/carrier-configs/');
    expect(res.json()).toEqual({ api_response: '200', data: [] });
  });
});

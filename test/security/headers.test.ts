import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

const ORIGIN = 'https://evil.example';

describe('CORS is off on the API by default', () => {
  let t: TestApp;
  let acct: TestAccount;
  let shipmentUuid: string;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account();
    shipmentUuid = (await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'CORS-1' })).json().data.shipment_uuid;
  });
  afterAll(() => t.close());

  const corsHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((h) => h.startsWith('access-control-'));

  it('answers a preflight from another origin without any Access-Control-Allow-* header', async () => {
    for (const url of ['/v5/shipment/', '/v5/shipment/list/', '/auth/oauth/token/', '/admin/v1/accounts/', '/v5/booking/']) {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(corsHeaders(res.headers), url).toEqual([]);
    }
  });

  it('answers requests with an Origin (authorized or not) without Access-Control-Allow-Origin', async () => {
    const responses = [
      await t.app.inject({
        method: 'GET',
        url: '/v5/shipment/details/',
        query: { shipment_uuid: shipmentUuid },
        headers: { origin: ORIGIN, authorization: `Bearer ${acct.token}` },
      }),
      await t.app.inject({ method: 'GET', url: '/v5/shipment/list/', headers: { origin: ORIGIN } }),
      await t.app.inject({
        method: 'POST',
        url: '/v5/shipment/',
        headers: { origin: ORIGIN, authorization: `Bearer ${acct.token}` },
        payload: { shipment_id: 'CORS-2' },
      }),
      await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { origin: ORIGIN } }),
      await t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: ORIGIN } }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 403, 200, 200, 200]);
    for (const res of responses) expect(corsHeaders(res.headers)).toEqual([]);
  });
});

describe('security headers of the tracking page', () => {
  let t: TestApp;
  let reference: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_TRUST_PROXY: 'true' } });
    const acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
    const uuid = (
      await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'HDR-1', carrier_reference: 'sb', tracking_number: 'WB2000901' })
    ).json().data.shipment_uuid;
    reference = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid: uuid })).json().data
      .tracking_page_reference;
  });
  afterAll(() => t.close());

  it('sends every header on a found page and on a not-found page, and no CORS header', async () => {
    for (const url of [`/t/${reference}`, '/t/unknownreference123']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { origin: ORIGIN } });
      expect(res.statusCode).toBe(url.endsWith(reference) ? 200 : 404);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("form-action 'none'");
      expect(csp).not.toContain('script-src');
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'cache-control': 'no-store',
      });
      expect(String(res.headers['permissions-policy'])).toContain('geolocation=()');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('asks for HTTPS only (HSTS) when the page was served over HTTPS', async () => {
    const plain = await t.app.inject({ method: 'GET', url: `/t/${reference}` });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const secure = await t.app.inject({ method: 'GET', url: `/t/${reference}`, headers: { 'x-forwarded-proto': 'https' } });
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');
  });
});

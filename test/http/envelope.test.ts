import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('the envelope on every path', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp({
      env: { WAYBILL_BODY_LIMIT_BYTES: '2048' },
      // A route that fails unexpectedly, to prove nothing internal leaks.
      setup: (app) =>
        app.get('/__boom/', async () => {
          throw new Error('secret internal detail');
        }),
    });
    acct = await t.account();
  });
  afterAll(() => t.close());

  it('answers an unknown route with 404 in the envelope', async () => {
    const res = await t.call(acct.token, 'GET', '/v5/nothing-here/');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ api_response: '4040' });
  });

  it('says so when the trailing slash is missing', async () => {
    const res = await t.call(acct.token, 'GET', '/v5/carrier-configs');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('trailing slash');
    expect(res.json().message).toContain('/v5/carrier-configs/');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await t.call(acct.token, 'DELETE', '/v5/carrier-configs/');
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.json().api_response).toBe('4050');
  });

  it('answers malformed JSON with 400 4000', async () => {
    const res = await t.admin('POST', '/admin/v1/accounts/', undefined);
    expect(res.statusCode).toBe(400);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/accounts/',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      payload: '{"name": "x",',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().api_response).toBe('4000');
  });

  it('answers an oversized body with 413 in the envelope', async () => {
    const res = await t.admin('POST', '/admin/v1/accounts/', { name: 'x'.repeat(5000) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ api_response: '4130', message: 'Request body too large' });
  });

  it('answers an unexpected failure with 500 System error and nothing internal', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/__boom/' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ api_response: '500', message: 'System error' });
    expect(res.body).not.toContain('secret internal detail');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('names a field whose name holds line breaks', async () => {
    const res = await t.admin('POST', '/admin/v1/accounts/', { name: 'x', 'a\r\nb': 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ 'a\r\nb': ['Unknown field.'] });
  });

  it('says a body is refused for a prototype key, not as JSON that does not parse', async () => {
    for (const payload of ['{"shipment_id":"x","__proto__":{"a":1}}', '{"shipment_id":"x","constructor":{"prototype":{"a":1}}}']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v5/shipment/',
        headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toEqual({
        api_response: '4000',
        message: 'Invalid request format: a __proto__ or constructor.prototype key is not accepted',
      });
    }
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });

  it('refuses a query parameter on a merchant route that takes none, naming it', async () => {
    const created = await t.call(acct.token, 'POST', '/v5/webhooks/', { url: 'https://1.1.1.1/waybill' });
    expect(created.statusCode, created.body).toBe(201);
    const uuid = created.json().data.webhook_uuid;
    for (const [method, path, query] of [
      ['GET', '/v5/webhooks/', { foo: '1' }],
      ['GET', `/v5/webhooks/${uuid}/deliveries/`, { limit: '0', before: '1e309' }],
      ['GET', '/v5/carrier-configs/', { status: 'active' }],
    ] as const) {
      const res = await t.call(acct.token, method, path, undefined, query);
      expect(res.statusCode, `${path} ${res.body}`).toBe(400);
      expect(res.json().api_response).toBe('4030');
      expect(Object.keys(res.json().errors).sort(), path).toEqual(Object.keys(query).sort());
    }
    expect((await t.call(acct.token, 'GET', '/v5/webhooks/')).statusCode).toBe(200);
  });

  it('keys validation errors by field', async () => {
    const res = await t.admin('POST', '/admin/v1/accounts/', { features: ['teleport'], extra: 1 });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.api_response).toBe('4030');
    expect(body.message).toBe('validation_error');
    expect(body.errors.name).toEqual(['This field is required.']);
    expect(body.errors.extra).toEqual(['Unknown field.']);
    expect(body.errors.features['0']).toBeDefined();
  });
});

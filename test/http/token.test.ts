import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTokenExpiry } from '../../src/domain/auth.service.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('POST /auth/oauth/token/', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account();
  });
  afterAll(() => t.close());

  const request = (
    authorization: string | undefined,
    payload = 'grant_type=client_credentials',
    type = 'application/x-www-form-urlencoded',
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/oauth/token/',
      headers: { ...(authorization ? { authorization } : {}), 'content-type': type },
      payload,
    });

  it('issues a one-hour bearer token without api_response', async () => {
    const res = await request(basic(acct.clientId, acct.clientSecret));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body.expires_in).toBe(3600);
    expect(body.token_type).toBe('Bearer');
    const configs = await t.call(body.access_token, 'GET', '/v5/carrier-configs/');
    expect(configs.statusCode).toBe(200);
  });

  it('keeps earlier tokens valid when a new one is issued', async () => {
    const first = (await request(basic(acct.clientId, acct.clientSecret))).json().access_token;
    const second = (await request(basic(acct.clientId, acct.clientSecret))).json().access_token;
    expect(first).not.toBe(second);
    expect((await t.call(first, 'GET', '/v5/carrier-configs/')).statusCode).toBe(200);
    expect((await t.call(second, 'GET', '/v5/carrier-configs/')).statusCode).toBe(200);
  });

  it.each([
    ['wrong secret', () => basic(acct.clientId, 'wbs_wrong')],
    ['unknown client', () => basic('wbc_nobody', acct.clientSecret)],
    ['no header', () => undefined],
    ['not base64', () => 'Basic %%%not-base64%%%'],
    ['no colon', () => `Basic ${Buffer.from('justone').toString('base64')}`],
    ['bearer instead of basic', () => `Bearer ${acct.token}`],
    ['control characters', () => `Basic ${Buffer.from('a\u0000b:a\u0000b').toString('base64')}`],
  ])('refuses %s with 403 Key not authorized', async (_name, header) => {
    const res = await request(header());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ api_response: 403, message: 'Key not authorized' });
  });

  it('refuses another grant type with a clear 400', async () => {
    const res = await request(basic(acct.clientId, acct.clientSecret), 'grant_type=password');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ api_response: '4000', error: 'unsupported_grant_type' });
  });

  it('refuses a JSON body with a clear 400', async () => {
    const res = await request(basic(acct.clientId, acct.clientSecret), '{"grant_type":"client_credentials"}', 'application/json');
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4000');
    expect(res.json().message).toMatch(/x-www-form-urlencoded/);
  });

  it('refuses an expired token (injected clock)', async () => {
    const token = (await request(basic(acct.clientId, acct.clientSecret))).json().access_token;
    t.clock.advance(3599 * 1000);
    expect((await t.call(token, 'GET', '/v5/carrier-configs/')).statusCode).toBe(200);
    t.clock.advance(2 * 1000);
    const res = await t.call(token, 'GET', '/v5/carrier-configs/');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ api_response: 403, message: 'Key not authorized' });
  });
});

describe('bearer authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['missing', undefined],
    ['garbage', 'Bearer garbage'],
    ['tampered', 'TAMPER'],
    ['wrong scheme', 'Token abc'],
  ])('refuses a %s token with 403', async (_name, header) => {
    let authorization = header;
    if (header === 'TAMPER') {
      const acct = await t.account();
      const parts = acct.token.split('.');
      parts[2] = String(Number(parts[2]) + 10_000);
      authorization = `Bearer ${parts.join('.')}`;
    }
    const res = await t.app.inject({ method: 'GET', url: '/v5/carrier-configs/', headers: authorization ? { authorization } : {} });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ api_response: 403, message: 'Key not authorized' });
  });

  it('refuses every token of revoked credentials at once', async () => {
    const acct = await t.account();
    expect((await t.call(acct.token, 'GET', '/v5/carrier-configs/')).statusCode).toBe(200);
    const revoke = await t.admin('DELETE', `/admin/v1/accounts/${acct.accountUuid}/credentials/${acct.clientId}/`);
    expect(revoke.statusCode).toBe(204);
    expect((await t.call(acct.token, 'GET', '/v5/carrier-configs/')).statusCode).toBe(403);
    const again = await t.app.inject({
      method: 'POST',
      url: '/auth/oauth/token/',
      headers: { authorization: basic(acct.clientId, acct.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    expect(again.statusCode).toBe(403);
  });

  it('refuses a token whose expiry is not plain decimal digits, even with a valid signature', async () => {
    const acct = await t.account();
    const { secrets } = t.context;
    for (const expiry of ['1e99', '0x7fffffff', ' 9999999999', '9999999999.0', '1'.repeat(13), 'Infinity']) {
      const unsigned = `v1.${acct.clientId}.${expiry}.${'n'.repeat(16)}`;
      const forged = `${unsigned}.${secrets.sign(secrets.tokenKey, unsigned)}`;
      const res = await t.call(forged, 'GET', '/v5/carrier-configs/');
      expect(res.statusCode, expiry).toBe(403);
    }
    // The same shape with a real expiry is accepted: only the expiry's text is refused above.
    const unsigned = `v1.${acct.clientId}.${Math.floor(t.clock.now().getTime() / 1000) + 60}.${'n'.repeat(16)}`;
    expect((await t.call(`${unsigned}.${secrets.sign(secrets.tokenKey, unsigned)}`, 'GET', '/v5/carrier-configs/')).statusCode).toBe(200);
  });

  it('parses a token expiry as a bounded decimal integer', () => {
    expect(parseTokenExpiry('1767225600')).toBe(1767225600);
    expect(parseTokenExpiry('999999999999')).toBe(999999999999);
    for (const text of ['1e99', '1E3', '0x10', '', ' 1', '1 ', '+1', '-1', '1.5', '1'.repeat(13), 'NaN', 'Infinity', '１２']) {
      expect(parseTokenExpiry(text), JSON.stringify(text)).toBeNull();
    }
  });

  it('never stores the client secret in clear', async () => {
    const acct = await t.account();
    const rows = await t.context.database.db.selectFrom('api_credentials').selectAll().execute();
    const row = rows.find((r) => r.client_id === acct.clientId);
    expect(row?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(acct.clientSecret);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('rate limit: 40 requests per second per account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_RATE_LIMIT_PER_SECOND: '40' } });
  });
  afterAll(() => t.close());

  it('throttles the 41st request in a second, not another account', async () => {
    const busy = await t.account();
    const calm = await t.account();
    const burst = await Promise.all(Array.from({ length: 45 }, () => t.call(busy.token, 'GET', '/v5/carrier-configs/')));
    const ok = burst.filter((r) => r.statusCode === 200);
    const limited = burst.filter((r) => r.statusCode === 429);
    expect(ok.length).toBe(40);
    expect(limited.length).toBe(5);
    expect(limited[0].json()).toEqual({ api_response: 429, message: 'Throttled' });
    expect(Number(limited[0].headers['retry-after'])).toBeGreaterThanOrEqual(0);
    expect(ok[0].headers['ratelimit-limit']).toBe('40');
    expect(ok[0].headers['ratelimit-remaining']).toBeDefined();
    const other = await t.call(calm.token, 'GET', '/v5/carrier-configs/');
    expect(other.statusCode).toBe(200);
  });

  it('shares one budget between all tokens of an account', async () => {
    const acct = await t.account();
    const creds = (await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/credentials/`)).json();
    const { issueToken } = await import('../helpers/app.js');
    const second = await issueToken(t.app, creds.client_id, creds.client_secret);
    const calls = Array.from({ length: 44 }, (_, i) => t.call(i % 2 ? acct.token : second, 'GET', '/v5/carrier-configs/'));
    const statuses = (await Promise.all(calls)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 429).length).toBe(4);
  });

  it('limits the token endpoint per client id', async () => {
    const acct = await t.account();
    const auth = `Basic ${Buffer.from(`${acct.clientId}:${acct.clientSecret}`).toString('base64')}`;
    const calls = Array.from({ length: 42 }, () =>
      t.app.inject({
        method: 'POST',
        url: '/auth/oauth/token/',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials',
      }),
    );
    const statuses = (await Promise.all(calls)).map((r) => r.statusCode);
    // t.account() already spent one request of this second on its first token.
    expect(statuses.filter((s) => s === 429).length).toBe(3);
    t.clock.advance(1000);
    const next = await t.app.inject({
      method: 'POST',
      url: '/auth/oauth/token/',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    expect(next.statusCode).toBe(200);
  });
});

describe('rate limit is configurable', () => {
  it('honours WAYBILL_RATE_LIMIT_PER_SECOND', async () => {
    const t = await createTestApp({ env: { WAYBILL_RATE_LIMIT_PER_SECOND: '5' } });
    try {
      const acct = await t.account();
      const statuses = (await Promise.all(Array.from({ length: 7 }, () => t.call(acct.token, 'GET', '/v5/carrier-configs/')))).map(
        (r) => r.statusCode,
      );
      expect(statuses.filter((s) => s === 429).length).toBe(2);
    } finally {
      await t.close();
    }
  });
});

import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTokenExpiry } from '../../src/domain/auth.service.js';
import { buildApp } from '../../src/http/app.js';
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

describe('guessing a client’s secret', () => {
  const GUESSER = '203.0.113.7';
  const OWNER = '198.51.100.20';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_RATE_LIMIT_PER_SECOND: '40' } });
  });
  afterAll(() => t.close());

  const tokenFrom = (remoteAddress: string, clientId: string, secret: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/oauth/token/',
      remoteAddress,
      headers: { authorization: basic(clientId, secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });

  it('does not keep the owner out: 200 wrong guesses from one address, then a token at once from another', async () => {
    const acct = await t.account();
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await tokenFrom(GUESSER, acct.clientId, `wbs_guess_${i}`)).statusCode);
    const owner = await tokenFrom(OWNER, acct.clientId, acct.clientSecret);
    expect(owner.statusCode, owner.body).toBe(200);
    expect((await t.call(owner.json().access_token, 'GET', '/v5/carrier-configs/')).statusCode).toBe(200);
    // Five free failures and the one that starts the wait are judged; after it the guesser only waits.
    expect(statuses.slice(0, 6)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(new Set(statuses.slice(6))).toEqual(new Set([429]));
  });

  it('slows the guesser: 429 with a Retry-After that doubles with each failure, up to a minute', async () => {
    const acct = await t.account();
    for (let i = 0; i < 6; i++) expect((await tokenFrom(GUESSER, acct.clientId, 'wbs_wrong')).statusCode).toBe(403);
    const waits: number[] = [];
    for (let round = 0; round < 9; round++) {
      const waiting = await tokenFrom(GUESSER, acct.clientId, 'wbs_wrong');
      expect(waiting.statusCode).toBe(429);
      expect(waiting.json()).toEqual({ api_response: 429, message: 'Throttled' });
      const wait = Number(waiting.headers['retry-after']);
      waits.push(wait);
      // Still waiting one millisecond before the end; judged again once it is over.
      t.clock.advance(wait * 1000 - 1);
      expect((await tokenFrom(GUESSER, acct.clientId, 'wbs_wrong')).statusCode).toBe(429);
      t.clock.advance(1);
      expect((await tokenFrom(GUESSER, acct.clientId, 'wbs_wrong')).statusCode).toBe(403);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
  });

  it('answers the right secret from a waiting source with the wait too, then clears that source once it is over', async () => {
    const acct = await t.account();
    for (let i = 0; i < 6; i++) await tokenFrom(GUESSER, acct.clientId, 'wbs_wrong');
    const during = await tokenFrom(GUESSER, acct.clientId, acct.clientSecret);
    expect(during.statusCode).toBe(429);
    expect(during.headers['retry-after']).toBe('1');
    t.clock.advance(1000);
    expect((await tokenFrom(GUESSER, acct.clientId, acct.clientSecret)).statusCode).toBe(200);
    // The source's failures are forgotten: five more wrong secrets are judged before any wait.
    for (let i = 0; i < 6; i++) expect((await tokenFrom(GUESSER, acct.clientId, 'wbs_wrong')).statusCode).toBe(403);
    expect((await tokenFrom(GUESSER, acct.clientId, 'wbs_wrong')).statusCode).toBe(429);
  });

  it('forgets a source’s failures an hour after the last one', async () => {
    const acct = await t.account();
    for (let i = 0; i < 5; i++) await tokenFrom(GUESSER, acct.clientId, 'wbs_wrong');
    t.clock.advance(3_600_000);
    for (let i = 0; i < 6; i++) expect((await tokenFrom(GUESSER, acct.clientId, 'wbs_wrong')).statusCode).toBe(403);
    expect((await tokenFrom(GUESSER, acct.clientId, 'wbs_wrong')).statusCode).toBe(429);
  });

  it('counts the owner’s right secrets in their own budget, which parallel guesses do not touch', async () => {
    const acct = await t.account();
    t.clock.advance(1000);
    // 100 parallel guesses: at most 40 a second from one address are judged at all, and none counts below.
    const guesses = await Promise.all(Array.from({ length: 100 }, (_, i) => tokenFrom(GUESSER, acct.clientId, `wbs_guess_${i}`)));
    const guessStatuses = guesses.map((res) => res.statusCode);
    expect(guessStatuses.filter((s) => s === 403).length).toBeLessThanOrEqual(40);
    expect(guessStatuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(60);
    const owner = await Promise.all(Array.from({ length: 42 }, () => tokenFrom(OWNER, acct.clientId, acct.clientSecret)));
    const ownerStatuses = owner.map((res) => res.statusCode);
    expect(ownerStatuses.filter((s) => s === 200).length).toBe(40);
    expect(ownerStatuses.filter((s) => s === 429).length).toBe(2);
    const first = owner.find((res) => res.statusCode === 200)!;
    expect(first.headers['ratelimit-limit']).toBe('40');
    // The owner's budget is the client id's, from any address: a third address is throttled in the same second.
    expect((await tokenFrom('192.0.2.99', acct.clientId, acct.clientSecret)).statusCode).toBe(429);
    t.clock.advance(1000);
    expect((await tokenFrom('192.0.2.99', acct.clientId, acct.clientSecret)).statusCode).toBe(200);
  });

  it('keeps client ids apart: guesses at one do not slow another from the same address', async () => {
    const guessed = await t.account();
    const neighbour = await t.account();
    for (let i = 0; i < 10; i++) await tokenFrom(GUESSER, guessed.clientId, 'wbs_wrong');
    expect((await tokenFrom(GUESSER, guessed.clientId, 'wbs_wrong')).statusCode).toBe(429);
    expect((await tokenFrom(GUESSER, neighbour.clientId, neighbour.clientSecret)).statusCode).toBe(200);
  });
});

describe('guessing a client’s secret through two API processes sharing Redis', () => {
  const prefix = `waybill:test:${randomBytes(6).toString('hex')}:`;
  const redisA = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  const redisB = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  let t: TestApp;
  let second: FastifyInstance;
  beforeAll(async () => {
    await Promise.all([redisA.connect(), redisB.connect()]);
    t = await createTestApp({ redis: redisA, rateLimitPrefix: prefix, env: { WAYBILL_RATE_LIMIT_PER_SECOND: '40' } });
    second = await buildApp(t.context, { logger: false, redis: redisB, rateLimitPrefix: prefix });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    const keys = await redisA.keys(`${prefix}*`);
    if (keys.length > 0) await redisA.del(...keys);
    redisA.disconnect();
    redisB.disconnect();
  });

  const tokenFrom = (app: FastifyInstance, remoteAddress: string, clientId: string, secret: string) =>
    app.inject({
      method: 'POST',
      url: '/auth/oauth/token/',
      remoteAddress,
      headers: { authorization: basic(clientId, secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });

  it('makes a source wait on every process, and lets the owner in on any of them', async () => {
    const acct = await t.account();
    const apps = [t.app, second];
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await tokenFrom(apps[i % 2], '203.0.113.8', acct.clientId, 'wbs_wrong')).statusCode);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 403, 429, 429, 429, 429, 429, 429]);
    expect(await redisA.keys(`${prefix}credential-failures:*`)).toHaveLength(1);
    expect((await tokenFrom(second, '198.51.100.21', acct.clientId, acct.clientSecret)).statusCode).toBe(200);
    expect((await tokenFrom(t.app, '198.51.100.22', acct.clientId, acct.clientSecret)).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await tokenFrom(second, '203.0.113.8', acct.clientId, acct.clientSecret)).statusCode).toBe(200);
    expect(await redisA.keys(`${prefix}credential-failures:*`)).toHaveLength(0);
  });
});

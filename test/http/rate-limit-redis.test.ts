import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { buildApp } from '../../src/http/app.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** 45 concurrent GET /v5/carrier-configs/ with one token, alternating between the given apps. */
async function burst(apps: FastifyInstance[], token: string, count = 45): Promise<number[]> {
  const calls = Array.from({ length: count }, (_, i) =>
    apps[i % apps.length].inject({ method: 'GET', url: '/v5/carrier-configs/', headers: { authorization: `Bearer ${token}` } }),
  );
  return (await Promise.all(calls)).map((res) => res.statusCode);
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('rate limit shared through Redis by two API instances', () => {
  const clock = new ManualClock();
  const prefix = `waybill:test:${randomBytes(6).toString('hex')}:`;
  // One connection per instance, as two processes would have.
  const redisA = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const redisB = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let t: TestApp;
  let second: FastifyInstance;
  let acct: TestAccount;

  beforeAll(async () => {
    await Promise.all([redisA.connect(), redisB.connect()]);
    t = await createTestApp({ clock, redis: redisA, rateLimitPrefix: prefix, env: { WAYBILL_RATE_LIMIT_PER_SECOND: '40' } });
    // A second app over the same database, as a second process behind a load balancer would be.
    second = await buildApp(t.context, { logger: false, redis: redisB, rateLimitPrefix: prefix });
    await second.ready();
    acct = await t.account();
  });

  afterAll(async () => {
    await second?.close();
    await t?.close();
    const keys = await redisA.keys(`${prefix}*`);
    if (keys.length > 0) await redisA.del(...keys);
    redisA.disconnect();
    redisB.disconnect();
  });

  it('holds one 40 req/s budget for the account across both instances', async () => {
    const statuses = await burst([t.app, second], acct.token);
    expect(count(statuses, 200)).toBe(40);
    expect(count(statuses, 429)).toBe(5);
    // Both instances served and both refused: the budget really is shared, not split.
    const firstApp = statuses.filter((_, i) => i % 2 === 0);
    const secondApp = statuses.filter((_, i) => i % 2 === 1);
    expect(count(firstApp, 200)).toBeGreaterThan(0);
    expect(count(secondApp, 200)).toBeGreaterThan(0);
    const counters = await redisA.keys(`${prefix}account:*`);
    expect(counters).toHaveLength(1);
    expect(Number(await redisA.get(counters[0]))).toBe(45);
  });

  it('answers a throttled request with the gateway envelope on either instance', async () => {
    const res = await second.inject({ method: 'GET', url: '/v5/carrier-configs/', headers: { authorization: `Bearer ${acct.token}` } });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ api_response: 429, message: 'Throttled' });
    expect(res.headers['ratelimit-limit']).toBe('40');
    expect(res.headers['ratelimit-remaining']).toBe('0');
  });

  it('opens a fresh budget in the next second', async () => {
    clock.advance(1000);
    const statuses = await burst([second, t.app], acct.token);
    expect(count(statuses, 200)).toBe(40);
    expect(count(statuses, 429)).toBe(5);
  });

  it('keeps accounts apart', async () => {
    clock.advance(1000);
    const other = await t.account();
    await burst([t.app, second], acct.token);
    const res = await second.inject({ method: 'GET', url: '/v5/carrier-configs/', headers: { authorization: `Bearer ${other.token}` } });
    expect(res.statusCode).toBe(200);
  });

  it('would let 45 through without Redis, each instance counting alone', async () => {
    clock.advance(1000);
    const alone = [await buildApp(t.context, { logger: false }), await buildApp(t.context, { logger: false })];
    try {
      const statuses = await burst(alone, acct.token);
      expect(count(statuses, 200)).toBe(45);
    } finally {
      await Promise.all(alone.map((app) => app.close()));
    }
  });
});

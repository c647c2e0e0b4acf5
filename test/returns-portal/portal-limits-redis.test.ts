import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { buildApp } from '../../src/http/app.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { enablePortal, orderShipment, shipOrder } from './portal-fixtures.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function find(app: FastifyInstance, ref: string, order: string, contact: string, remoteAddress: string) {
  return app.inject({
    method: 'POST',
    url: `/returns/${ref}/find`,
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ order, contact }).toString(),
  });
}

/** The portal's limit on finding orders, counted in Redis: misses at one instance slow the next try at another. */
describe('returns portal find limits shared through Redis', () => {
  const clock = new ManualClock();
  const prefix = `waybill:test:${randomBytes(6).toString('hex')}:`;
  const redisA = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const redisB = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let t: TestApp;
  let second: FastifyInstance;
  let shop: TestAccount;
  let ref: string;

  beforeAll(async () => {
    await Promise.all([redisA.connect(), redisB.connect()]);
    t = await createTestApp({ clock, redis: redisA, rateLimitPrefix: prefix });
    second = await buildApp(t.context, { logger: false, redis: redisB, rateLimitPrefix: prefix });
    await second.ready();
    shop = await t.account({ features: ['returns'] });
    await shipOrder(t, shop, orderShipment('OUT-R1', 'SO-7001', { email: 'grace@example.com', postal_code: '10115' }));
    ref = await enablePortal(t, shop);
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    const keys = await redisA.keys(`${prefix}*`);
    if (keys.length > 0) await redisA.del(...keys);
    redisA.disconnect();
    redisB.disconnect();
  });

  it('makes the order wait at every instance after misses spread over both, from many addresses', async () => {
    // Six misses for one order, from six addresses, alternating between the instances.
    for (let i = 0; i < 6; i++) {
      const res = await find(i % 2 === 0 ? t.app : second, ref, 'SO-7001', `wrong${i}@example.com`, `198.18.0.${i + 1}`);
      expect(res.statusCode).toBe(200);
    }
    const limited = await find(second, ref, 'SO-7001', 'grace@example.com', '198.18.0.99');
    expect(limited.statusCode).toBe(429);
    // Once the wait has passed, the right pair opens the order.
    clock.advance(Number(limited.headers['retry-after']) * 1000);
    expect((await find(t.app, ref, 'SO-7001', 'grace@example.com', '198.18.0.99')).statusCode).toBe(303);
  });
});

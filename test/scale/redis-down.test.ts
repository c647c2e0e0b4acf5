import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { watchRedis } from '../../src/http/rate-limit.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { redisReachable, redisUrl, waitFor } from './processes.js';

/** A TCP relay to the real Redis that the test can cut and restore, as a network outage would. */
class RedisRelay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  async open(): Promise<void> {
    const target = new URL(redisUrl);
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

describe.skipIf(!(await redisReachable()))('rate limit while Redis is unreachable', () => {
  const clock = new ManualClock();
  const relay = new RedisRelay();
  const prefix = `waybill:test:${randomBytes(6).toString('hex')}:`;
  const warnings: string[] = [];
  const infos: string[] = [];
  let redis: Redis;
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    await relay.open();
    redis = new Redis(`redis://127.0.0.1:${relay.port}`, {
      maxRetriesPerRequest: 2,
      retryStrategy: () => 100,
    });
    watchRedis(redis, { warn: (_obj, msg) => warnings.push(msg), info: (msg) => infos.push(msg) });
    await waitFor('Redis ready', () => redis.status === 'ready');
    t = await createTestApp({ clock, redis, rateLimitPrefix: prefix, env: { WAYBILL_RATE_LIMIT_PER_SECOND: '40' } });
    acct = await t.account();
  });
  afterAll(async () => {
    await t?.close();
    redis?.disconnect();
    await relay.cut().catch(() => undefined);
    const cleanup = new Redis(redisUrl);
    const keys = await cleanup.keys(`${prefix}*`);
    if (keys.length > 0) await cleanup.del(...keys);
    cleanup.disconnect();
  });

  const burst = async () => {
    const statuses = await Promise.all(Array.from({ length: 45 }, () => t.call(acct.token, 'GET', '/v5/carrier-configs/')));
    return { ok: statuses.filter((r) => r.statusCode === 200).length, throttled: statuses.filter((r) => r.statusCode === 429).length };
  };
  const counters = async () => {
    const direct = new Redis(redisUrl);
    try {
      return await direct.keys(`${prefix}account:*`);
    } finally {
      direct.disconnect();
    }
  };

  it('counts in Redis, then in the process while Redis is away (no 500, no stall), then in Redis again', async () => {
    clock.advance(1000);
    expect(await burst()).toEqual({ ok: 40, throttled: 5 });
    expect(await counters()).toHaveLength(1);

    await relay.cut();
    await waitFor('the client to notice', () => redis.status !== 'ready');
    clock.advance(1000);
    const started = Date.now();
    expect(await burst()).toEqual({ ok: 40, throttled: 5 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await counters()).toHaveLength(1);
    // A second of outage with reconnection attempts every 100 ms: one warning, not one per attempt.
    await new Promise((r) => setTimeout(r, 1000));
    expect(warnings).toEqual(['Redis unreachable: each API process counts rate limits on its own until it is back']);

    await relay.open();
    await waitFor('the client to reconnect', () => redis.status === 'ready', 10_000);
    expect(infos).toEqual(['Redis reachable again: rate limits are shared by every API process']);
    clock.advance(1000);
    expect(await burst()).toEqual({ ok: 40, throttled: 5 });
    expect(await counters()).toHaveLength(2);
  });
});

import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { TokenCache } from '../../../src/carriers/sdk/token-cache.js';
import { Secrets } from '../../../src/secrets.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('the carriers’ token cache', () => {
  it('asks once for many concurrent callers, renews five minutes before expiry, and forgets a refused token', async () => {
    let now = 1_000_000;
    let issued = 0;
    const cache = new TokenCache({ now: () => now });
    const issue = async () => ({ access_token: `t${++issued}`, expires_in_seconds: 3600 });
    const tokens = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', issue)));
    expect(new Set(tokens)).toEqual(new Set(['t1']));
    now += 3600_000 - 301_000;
    expect(await cache.get('k', issue)).toBe('t1');
    now += 2_000;
    expect(await cache.get('k', issue)).toBe('t2');
    cache.invalidate('k', 't1');
    expect(await cache.get('k', issue)).toBe('t2');
    cache.invalidate('k', 't2');
    expect(await cache.get('k', issue)).toBe('t3');
    expect(await cache.get('other', issue)).toBe('t4');
    // A failure is returned, not cached.
    const failing = await cache.get('bad', async () => ({ status: 'error', retryable: false, message: 'refused' }));
    expect(failing).toMatchObject({ status: 'error' });
    expect(await cache.get('bad', issue)).toBe('t5');
  });

  it('shares tokens between processes through Redis, sealed there', async () => {
    // Redis runs wherever the suite runs (.ci/run starts it), as for the shared rate limit's tests.
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    try {
      const secrets = Secrets.load(Buffer.alloc(32, 7).toString('base64'), '/nonexistent');
      const options = {
        redis,
        seal: (plain: string) => secrets.encrypt(plain),
        unseal: (sealed: string) => secrets.decrypt(sealed),
        redisPrefix: `waybill:test-token:${process.pid}:${Date.now()}:`,
      };
      let issued = 0;
      const issue = async () => ({ access_token: `shared-token-${++issued}`, expires_in_seconds: 3600 });
      const first = new TokenCache(options);
      const second = new TokenCache(options);
      expect(await first.get('cred', issue)).toBe('shared-token-1');
      expect(await second.get('cred', issue)).toBe('shared-token-1');
      expect(issued).toBe(1);
      const stored = await redis.get(`${options.redisPrefix}cred`);
      expect(stored).not.toBeNull();
      expect(stored).not.toContain('shared-token-1');
      first.invalidate('cred', 'shared-token-1');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await new TokenCache(options).get('cred', issue)).toBe('shared-token-2');
    } finally {
      redis.disconnect();
    }
  });
});

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { type Clock, nowMs } from '../clock.js';
import { throttled } from './errors.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

/**
 * Counts requests per key in fixed one-second windows. Two implementations: in memory (one process)
 * and Redis (one budget shared by every API process).
 */
export interface RateLimiter {
  hit(key: string, limit: number): Promise<RateDecision>;
  /** The same decision without waiting, for limiters that keep their counts in this process. */
  hitNow?(key: string, limit: number): RateDecision;
}

function decide(count: number, limit: number, now: number): RateDecision {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((1000 - (now % 1000)) / 1000)),
  };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { second: number; count: number }>();

  constructor(private readonly clock: Clock) {}

  async hit(key: string, limit: number): Promise<RateDecision> {
    return this.hitNow(key, limit);
  }

  hitNow(key: string, limit: number): RateDecision {
    const now = nowMs(this.clock);
    const second = Math.floor(now / 1000);
    let entry = this.windows.get(key);
    if (!entry || entry.second !== second) {
      if (this.windows.size > 50_000) this.sweep(second);
      entry = { second, count: 0 };
      this.windows.set(key, entry);
    }
    entry.count += 1;
    return decide(entry.count, limit, now);
  }

  private sweep(second: number): void {
    for (const [key, entry] of this.windows) if (entry.second !== second) this.windows.delete(key);
  }
}

/**
 * One budget for every API process, counted in Redis. While Redis cannot be reached, each process decides
 * on its own counts (the limit then holds per process, not across them) rather than refusing or stalling
 * every request on a dependency that only shares the count.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly fallback: MemoryRateLimiter;

  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
    private readonly prefix = 'waybill:rl:',
  ) {
    this.fallback = new MemoryRateLimiter(clock);
  }

  async hit(key: string, limit: number): Promise<RateDecision> {
    if (this.redis.status !== 'ready') return this.fallback.hitNow(key, limit);
    const now = this.clock.now().getTime();
    const redisKey = `${this.prefix}${key}:${Math.floor(now / 1000)}`;
    try {
      const result = await this.redis.multi().incr(redisKey).pexpire(redisKey, 2000).exec();
      return decide(Number(result?.[0]?.[1] ?? 0), limit, now);
    } catch {
      return this.fallback.hitNow(key, limit);
    }
  }
}

/** Logs Redis going away and coming back once each, instead of an error on every reconnection attempt. */
export function watchRedis(redis: Redis, log: { warn(obj: object, msg: string): void; info(msg: string): void }): void {
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log.warn({ err: error }, 'Redis unreachable: each API process counts rate limits on its own until it is back');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis reachable again: rate limits are shared by every API process');
  });
}

export interface RateLimitOptions {
  limiter: RateLimiter;
  perSecond: number;
  /** What shares one budget: the account, or the client id on the token endpoint. */
  key: (request: FastifyRequest) => string;
}

/**
 * A decision already counted for a request before it reached the router (src/http/kept-answers.ts): the hook
 * answers by it instead of counting the request a second time.
 */
export const countedRate = Symbol('waybill.counted-rate');

declare module 'node:http' {
  interface IncomingMessage {
    [countedRate]?: RateDecision;
  }
}

/** The key of an account's budget on the merchant interface. */
export const accountRateKey = (accountId: number): string => `account:${accountId}`;

/** N requests per second per key on every route of this scope; 429 "Throttled" beyond. */
export function limitRate(app: FastifyInstance, options: RateLimitOptions): void {
  const { limiter, perSecond } = options;
  const decided = (reply: FastifyReply, decision: RateDecision, done: () => void) => {
    // One call per header: `reply.headers({...})` builds an object and a key list for every request.
    reply.header('ratelimit-limit', decision.limit);
    reply.header('ratelimit-remaining', decision.remaining);
    reply.header('ratelimit-reset', decision.resetSeconds);
    if (decision.allowed) return done();
    reply.header('retry-after', decision.resetSeconds);
    reply.code(429).send(throttled);
  };
  // Callback style: the in-memory limiter decides at once, without a promise per request.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const counted = request.raw[countedRate];
    if (counted) return decided(reply, counted, done);
    const key = options.key(request);
    if (limiter.hitNow) return decided(reply, limiter.hitNow(key, perSecond), done);
    limiter.hit(key, perSecond).then((decision) => decided(reply, decision, done), done);
  });
}

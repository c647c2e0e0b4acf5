import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';

/** Wrong secrets one source may send for one client id before it has to wait. */
export const FREE_FAILURES = 5;
/** The longest wait: a source guessing for hours gets one try a minute, and an owner behind it waits no longer. */
export const MAX_BACKOFF_SECONDS = 60;
/** A source's failures are forgotten an hour after its last one (and at once after a right secret from it). */
export const FAILURES_KEPT_MS = 3_600_000;

/** What is on record for one client id from one source address. */
export interface SourceStanding {
  failures: number;
  /** Seconds before this source may try this client id again; 0 when it may now. */
  waitSeconds: number;
}

/**
 * Failed credential checks counted per client id *and* source address, with an exponential wait once a
 * source has had {@link FREE_FAILURES}: 1 s, 2 s, 4 s … up to {@link MAX_BACKOFF_SECONDS}. Only failures are
 * counted here, so guesses from one address never slow the owner at another one.
 */
export interface CredentialBackoff {
  standing(clientId: string, source: string): Promise<SourceStanding>;
  /** Records a wrong secret (or unknown client id) from this source. */
  failed(clientId: string, source: string): Promise<void>;
  /** A right secret from this source: its failures are forgotten. */
  succeeded(clientId: string, source: string): Promise<void>;
}

/** How long a source waits after its n-th failure in a row. */
export function backoffMillis(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(MAX_BACKOFF_SECONDS, 2 ** (failures - FREE_FAILURES - 1)) * 1000;
}

interface Entry {
  failures: number;
  lastFailure: number;
  blockedUntil: number;
}

function standingOf(entry: Entry | undefined, now: number): SourceStanding {
  if (!entry || now - entry.lastFailure >= FAILURES_KEPT_MS) return { failures: 0, waitSeconds: 0 };
  return { failures: entry.failures, waitSeconds: Math.max(0, Math.ceil((entry.blockedUntil - now) / 1000)) };
}

/** IP addresses never contain `|`, so (source, client id) pairs cannot run into each other. */
const keyOf = (clientId: string, source: string) => `${source}|${clientId}`;

const MAX_ENTRIES = 100_000;

export class MemoryCredentialBackoff implements CredentialBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: Clock) {}

  async standing(clientId: string, source: string): Promise<SourceStanding> {
    return this.standingNow(clientId, source);
  }

  standingNow(clientId: string, source: string): SourceStanding {
    return standingOf(this.entries.get(keyOf(clientId, source)), this.clock.now().getTime());
  }

  async failed(clientId: string, source: string): Promise<void> {
    this.failedNow(clientId, source);
  }

  failedNow(clientId: string, source: string): void {
    const now = this.clock.now().getTime();
    const key = keyOf(clientId, source);
    const failures = standingOf(this.entries.get(key), now).failures + 1;
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.sweep(now);
    this.entries.set(key, { failures, lastFailure: now, blockedUntil: now + backoffMillis(failures) });
  }

  async succeeded(clientId: string, source: string): Promise<void> {
    this.entries.delete(keyOf(clientId, source));
  }

  /** Drops forgotten entries; when a flood of sources still fills the map, the oldest half goes. */
  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (now - entry.lastFailure >= FAILURES_KEPT_MS) this.entries.delete(key);
    let excess = this.entries.size - MAX_ENTRIES / 2;
    if (excess <= 0) return;
    for (const key of this.entries.keys()) {
      if (excess-- <= 0) break;
      this.entries.delete(key);
    }
  }
}

/** One more failure, counted from one again when the last was more than the kept time ago; the new count. */
const COUNT_FAILURE = `
local now = tonumber(ARGV[1])
local last = tonumber(redis.call('HGET', KEYS[1], 'l') or '0')
local failures = 1
if now - last < tonumber(ARGV[2]) then failures = tonumber(redis.call('HGET', KEYS[1], 'f') or '0') + 1 end
redis.call('HSET', KEYS[1], 'f', failures, 'l', now)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return failures`;

/**
 * The same record in Redis, shared by every API process: one hash per (source, client id) with the count,
 * the time of the last failure and the end of the wait (times from the service's clock), expiring an hour
 * after the last failure. While Redis cannot be reached, each process keeps its own record, as the rate
 * limiter does.
 */
export class RedisCredentialBackoff implements CredentialBackoff {
  private readonly fallback: MemoryCredentialBackoff;

  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
    private readonly prefix = 'waybill:rl:',
  ) {
    this.fallback = new MemoryCredentialBackoff(clock);
  }

  private redisKey(clientId: string, source: string): string {
    return `${this.prefix}credential-failures:${keyOf(clientId, source)}`;
  }

  async standing(clientId: string, source: string): Promise<SourceStanding> {
    if (this.redis.status !== 'ready') return this.fallback.standingNow(clientId, source);
    try {
      const [failures, lastFailure, blockedUntil] = await this.redis.hmget(this.redisKey(clientId, source), 'f', 'l', 'u');
      if (failures === null) return { failures: 0, waitSeconds: 0 };
      const entry = { failures: Number(failures), lastFailure: Number(lastFailure ?? 0), blockedUntil: Number(blockedUntil ?? 0) };
      return standingOf(entry, this.clock.now().getTime());
    } catch {
      return this.fallback.standingNow(clientId, source);
    }
  }

  async failed(clientId: string, source: string): Promise<void> {
    if (this.redis.status !== 'ready') return this.fallback.failedNow(clientId, source);
    const now = this.clock.now().getTime();
    const key = this.redisKey(clientId, source);
    try {
      const failures = Number(await this.redis.eval(COUNT_FAILURE, 1, key, now, FAILURES_KEPT_MS));
      await this.redis.hset(key, 'u', now + backoffMillis(failures));
    } catch {
      this.fallback.failedNow(clientId, source);
    }
  }

  async succeeded(clientId: string, source: string): Promise<void> {
    await this.fallback.succeeded(clientId, source);
    if (this.redis.status !== 'ready') return;
    try {
      await this.redis.del(this.redisKey(clientId, source));
    } catch {
      // The record expires on its own within the hour.
    }
  }
}

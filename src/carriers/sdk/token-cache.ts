import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CarrierError } from '../carrier.js';

/** A token a carrier issued, with its lifetime as the carrier stated it. */
export interface IssuedToken {
  access_token: string;
  expires_in_seconds: number;
}

interface CachedToken {
  token: string;
  expires_at_ms: number;
}

export interface TokenCacheOptions {
  now?: () => number;
  /** Tokens are renewed this long before they expire (default 5 minutes, or half the lifetime if shorter). */
  refreshBeforeMs?: number;
  /** Shares tokens between processes; values are sealed with `seal`/`unseal`. */
  redis?: Redis | null;
  seal?: (plain: string) => string;
  unseal?: (sealed: string) => string;
  redisPrefix?: string;
}

/**
 * OAuth access tokens by credential: many polls of one merchant reuse one token, a token is renewed a
 * few minutes before it expires, and concurrent callers share one renewal (single flight). With Redis,
 * processes share tokens too, so a fleet asks the carrier for one token per credential, not one per process.
 */
export class TokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly inFlight = new Map<string, Promise<string | CarrierError>>();
  private readonly now: () => number;
  private readonly refreshBeforeMs: number;

  constructor(private readonly options: TokenCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.refreshBeforeMs = options.refreshBeforeMs ?? 300_000;
  }

  /** The cache key of a credential: the carrier and a hash of what identifies the credential. */
  static key(carrierId: string, parts: readonly unknown[]): string {
    return `${carrierId}:${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32)}`;
  }

  /** A valid token for `key`, fetched with `issue` when there is none or it is about to expire. */
  async get(key: string, issue: () => Promise<IssuedToken | CarrierError>): Promise<string | CarrierError> {
    const cached = this.tokens.get(key);
    if (cached && this.fresh(cached)) return cached.token;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const renewal = this.renew(key, issue).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, renewal);
    return renewal;
  }

  /** Forgets a token the carrier refused (only if it is still the cached one). */
  invalidate(key: string, token: string): void {
    if (this.tokens.get(key)?.token === token) {
      this.tokens.delete(key);
      this.options.redis?.del(this.redisKey(key)).catch(() => {});
    }
  }

  private fresh(cached: CachedToken): boolean {
    return cached.expires_at_ms - this.now() > this.refreshBeforeMs;
  }

  private async renew(key: string, issue: () => Promise<IssuedToken | CarrierError>): Promise<string | CarrierError> {
    const shared = await this.readShared(key);
    if (shared && this.fresh(shared)) {
      this.tokens.set(key, shared);
      return shared.token;
    }
    const issued = await issue();
    if ('status' in issued) return issued;
    const lifetimeMs = Math.max(1, issued.expires_in_seconds) * 1000;
    // A token shorter-lived than the refresh margin is still used for half its life.
    const expires = this.now() + lifetimeMs;
    const entry: CachedToken = {
      token: issued.access_token,
      expires_at_ms: lifetimeMs > this.refreshBeforeMs * 2 ? expires : this.now() + this.refreshBeforeMs + lifetimeMs / 2,
    };
    this.tokens.set(key, entry);
    await this.writeShared(key, entry, lifetimeMs);
    return entry.token;
  }

  private redisKey(key: string): string {
    return `${this.options.redisPrefix ?? 'waybill:carrier-token:'}${key}`;
  }

  private async readShared(key: string): Promise<CachedToken | null> {
    const { redis, unseal } = this.options;
    if (!redis || !unseal) return null;
    try {
      const sealed = await redis.get(this.redisKey(key));
      return sealed ? (JSON.parse(unseal(sealed)) as CachedToken) : null;
    } catch {
      // Redis down or a value sealed under another key: the process fetches its own token.
      return null;
    }
  }

  private async writeShared(key: string, entry: CachedToken, lifetimeMs: number): Promise<void> {
    const { redis, seal } = this.options;
    if (!redis || !seal) return;
    await redis.set(this.redisKey(key), seal(JSON.stringify(entry)), 'PX', Math.max(1000, Math.floor(lifetimeMs))).catch(() => {});
  }
}

import { type Clock, nowMs } from '../clock.js';
import type { CredentialsRepository } from '../db/repositories/credentials.repository.js';
import { randomToken, type Secrets, safeEqual, sha256Hex } from '../secrets.js';

export const TOKEN_LIFETIME_SECONDS = 3600;

/**
 * A token's expiry as written in it: Unix seconds in at most 12 decimal digits, nothing else (`Number()` alone
 * would take `1e99`, `0x10` or ` 42`). Null when the text is anything else.
 */
export function parseTokenExpiry(text: string): number | null {
  return /^\d{1,12}$/.test(text) ? Number(text) : null;
}

/** Who is calling: resolved from a bearer token on every merchant request. */
export interface Caller {
  accountId: number;
  accountUuid: string;
  clientId: string;
  features: ReadonlySet<string>;
  /** Unknown request fields are refused (4030) rather than ignored: the account's `strict_fields`. */
  strictFields: boolean;
}

interface CachedCredential {
  caller: Caller | null;
  secretHash: string | null;
  loadedAt: number;
}

/**
 * Access tokens are signed, self-contained strings (`v1.<client_id>.<expiry>.<nonce>.<hmac>`), so checking
 * one costs an HMAC, not a database round trip. The credential behind it is looked up through a small
 * cache; revoking credentials drops them from the cache at once, so a revoked token fails on the next request.
 */
export class AuthService {
  private readonly cache = new Map<string, CachedCredential>();
  /** Tokens whose signature was verified: token → [client id, expiry ms]. Saves the HMAC on repeat requests. */
  private readonly verified = new Map<string, [string, number]>();

  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly cacheMillis: number,
  ) {}

  /** Client-credentials grant: returns a token, or null for unknown, revoked or wrong credentials. */
  async issueToken(
    clientId: string,
    clientSecret: string,
  ): Promise<{ access_token: string; expires_in: number; token_type: 'Bearer' } | null> {
    const entry = await this.load(clientId, true);
    // Compare against a dummy hash when the client is unknown so both paths cost the same.
    const expected = entry.secretHash ?? sha256Hex('unknown-client');
    const matches = safeEqual(sha256Hex(clientSecret), expected);
    if (!matches || !entry.caller) return null;
    const expiry = Math.floor(this.clock.now().getTime() / 1000) + TOKEN_LIFETIME_SECONDS;
    const unsigned = `v1.${clientId}.${expiry}.${randomToken(12)}`;
    return {
      access_token: `${unsigned}.${this.secrets.sign(this.secrets.tokenKey, unsigned)}`,
      expires_in: TOKEN_LIFETIME_SECONDS,
      token_type: 'Bearer',
    };
  }

  /** Resolves a bearer token to its caller, or null when it is invalid, expired or revoked. */
  async authenticate(token: string): Promise<Caller | null> {
    const clientId = this.clientOf(token);
    if (clientId === null) return null;
    // Revocation and account changes are checked on every request, through the credential cache.
    return (await this.load(clientId, false)).caller;
  }

  /**
   * `authenticate` without waiting, when the answer is known from the caches: the caller, or null for a
   * token that is invalid, expired or revoked; undefined when the credential must be read from the database.
   */
  authenticateCached(token: string): Caller | null | undefined {
    const clientId = this.clientOf(token);
    if (clientId === null) return null;
    const cached = this.cache.get(clientId);
    return cached && Date.now() - cached.loadedAt < this.cacheMillis ? cached.caller : undefined;
  }

  /** The client id of a token whose signature is right and which has not expired; null otherwise. */
  private clientOf(token: string): string | null {
    const known = this.verified.get(token);
    let clientId: string;
    let expiresAt: number;
    if (known) {
      [clientId, expiresAt] = known;
    } else {
      const parts = token.split('.');
      if (parts.length !== 5 || parts[0] !== 'v1') return null;
      const unsigned = parts.slice(0, 4).join('.');
      if (!safeEqual(parts[4], this.secrets.sign(this.secrets.tokenKey, unsigned))) return null;
      const expiry = parseTokenExpiry(parts[2]);
      if (expiry === null) return null;
      clientId = parts[1];
      expiresAt = expiry * 1000;
      if (this.verified.size > 100_000) this.verified.clear();
      this.verified.set(token, [clientId, expiresAt]);
    }
    if (expiresAt <= nowMs(this.clock)) {
      this.verified.delete(token);
      return null;
    }
    return clientId;
  }

  /** Forget what is cached for these clients (after revocation or an account change). */
  invalidate(clientIds?: Iterable<string>): void {
    if (!clientIds) {
      this.cache.clear();
      return;
    }
    for (const id of clientIds) this.cache.delete(id);
  }

  private async load(clientId: string, fresh: boolean): Promise<CachedCredential> {
    const now = Date.now();
    const cached = this.cache.get(clientId);
    if (!fresh && cached && now - cached.loadedAt < this.cacheMillis) return cached;
    const row = await this.credentials.findWithAccount(clientId);
    const entry: CachedCredential = {
      loadedAt: now,
      secretHash: row?.secret_hash ?? null,
      caller:
        row && row.revoked_at === null
          ? {
              accountId: row.account_id,
              accountUuid: row.account_uuid,
              clientId: row.client_id,
              features: new Set(JSON.parse(row.features) as string[]),
              strictFields: row.strict_fields === 1,
            }
          : null,
    };
    if (this.cache.size > 100_000) this.cache.clear();
    this.cache.set(clientId, entry);
    return entry;
  }
}

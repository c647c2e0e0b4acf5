import { createHash } from 'node:crypto';
import type { Repositories } from '../db/repositories/index.js';

/** JSON with object keys sorted at every depth, so equal requests have equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `status_code` of a stored result: the column holds the HTTP status of Idempotency-Key answers, and marks any result complete. */
const COMPLETE = 200;

/**
 * Does `work` once per key within `ttlMs`: the claim of the key, the work and its stored result (as JSON)
 * commit in one transaction, so concurrent identical requests wait for the first and get its result, and a
 * failed request leaves nothing behind. Returns the result and whether it was a replay; `kept` gives what is
 * stored of a result (as JSON) and `stored` reads it back.
 */
export async function onceWithin<T>(
  repos: Repositories,
  options: { accountId: number; scope: string; key: string; now: Date; ttlMs: number },
  work: (repos: Repositories) => Promise<T>,
  codec: { kept: (result: T) => unknown; stored: (json: unknown) => T },
): Promise<{ result: T; replayed: boolean }> {
  return repos.transaction(async (trx) => {
    const claimed = await trx.replays.claim({
      account_id: options.accountId,
      scope: options.scope,
      replay_key: options.key,
      request_hash: options.key,
      created_at: options.now.toISOString(),
      expires_at: new Date(options.now.getTime() + options.ttlMs).toISOString(),
    });
    if (!claimed) {
      const kept = await trx.replays.find(options.accountId, options.scope, options.key);
      if (kept?.response) return { result: codec.stored(JSON.parse(kept.response)), replayed: true };
    }
    const result = await work(trx);
    await trx.replays.complete(options.accountId, options.scope, options.key, COMPLETE, JSON.stringify(codec.kept(result)));
    return { result, replayed: false };
  });
}

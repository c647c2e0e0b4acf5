import { createHash } from 'node:crypto';
import type { Repositories } from '../db/repositories/index.js';

/** A response that can be stored and given again. */
export interface StoredResponse {
  statusCode: number;
  body: unknown;
}

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

/**
 * Does `work` once per key within `ttlMs`: the claim of the key, the work and its stored response commit in
 * one transaction, so concurrent identical requests wait for the first and get its response, and a failed
 * request leaves nothing behind. Returns the response and whether it was a replay.
 */
export async function onceWithin(
  repos: Repositories,
  options: { accountId: number; scope: string; key: string; now: Date; ttlMs: number },
  work: (repos: Repositories) => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
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
      const stored = await trx.replays.find(options.accountId, options.scope, options.key);
      if (stored?.response) return { statusCode: stored.status_code ?? 200, body: JSON.parse(stored.response), replayed: true };
    }
    const response = await work(trx);
    await trx.replays.complete(options.accountId, options.scope, options.key, response.statusCode, JSON.stringify(response.body));
    return { ...response, replayed: false };
  });
}

import type { Kysely, Selectable } from 'kysely';
import type { Database, RequestReplaysTable } from '../schema.js';

export type ReplayRow = Selectable<RequestReplaysTable>;

/** Stored responses that identical requests get back instead of doing the work again. */
export class RequestReplaysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Takes the key for this request: inserts it, or takes over an expired one. Returns null when a live
   * entry already holds the key (then `find` gives it). On PostgreSQL a concurrent claim of the same key
   * waits for the first transaction and then sees its row.
   */
  async claim(row: {
    account_id: number;
    scope: string;
    replay_key: string;
    request_hash: string;
    created_at: string;
    expires_at: string;
  }): Promise<boolean> {
    const inserted = await this.db
      .insertInto('request_replays')
      .values(row)
      .onConflict((oc) => oc.columns(['account_id', 'scope', 'replay_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return true;
    const retaken = await this.db
      .updateTable('request_replays')
      .set({ request_hash: row.request_hash, status_code: null, response: null, created_at: row.created_at, expires_at: row.expires_at })
      .where('account_id', '=', row.account_id)
      .where('scope', '=', row.scope)
      .where('replay_key', '=', row.replay_key)
      .where('expires_at', '<=', row.created_at)
      .returning('id')
      .executeTakeFirst();
    return retaken !== undefined;
  }

  find(accountId: number, scope: string, key: string): Promise<ReplayRow | undefined> {
    return this.db
      .selectFrom('request_replays')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('scope', '=', scope)
      .where('replay_key', '=', key)
      .executeTakeFirst();
  }

  async complete(accountId: number, scope: string, key: string, statusCode: number, response: string, expiresAt?: string): Promise<void> {
    await this.db
      .updateTable('request_replays')
      .set({ status_code: statusCode, response, ...(expiresAt ? { expires_at: expiresAt } : {}) })
      .where('account_id', '=', accountId)
      .where('scope', '=', scope)
      .where('replay_key', '=', key)
      .execute();
  }

  async release(accountId: number, scope: string, key: string): Promise<void> {
    await this.db
      .deleteFrom('request_replays')
      .where('account_id', '=', accountId)
      .where('scope', '=', scope)
      .where('replay_key', '=', key)
      .where('status_code', 'is', null)
      .execute();
  }

  async purgeExpired(now: string): Promise<number> {
    const result = await this.db.deleteFrom('request_replays').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

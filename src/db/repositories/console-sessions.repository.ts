import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Console sessions ended before their token expired (signed out), by the SHA-256 of the session's token. */
export class ConsoleSessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async revoke(row: { session_hash: string; account_id: number; expires_at: string }): Promise<void> {
    await this.db
      .insertInto('console_session_revocations')
      .values(row)
      .onConflict((oc) => oc.column('session_hash').doNothing())
      .execute();
  }

  async isRevoked(sessionHash: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('console_session_revocations')
      .select('session_hash')
      .where('session_hash', '=', sessionHash)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Revocations of sessions that have expired anyway. */
  async purgeExpired(now: string): Promise<number> {
    const result = await this.db.deleteFrom('console_session_revocations').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

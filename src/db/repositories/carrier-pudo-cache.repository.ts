import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Answers of carriers searched live for pick-up points, and their records by uuid, each until it expires. */
export class CarrierPudoCacheRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(key: string, now: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('carrier_pudo_cache')
      .select('value')
      .where('cache_key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.value ?? null;
  }

  /** Writes or replaces each entry. */
  async put(entries: ReadonlyArray<{ key: string; carrierId: string; value: string; expiresAt: string }>): Promise<void> {
    if (entries.length === 0) return;
    await this.db
      .insertInto('carrier_pudo_cache')
      .values(entries.map((e) => ({ cache_key: e.key, carrier_id: e.carrierId, value: e.value, expires_at: e.expiresAt })))
      .onConflict((oc) =>
        oc.column('cache_key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), expires_at: eb.ref('excluded.expires_at') })),
      )
      .execute();
  }

  /** Removes what expired before `now`; returns how many. */
  async purgeExpired(now: string): Promise<number> {
    const result = await this.db.deleteFrom('carrier_pudo_cache').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

import { type Kysely, Migrator } from 'kysely';
import { migrations } from '../../src/db/migrate.js';

/**
 * A database as the release before a migration left it: every migration up to `last` applied. Returns the
 * migrator, whose `migrateToLatest` then plays the upgrade.
 */
export async function migratedTo(db: Kysely<any>, last: string): Promise<Migrator> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const before = await migrator.migrateTo(last);
  if (before.error) throw before.error;
  return migrator;
}

/** An account row of such a database; answers its id. */
export async function upgradedAccount(db: Kysely<any>, accountUuid: string, now: string): Promise<number> {
  const account = await db
    .insertInto('accounts')
    .values({ account_uuid: accountUuid, name: 'Upgraded', features: '[]', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(account.id);
}

/** A shipment row with only the columns every release requires, keyed by `id` (uuid, shipment_id, page). */
export function bareShipment(accountId: number, id: string, now: string) {
  return {
    account_id: accountId,
    shipment_uuid: `uuid-${id}`,
    shipment_id: id,
    status: 'pending',
    source: 'api',
    tracking_page_reference: `page-${id}`,
    body: '{}',
    created_at: now,
    updated_at: now,
  };
}

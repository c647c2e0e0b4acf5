import { sql } from 'kysely';
import type { MigrationDb } from './helpers.js';

/**
 * An aggregator's configuration may be the account's fallback (1): shipments given without carrier_reference
 * whose number no other configuration claims are tracked through it. Booleans are 0/1 integers.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('carrier_configs')
    .addColumn('fallback', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // One fallback per account, whatever two requests do at once (the service refuses a second one by name).
  await db.schema
    .createIndex('carrier_configs_one_fallback')
    .unique()
    .on('carrier_configs')
    .column('account_id')
    .where(sql.ref('fallback'), '=', 1)
    .execute();
}

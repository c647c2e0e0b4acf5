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
}

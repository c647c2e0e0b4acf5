import { type MigrationDb, notNull } from './helpers.js';

/**
 * The worker polling a carrier configuration holds it for a lease, in one row per configuration: the due
 * shipments are then read without a write each (before, a claim moved every claimed shipment's next poll to
 * the end of a lease, so each poll wrote its row twice). Only configurations being polled have a row.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('poll_leases')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('carrier_reference', 'text', notNull)
    .addColumn('holder', 'text', notNull)
    .addColumn('leased_until', 'text', notNull)
    .addPrimaryKeyConstraint('poll_leases_pkey', ['account_id', 'carrier_reference'])
    .execute();
}

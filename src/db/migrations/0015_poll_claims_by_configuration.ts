import type { MigrationDb } from './helpers.js';

/**
 * The due polls of one carrier configuration in the order they fell due: the poller claims for each credential
 * what its limits let it serve in a round, and defers a quota-bound credential's due set in one statement. Only
 * tracked shipments (a next poll set) are in it.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('shipments_configuration_next_poll')
    .on('shipments')
    .columns(['account_id', 'carrier_reference', 'next_poll_at'])
    .where('next_poll_at', 'is not', null)
    .execute();
}

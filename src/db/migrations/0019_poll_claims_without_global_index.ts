import { sql } from 'kysely';
import type { MigrationDb } from './helpers.js';

/**
 * The poller finds due polls configuration by configuration (`shipments_configuration_next_poll`, 0015), so
 * the index of every shipment's next poll is dropped: each poll moved its entry twice (claim, then the next
 * poll), a fifth of a poll's writes. A shipment is tracked only with a carrier configuration; one scheduled
 * without (none can be now) would be out of the poller's sight, so its tracking is ended, as the poller did.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`update shipments set next_poll_at = null where next_poll_at is not null and carrier_reference is null`.execute(db);
  await db.schema.dropIndex('shipments_next_poll').execute();
}

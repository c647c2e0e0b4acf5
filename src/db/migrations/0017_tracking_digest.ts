import type { MigrationDb } from './helpers.js';

/**
 * A digest of the last carrier answer a shipment's poll stored in full (its events' de-duplication keys, in
 * the answer's order). A poll whose answer has the same digest brings nothing new: its events are not
 * inserted again, which is most polls of a shipment after its first. Null until a poll stores an answer.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('shipments').addColumn('tracking_digest', 'text').execute();
}

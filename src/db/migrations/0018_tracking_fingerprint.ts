import type { MigrationDb } from './helpers.js';

/**
 * A fingerprint of the carrier's own data for a shipment's number as of the last answer a poll stored in
 * full (made by the carrier adapter, `src/carriers/sdk/known-answers.ts`). A poll whose carrier data has the
 * same fingerprint is not mapped again: nothing in it can be new. Null until such an answer is stored.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('shipments').addColumn('tracking_fingerprint', 'text').execute();
}

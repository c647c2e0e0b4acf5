import type { MigrationDb } from './helpers.js';

/**
 * When a shipment's poll was first put off because its carrier credential's daily quota could not cover
 * every due shipment; cleared by the next poll. The scheduler serves the longest-deferred first once they
 * near their starvation bound.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('shipments').addColumn('poll_deferred_since', 'text').execute();
}

import type { MigrationDb } from './helpers.js';
import { notNull } from './helpers.js';

/**
 * `delivery_learning`: the shipments whose journey changed since delivery intelligence last counted them. A
 * tracking change adds its shipment here in its own transaction (one row, written once however often it
 * changes); the learner counts them in batches (src/jobs/delivery-learning.task.ts) and removes their rows in
 * the same transaction, so a change is counted once and none is lost.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('delivery_learning')
    .addColumn('shipment_row_id', 'bigint', (c) => c.primaryKey().references('shipments.id').onDelete('cascade'))
    .addColumn('queued_at', 'text', notNull)
    .execute();
}

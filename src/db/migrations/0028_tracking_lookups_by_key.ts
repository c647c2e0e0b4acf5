import type { MigrationDb } from './helpers.js';

/**
 * Drops `shipments_account_tracking` (account, tracking number as stored). Every query that looked a number up
 * by it (the list's `tracking_number` filter, whether a number is still tracked) now also names the number's
 * key, which `shipments_account_tracking_key` (0022) indexes; the exact comparison stays beside it, so what they
 * answer is unchanged. One index fewer is one B-tree fewer written by every create and every change of a number.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('shipments_account_tracking').execute();
}

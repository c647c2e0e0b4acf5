import type { MigrationDb } from './helpers.js';

/** Accounts that want unknown request fields refused (4030) instead of ignored. Booleans are 0/1 integers. */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('strict_fields', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

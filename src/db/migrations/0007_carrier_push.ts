import type { MigrationDb } from './helpers.js';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('carrier_configs').addColumn('push_token_hash', 'text').execute();
  await db.schema.createIndex('carrier_configs_push_token').on('carrier_configs').column('push_token_hash').unique().execute();
}

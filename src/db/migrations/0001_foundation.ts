import { type MigrationDb, notNull, withId } from './helpers.js';

export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('accounts'))
    .addColumn('account_uuid', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', notNull)
    .addColumn('features', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();

  await withId(db, db.schema.createTable('api_credentials'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_credentials_account').on('api_credentials').column('account_id').execute();

  await withId(db, db.schema.createTable('carrier_configs'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('carrier_reference', 'text', notNull)
    .addColumn('carrier_id', 'text', notNull)
    .addColumn('booking_outbound', 'integer', notNull)
    .addColumn('booking_return', 'integer', notNull)
    .addColumn('settings_sealed', 'text')
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .addUniqueConstraint('carrier_configs_account_reference', ['account_id', 'carrier_reference'])
    .execute();
}

import { type MigrationDb, notNull, withId } from './helpers.js';

export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('webhook_endpoints'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('webhook_uuid', 'text', (c) => c.notNull().unique())
    .addColumn('url', 'text', notNull)
    .addColumn('format', 'text', notNull)
    .addColumn('events', 'text')
    .addColumn('enabled', 'integer', notNull)
    .addColumn('secret_sealed', 'text', notNull)
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    .addColumn('disabled_reason', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('webhook_endpoints_account').on('webhook_endpoints').column('account_id').execute();

  // The outbox: one row per domain event, written in the transaction of the change.
  await withId(db, db.schema.createTable('webhook_events'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', notNull)
    .addColumn('shipment_row_id', 'bigint', (c) => c.references('shipments.id').onDelete('cascade'))
    .addColumn('sequence', 'integer', notNull)
    .addColumn('refs', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .execute();

  await withId(db, db.schema.createTable('webhook_deliveries'))
    .addColumn('account_id', 'bigint', notNull)
    .addColumn('endpoint_id', 'bigint', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_row_id', 'bigint', (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
    .addColumn('status', 'text', notNull)
    .addColumn('body', 'text')
    .addColumn('attempts', 'integer', notNull)
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('webhook_deliveries_account_status').on('webhook_deliveries').columns(['account_id', 'status']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();

  await withId(db, db.schema.createTable('webhook_attempts'))
    .addColumn('delivery_id', 'bigint', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'bigint', notNull)
    .addColumn('attempted_at', 'text', notNull)
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', notNull)
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('webhook_attempts_endpoint').on('webhook_attempts').columns(['endpoint_id', 'id']).execute();

  await db.schema
    .alterTable('shipments')
    .addColumn('webhook_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

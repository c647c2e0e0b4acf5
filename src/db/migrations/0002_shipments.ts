import { type MigrationDb, notNull, withId } from './helpers.js';

export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('orders'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('order_uuid', 'text', (c) => c.notNull().unique())
    .addColumn('order_id', 'text', notNull)
    .addColumn('order_reference', 'text')
    .addColumn('source_type', 'text')
    .addColumn('source_name', 'text')
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .addUniqueConstraint('orders_account_order_id', ['account_id', 'order_id'])
    .execute();

  await withId(db, db.schema.createTable('shipments'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('shipment_uuid', 'text', (c) => c.notNull().unique())
    .addColumn('shipment_id', 'text', notNull)
    .addColumn('tracking_number', 'text')
    .addColumn('carrier_reference', 'text')
    .addColumn('carrier_id', 'text')
    .addColumn('order_row_id', 'bigint', (c) => c.references('orders.id'))
    .addColumn('status', 'text', notNull)
    .addColumn('phase_key', 'text')
    .addColumn('source', 'text', notNull)
    .addColumn('shipment_type', 'text')
    .addColumn('tracking_page_reference', 'text', (c) => c.notNull().unique())
    .addColumn('body', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .addColumn('tracking_started_at', 'text')
    .addColumn('next_poll_at', 'text')
    .addColumn('last_tracking_update_at', 'text')
    .addUniqueConstraint('shipments_account_shipment_id', ['account_id', 'shipment_id'])
    .execute();
  await db.schema.createIndex('shipments_account_id_desc').on('shipments').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('shipments_account_tracking').on('shipments').columns(['account_id', 'tracking_number']).execute();
  await db.schema.createIndex('shipments_account_order').on('shipments').columns(['account_id', 'order_row_id']).execute();
  await db.schema.createIndex('shipments_next_poll').on('shipments').column('next_poll_at').execute();

  await db.schema
    .createTable('shipment_tags')
    .addColumn('shipment_row_id', 'bigint', (c) => c.notNull().references('shipments.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', notNull)
    .addColumn('tag', 'text', notNull)
    .addPrimaryKeyConstraint('shipment_tags_pk', ['shipment_row_id', 'tag'])
    .execute();
  await db.schema.createIndex('shipment_tags_account_tag').on('shipment_tags').columns(['account_id', 'tag', 'shipment_row_id']).execute();

  await withId(db, db.schema.createTable('tracking_events'))
    .addColumn('shipment_row_id', 'bigint', (c) => c.notNull().references('shipments.id').onDelete('cascade'))
    .addColumn('dedupe_key', 'text', notNull)
    .addColumn('origin', 'text', notNull)
    .addColumn('event', 'text', notNull)
    .addColumn('event_key', 'text')
    .addColumn('phase_key', 'text')
    .addColumn('time_text', 'text', notNull)
    .addColumn('time_utc', 'text', notNull)
    .addColumn('timezone', 'text')
    .addColumn('carrier_name', 'text')
    .addColumn('location', 'text')
    .addColumn('additional_info', 'text', notNull)
    .addColumn('sequence', 'integer', notNull)
    .addColumn('created_at', 'text', notNull)
    .addUniqueConstraint('tracking_events_dedupe', ['shipment_row_id', 'dedupe_key'])
    .execute();
  await db.schema
    .createIndex('tracking_events_shipment_time')
    .on('tracking_events')
    .columns(['shipment_row_id', 'time_utc', 'sequence'])
    .execute();
}

import { type MigrationDb, notNull, withId } from './helpers.js';

export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('bookings'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('booking_uuid', 'text', (c) => c.notNull().unique())
    // One booking per shipment: the row is written before the carrier is called, so a second attempt is refused.
    .addColumn('shipment_row_id', 'bigint', (c) => c.notNull().unique().references('shipments.id').onDelete('cascade'))
    .addColumn('carrier_reference', 'text', notNull)
    .addColumn('carrier_id', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('type_of_shipment', 'text', notNull)
    .addColumn('shipping_service', 'text')
    .addColumn('carrier_shipment_identifier', 'text')
    .addColumn('tracking_number', 'text')
    .addColumn('pudo_location_uuid', 'text')
    .addColumn('carrier_additional_info', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();

  await withId(db, db.schema.createTable('documents'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('document_uuid', 'text', (c) => c.notNull().unique())
    .addColumn('shipment_row_id', 'bigint', (c) => c.notNull().references('shipments.id').onDelete('cascade'))
    .addColumn('booking_row_id', 'bigint', (c) => c.references('bookings.id').onDelete('cascade'))
    .addColumn('document_id', 'text', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('type', 'text', notNull)
    .addColumn('file_format', 'text', notNull)
    .addColumn('content_type', 'text', notNull)
    .addColumn('file_key', 'text')
    .addColumn('status', 'text', notNull)
    .addColumn('additional_info', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('documents_shipment').on('documents').column('shipment_row_id').execute();

  await withId(db, db.schema.createTable('pudo_locations'))
    .addColumn('carrier_id', 'text', notNull)
    .addColumn('pudo_location_uuid', 'text', (c) => c.notNull().unique())
    .addColumn('pudo_location_id', 'text', notNull)
    .addColumn('lat', 'double precision', notNull)
    .addColumn('lng', 'double precision', notNull)
    .addColumn('postal_code', 'text')
    .addColumn('country_code', 'text')
    .addColumn('record', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('pudo_locations_carrier_lat_lng').on('pudo_locations').columns(['carrier_id', 'lat', 'lng']).execute();

  await db.schema.alterTable('shipments').addColumn('collection_point', 'text').execute();
}

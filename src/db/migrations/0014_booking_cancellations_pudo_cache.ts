import { type MigrationDb, notNull, withId } from './helpers.js';

/**
 * Cancelled bookings, kept after their row leaves `bookings` (one live booking per shipment, so a cancelled
 * shipment can be booked again); and the answers of carriers searched live for pick-up points, with the
 * records a booking reads back by `pudo_location_uuid`, each until it expires.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('booking_cancellations'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('booking_uuid', 'text', (c) => c.notNull().unique())
    .addColumn('shipment_row_id', 'bigint', (c) => c.notNull().references('shipments.id').onDelete('cascade'))
    .addColumn('carrier_reference', 'text', notNull)
    .addColumn('carrier_id', 'text', notNull)
    .addColumn('carrier_shipment_identifier', 'text')
    .addColumn('tracking_number', 'text')
    /** The booking as it stood (the `bookings` row, JSON). */
    .addColumn('booking', 'text', notNull)
    /** `voided` (the carrier confirmed) or `released` (the carrier's outcome was never known). */
    .addColumn('outcome', 'text', notNull)
    .addColumn('cancelled_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('booking_cancellations_shipment').on('booking_cancellations').column('shipment_row_id').execute();

  await withId(db, db.schema.createTable('carrier_pudo_cache'))
    .addColumn('cache_key', 'text', (c) => c.notNull().unique())
    .addColumn('carrier_id', 'text', notNull)
    .addColumn('value', 'text', notNull)
    .addColumn('expires_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('carrier_pudo_cache_expiry').on('carrier_pudo_cache').column('expires_at').execute();
}

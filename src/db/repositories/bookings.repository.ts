import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { BookingCancellationsTable, BookingsTable, Database } from '../schema.js';

export type BookingRow = Selectable<BookingsTable>;

export class BookingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records the booking attempt; returns null when the shipment already has a booking. */
  async insertIfNone(row: Insertable<BookingsTable>): Promise<BookingRow | null> {
    const inserted = await this.db
      .insertInto('bookings')
      .values(row)
      .onConflict((oc) => oc.column('shipment_row_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    return inserted ?? null;
  }

  update(id: number, changes: Updateable<BookingsTable>): Promise<BookingRow> {
    return this.db.updateTable('bookings').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('bookings').where('id', '=', id).execute();
  }

  findByShipment(shipmentRowId: number): Promise<BookingRow | undefined> {
    return this.db.selectFrom('bookings').selectAll().where('shipment_row_id', '=', shipmentRowId).executeTakeFirst();
  }

  findById(id: number): Promise<BookingRow | undefined> {
    return this.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByUuid(accountId: number, bookingUuid: string): Promise<BookingRow | undefined> {
    return this.db
      .selectFrom('bookings')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('booking_uuid', '=', bookingUuid)
      .executeTakeFirst();
  }

  /** The shipment's most recent cancelled booking. */
  latestCancelledOf(shipmentRowId: number): Promise<Selectable<BookingCancellationsTable> | undefined> {
    return this.db
      .selectFrom('booking_cancellations')
      .selectAll()
      .where('shipment_row_id', '=', shipmentRowId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** A cancelled booking of the account, from the archive. */
  findCancelled(accountId: number, bookingUuid: string): Promise<Selectable<BookingCancellationsTable> | undefined> {
    return this.db
      .selectFrom('booking_cancellations')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('booking_uuid', '=', bookingUuid)
      .executeTakeFirst();
  }

  /**
   * Moves a booking to the archive of cancellations (its documents go with its row), if it is still as it
   * was read (`expectedStatus`); false when a concurrent request moved or removed it first.
   */
  async archive(booking: BookingRow, expectedStatus: string, outcome: 'voided' | 'released', now: string): Promise<boolean> {
    const removed = await this.db
      .deleteFrom('bookings')
      .where('id', '=', booking.id)
      .where('status', '=', expectedStatus)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return false;
    await this.db
      .insertInto('booking_cancellations')
      .values({
        account_id: booking.account_id,
        booking_uuid: booking.booking_uuid,
        shipment_row_id: booking.shipment_row_id,
        carrier_reference: booking.carrier_reference,
        carrier_id: booking.carrier_id,
        carrier_shipment_identifier: booking.carrier_shipment_identifier,
        tracking_number: booking.tracking_number,
        booking: JSON.stringify(booking),
        outcome,
        cancelled_at: now,
      })
      .execute();
    return true;
  }
}

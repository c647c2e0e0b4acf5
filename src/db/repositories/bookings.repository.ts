import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { BookingsTable, Database } from '../schema.js';

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
}

import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, TrackingEventsTable } from '../schema.js';

export type TrackingEventRow = Selectable<TrackingEventsTable>;

export class TrackingEventsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts the events not stored yet (by de-duplication key); returns how many were new. */
  async insertNew(rows: Insertable<TrackingEventsTable>[]): Promise<number> {
    if (rows.length === 0) return 0;
    let inserted = 0;
    // Chunks keep each statement under the dialects' bound-parameter limits.
    for (let i = 0; i < rows.length; i += 200) {
      const result = await this.db
        .insertInto('tracking_events')
        .values(rows.slice(i, i + 200))
        .onConflict((oc) => oc.columns(['shipment_row_id', 'dedupe_key']).doNothing())
        .returning('id')
        .execute();
      inserted += result.length;
    }
    return inserted;
  }

  /** A shipment's events, newest first by normalized time, then by the carrier's own order. */
  listForShipment(shipmentRowId: number): Promise<TrackingEventRow[]> {
    return this.db
      .selectFrom('tracking_events')
      .selectAll()
      .where('shipment_row_id', '=', shipmentRowId)
      .orderBy('time_utc', 'desc')
      .orderBy('sequence', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Events of several shipments at once (list pages), each shipment's newest first. */
  async listForShipments(shipmentRowIds: number[]): Promise<Map<number, TrackingEventRow[]>> {
    const byShipment = new Map<number, TrackingEventRow[]>(shipmentRowIds.map((id) => [id, []]));
    if (shipmentRowIds.length === 0) return byShipment;
    const rows = await this.db
      .selectFrom('tracking_events')
      .selectAll()
      .where('shipment_row_id', 'in', shipmentRowIds)
      .orderBy('shipment_row_id')
      .orderBy('time_utc', 'desc')
      .orderBy('sequence', 'desc')
      .orderBy('id', 'desc')
      .execute();
    for (const row of rows) byShipment.get(row.shipment_row_id)?.push(row);
    return byShipment;
  }

  /** The newest event that carries a standard phase, for deciding status and phase. */
  latestWithPhase(shipmentRowId: number): Promise<TrackingEventRow | undefined> {
    return this.db
      .selectFrom('tracking_events')
      .selectAll()
      .where('shipment_row_id', '=', shipmentRowId)
      .where('phase_key', 'is not', null)
      .orderBy('time_utc', 'desc')
      .orderBy('sequence', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }
}

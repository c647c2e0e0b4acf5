import type { Insertable, Kysely, Selectable } from 'kysely';
import { flattenRows, PreparedQuery, PreparedQueryFamily, rowsFromArgs } from '../prepared-query.js';
import type { Database, TrackingEventsTable } from '../schema.js';

export type TrackingEventRow = Selectable<TrackingEventsTable>;

type NewEventRow = Insertable<TrackingEventsTable>;
/** Rows per insert statement: under the dialects' bound-parameter limits. */
const CHUNK = 200;
/** Inserts by row count and columns: a carrier answer has a handful of new events, so few shapes recur. */
const inserts = new PreparedQueryFamily<unknown[], { id: number }>(100);

function insertStatement(columns: Array<keyof NewEventRow>, count: number) {
  return (db: Kysely<Database>, ...values: unknown[]) =>
    db
      .insertInto('tracking_events')
      .values(rowsFromArgs<NewEventRow>(count, columns, values))
      .onConflict((oc) => oc.columns(['shipment_row_id', 'dedupe_key']).doNothing())
      .returning('id');
}

const listForShipment = new PreparedQuery((db, shipmentRowId: number) =>
  db
    .selectFrom('tracking_events')
    .selectAll()
    .where('shipment_row_id', '=', shipmentRowId)
    .orderBy('time_utc', 'desc')
    .orderBy('sequence', 'desc')
    .orderBy('id', 'desc'),
);
const latestWithPhase = new PreparedQuery((db, shipmentRowId: number) =>
  db
    .selectFrom('tracking_events')
    .selectAll()
    .where('shipment_row_id', '=', shipmentRowId)
    .where('phase_key', 'is not', null)
    .orderBy('time_utc', 'desc')
    .orderBy('sequence', 'desc')
    .orderBy('id', 'desc')
    .limit(1),
);

export class TrackingEventsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts the events not stored yet (by de-duplication key); returns how many were new. */
  async insertNew(rows: Insertable<TrackingEventsTable>[]): Promise<number> {
    if (rows.length === 0) return 0;
    let inserted = 0;
    // Chunks keep each statement under the dialects' bound-parameter limits.
    for (let i = 0; i < rows.length; i += CHUNK) {
      inserted += (await this.insertChunk(rows.slice(i, i + CHUNK))).length;
    }
    return inserted;
  }

  private insertChunk(rows: NewEventRow[]): Promise<Array<{ id: number }>> {
    const { columns, values, shape, bindable } = flattenRows(rows);
    const query = rows.length <= 50 && bindable ? inserts.get(shape, () => insertStatement(columns, rows.length)) : null;
    if (query) return query.execute(this.db, ...values);
    return this.db
      .insertInto('tracking_events')
      .values(rows)
      .onConflict((oc) => oc.columns(['shipment_row_id', 'dedupe_key']).doNothing())
      .returning('id')
      .execute();
  }

  /** A shipment's events, newest first by normalized time, then by the carrier's own order. */
  listForShipment(shipmentRowId: number): Promise<TrackingEventRow[]> {
    return listForShipment.execute(this.db, shipmentRowId);
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
    return latestWithPhase.executeTakeFirst(this.db, shipmentRowId);
  }
}

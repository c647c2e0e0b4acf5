import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { DialectName } from '../connection.js';
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

/** The columns of a stored event, in the order `insertNewOf` binds them. */
const EVENT_COLUMNS = [
  'shipment_row_id',
  'dedupe_key',
  'origin',
  'event',
  'event_key',
  'phase_key',
  'time_text',
  'time_utc',
  'timezone',
  'carrier_name',
  'location',
  'additional_info',
  'sequence',
  'created_at',
] as const satisfies ReadonlyArray<keyof NewEventRow>;
/** Rows per statement of `insertNewOf`: full chunks, and the rest in halves down to one (few statement shapes). */
const MANY_CHUNK = 64;
/** What `insertNewOf` reads back of each stored event. */
export interface StoredEventRef {
  shipment_row_id: number;
}
const manyInserts = new PreparedQueryFamily<unknown[], StoredEventRef>(16);

/** The newest event with a phase of each shipment (as `latestWithPhase` orders them), read back after storing. */
export interface LatestPhase {
  shipment_row_id: number;
  phase_key: string | null;
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
/** What delivery intelligence reads of a shipment's events: those with a phase, their times (milestones.ts). */
const phaseTimes = new PreparedQuery((db, shipmentRowId: number) =>
  db
    .selectFrom('tracking_events')
    .select(['phase_key', 'event_key', 'time_text', 'time_utc', 'timezone'])
    .where('shipment_row_id', '=', shipmentRowId)
    .where('phase_key', 'is not', null),
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
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName = 'sqlite',
  ) {}

  /**
   * Inserts the events not stored yet (by de-duplication key) of many shipments at once, in few statements
   * of fixed shapes; returns the shipment of each one stored.
   */
  async insertNewOf(rows: readonly NewEventRow[]): Promise<StoredEventRef[]> {
    const stored: StoredEventRef[] = [];
    let at = 0;
    while (at < rows.length) {
      const left = rows.length - at;
      // 64, then the largest power of two that fits: 150 rows are 64 + 64 + 16 + 4 + 2.
      const count = left >= MANY_CHUNK ? MANY_CHUNK : 2 ** Math.floor(Math.log2(left));
      const values: unknown[] = [];
      for (let r = at; r < at + count; r++) {
        const row = rows[r];
        for (const column of EVENT_COLUMNS) values.push(row[column] ?? null);
      }
      const query = manyInserts.get(
        String(count),
        () =>
          (db, ...args) =>
            db
              .insertInto('tracking_events')
              .values(rowsFromArgs<NewEventRow>(count, [...EVENT_COLUMNS], args))
              .onConflict((oc) => oc.columns(['shipment_row_id', 'dedupe_key']).doNothing())
              .returning('shipment_row_id'),
      );
      if (!query) throw new Error(`insertNewOf: no statement for ${count} rows`);
      for (const ref of await query.execute(this.db, ...values)) stored.push(ref);
      at += count;
    }
    return stored;
  }

  /** `latestWithPhase` of many shipments in one statement: the phase of each one's newest event that has one. */
  async latestPhasesOf(shipmentRowIds: readonly number[]): Promise<Map<number, string | null>> {
    const latest = new Map<number, string | null>();
    if (shipmentRowIds.length === 0) return latest;
    const query =
      this.dialect === 'postgres'
        ? sql<LatestPhase>`
            select distinct on (shipment_row_id) shipment_row_id, phase_key from tracking_events
            where shipment_row_id = any(${[...shipmentRowIds]}::bigint[]) and phase_key is not null
            order by shipment_row_id, time_utc desc, sequence desc, id desc`
        : // The index (shipment_row_id, time_utc, sequence) ends with the row id: read backwards, it is this order.
          sql<LatestPhase>`
            select s.value as shipment_row_id, (
              select phase_key from tracking_events
              where shipment_row_id = s.value and phase_key is not null
              order by time_utc desc, sequence desc, id desc limit 1
            ) as phase_key
            from json_each(${JSON.stringify(shipmentRowIds)}) s`;
    for (const row of (await query.execute(this.db)).rows) {
      if (row.phase_key !== null) latest.set(Number(row.shipment_row_id), row.phase_key);
    }
    return latest;
  }

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
    const { columns, values, bindable } = flattenRows(rows);
    const query =
      rows.length <= 50 && bindable ? inserts.forColumns(rows.length, columns, () => insertStatement(columns, rows.length)) : null;
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

  /** A shipment's events that carry a phase: their phase, key and times, in no particular order. */
  phaseTimesOf(
    shipmentRowId: number,
  ): Promise<Array<Pick<TrackingEventRow, 'phase_key' | 'event_key' | 'time_text' | 'time_utc' | 'timezone'>>> {
    return phaseTimes.execute(this.db, shipmentRowId);
  }

  /** `phaseTimesOf` for several shipments in one statement. */
  async phaseTimesOfMany(
    shipmentRowIds: readonly number[],
  ): Promise<Map<number, Array<Pick<TrackingEventRow, 'phase_key' | 'event_key' | 'time_text' | 'time_utc' | 'timezone'>>>> {
    const byShipment = new Map<number, Array<Pick<TrackingEventRow, 'phase_key' | 'event_key' | 'time_text' | 'time_utc' | 'timezone'>>>(
      shipmentRowIds.map((id) => [id, []]),
    );
    if (shipmentRowIds.length === 0) return byShipment;
    const rows = await this.db
      .selectFrom('tracking_events')
      .select(['shipment_row_id', 'phase_key', 'event_key', 'time_text', 'time_utc', 'timezone'])
      .where('shipment_row_id', 'in', [...shipmentRowIds])
      .where('phase_key', 'is not', null)
      .execute();
    for (const { shipment_row_id, ...row } of rows) byShipment.get(Number(shipment_row_id))?.push(row);
    return byShipment;
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

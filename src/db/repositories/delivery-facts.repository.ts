import type { ExpressionBuilder, Insertable, Kysely, Selectable } from 'kysely';
import type { Database, DeliveryDailyTable, DeliveryFactsTable, DeliveryRollupsTable } from '../schema.js';
import {
  type CarrierParts,
  carrierColumns,
  carrierPartsOfLane,
  formatRollupTransits,
  parseRollupTransits,
  type RollupHistogram,
  type RollupKey,
  rollupId,
  rollupKeysOf,
  timingIndex,
} from './delivery-rollup-units.js';

export type DeliveryFactRow = Selectable<DeliveryFactsTable>;

/** Counters of `delivery_daily` (everything but the key). */
export const DAILY_COUNTERS = [
  'shipments',
  'accepted',
  'first_attempts',
  'first_attempt_successes',
  'delivered',
  'on_time',
  'promised',
  'exceptions',
  'returned_to_sender',
] as const;
export type DailyCounter = (typeof DAILY_COUNTERS)[number];

/** A change to one `delivery_daily` row: its key and the counters' differences. */
export type DailyDelta = Omit<Insertable<DeliveryDailyTable>, DailyCounter> & Record<DailyCounter, number>;

/** A change to one transit count of a `delivery_daily` row. */
export interface DailyTransitDelta {
  account_id: number;
  day: string;
  lane_key: string;
  transit: number;
  timing: string;
  delta: number;
}

/** The columns of a fact (all but the key are overwritten when it is written again). */
const FACT_COLUMNS = [
  'shipment_row_id',
  'account_id',
  'day',
  'lane_key',
  'carrier_reference',
  'carrier_id',
  'shipping_service',
  'origin_country',
  'destination_country',
  'destination_prefix',
  'accepted_date',
  'first_attempt_date',
  'first_attempt_phase',
  'delivered',
  'transit',
  'promised_from',
  'promised_to',
  'exception',
  'returned',
  'sampled',
  'last_scan_at',
] as const satisfies ReadonlyArray<keyof DeliveryFactRow>;

/**
 * Per shipment, the milestones delivery analytics count, and the daily aggregates they are answered from.
 * A shipment's change reaches the aggregates as the difference between its old and new facts.
 */
export class DeliveryFactsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The facts of several shipments, by shipment. */
  async getMany(shipmentRowIds: readonly number[]): Promise<Map<number, DeliveryFactRow>> {
    if (shipmentRowIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('delivery_facts')
      .selectAll()
      .where('shipment_row_id', 'in', [...shipmentRowIds])
      .execute();
    return new Map(rows.map((row) => [Number(row.shipment_row_id), row]));
  }

  /** Writes several shipments' facts, 500 a statement, in shipment order (two writers lock rows in the same order). */
  async putMany(facts: readonly DeliveryFactRow[]): Promise<void> {
    for (const part of chunks(
      [...facts].sort((a, b) => a.shipment_row_id - b.shipment_row_id),
      ROWS_PER_STATEMENT,
    ))
      await this.db
        .insertInto('delivery_facts')
        .values(part)
        .onConflict((oc) =>
          oc
            .column('shipment_row_id')
            .doUpdateSet((eb) =>
              Object.fromEntries(FACT_COLUMNS.filter((c) => c !== 'shipment_row_id').map((c) => [c, eb.ref(`excluded.${c}`)])),
            ),
        )
        .execute();
  }

  /**
   * Adds the differences to the daily rows (created at zero when missing), one statement per table, and to
   * the week and month rows that hold them (`delivery_rollups`), so that a period's whole weeks and months can
   * be read there. Call it in a transaction: the rollups must move with the days.
   */
  async applyDaily(rows: readonly DailyDelta[], transits: readonly DailyTransitDelta[]): Promise<void> {
    for (const part of chunks(rows, ROWS_PER_STATEMENT)) {
      await this.db
        .insertInto('delivery_daily')
        .values(part)
        .onConflict((oc) =>
          oc.columns(['account_id', 'day', 'lane_key']).doUpdateSet((eb) => {
            const set: Record<string, unknown> = {};
            for (const counter of DAILY_COUNTERS) set[counter] = eb(`delivery_daily.${counter}`, '+', eb.ref(`excluded.${counter}`));
            return set;
          }),
        )
        .execute();
    }
    for (const part of chunks(transits, ROWS_PER_STATEMENT)) {
      await this.db
        .insertInto('delivery_daily_transits')
        .values(part.map(({ delta, ...key }) => ({ ...key, shipments: delta })))
        .onConflict((oc) =>
          oc
            .columns(['account_id', 'day', 'lane_key', 'transit', 'timing'])
            .doUpdateSet((eb) => ({ shipments: eb('delivery_daily_transits.shipments', '+', eb.ref('excluded.shipments')) })),
        )
        .execute();
    }
    await applyRollups(this.db, rows, transits);
  }
}

/**
 * Keys a statement names at most: SQLite refuses an expression deeper than 1,000, and each key is a term of one
 * OR (a batch of the learner changes thousands of rows when its shipments span many days and lanes).
 */
const KEYS_PER_STATEMENT = 200;
/** Rows a multi-row upsert writes at most: 21 columns × 500 stays well under both databases' parameter limits. */
const ROWS_PER_STATEMENT = 500;

/** `items` in runs of `size`, in order (so that rows are still locked in key order across the statements). */
function chunks<T>(items: readonly T[], size = KEYS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Rows whose key is one of `keys` (at most KEYS_PER_STATEMENT). */
function keyedBy(keys: readonly RollupKey[]) {
  return (eb: ExpressionBuilder<Database, 'delivery_rollups'>) =>
    eb.or(
      keys.map((key) =>
        eb.and([
          eb('account_id', '=', key.account_id),
          eb('unit', '=', key.unit),
          eb('start', '=', key.start),
          eb('lane_key', '=', key.lane_key),
        ]),
      ),
    );
}

/**
 * The daily differences applied to their weeks and months: the counters in one upsert, which also locks the
 * rows whose histogram changes; the histograms (JSON) then read, added to, and written back per row. Each day
 * counts in its week and month by lane and by configuration and service (RollupGrain). Rows are taken in key
 * order, as the learner orders the daily rows: two writers never wait on each other in a cycle.
 */
async function applyRollups(db: Kysely<Database>, rows: readonly DailyDelta[], transits: readonly DailyTransitDelta[]): Promise<void> {
  const counted = new Map<string, Insertable<DeliveryRollupsTable>>();
  // A lane's configuration, carrier and service, from its daily row (else from its key).
  const carriers = new Map<string, CarrierParts>();
  for (const row of rows) carriers.set(row.lane_key, row);
  const carrierOf = (laneKey: string) => carriers.get(laneKey) ?? carrierPartsOfLane(laneKey);
  for (const row of rows) {
    const { day: _day, ...rest } = row;
    for (const { key, grain } of rollupKeysOf(row, row)) {
      const id = rollupId(key);
      const existing = counted.get(id) as Record<DailyCounter, number> | undefined;
      if (existing) for (const counter of DAILY_COUNTERS) existing[counter] += row[counter];
      else counted.set(id, { ...rest, ...(grain === 'carrier' ? carrierColumns(row) : {}), ...key, transits: '[]' });
    }
  }

  const changed = new Map<string, { key: RollupKey; histogram: RollupHistogram }>();
  for (const transit of transits) {
    const at = timingIndex(transit.timing);
    if (at < 0) continue;
    for (const { key } of rollupKeysOf(transit, carrierOf(transit.lane_key))) {
      const id = rollupId(key);
      let entry = changed.get(id);
      if (!entry) {
        entry = { key, histogram: new Map() };
        changed.set(id, entry);
      }
      const counts = entry.histogram.get(transit.transit) ?? [0, 0, 0, 0];
      counts[at] += transit.delta;
      entry.histogram.set(transit.transit, counts);
    }
  }
  const ordered = [...counted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const part of chunks(ordered, ROWS_PER_STATEMENT))
    await db
      .insertInto('delivery_rollups')
      .values(part.map(([, row]) => row))
      .onConflict((oc) =>
        oc.columns(['account_id', 'unit', 'start', 'lane_key']).doUpdateSet((eb) => {
          const set: Record<string, unknown> = {};
          for (const counter of DAILY_COUNTERS) set[counter] = eb(`delivery_rollups.${counter}`, '+', eb.ref(`excluded.${counter}`));
          return set;
        }),
      )
      .execute();
  if (changed.size === 0) return;
  // Rows whose histogram changes without their counters are locked by a write that changes nothing (the learner
  // passes the daily row of every transit's day, so its histograms' rows were all locked by the upsert).
  const unlocked = [...changed].filter(([id]) => !counted.has(id)).map(([, entry]) => entry.key);
  for (const keys of chunks(unlocked))
    await db
      .updateTable('delivery_rollups')
      .set((eb) => ({ transits: eb.ref('transits') }))
      .where(keyedBy(keys))
      .execute();

  const current = [];
  for (const keys of chunks([...changed.values()].map((entry) => entry.key)))
    current.push(
      ...(await db
        .selectFrom('delivery_rollups')
        .select(['account_id', 'unit', 'start', 'lane_key', 'transits'])
        .where(keyedBy(keys))
        .execute()),
    );
  const stored = new Map(current.map((row) => [rollupId({ ...row, account_id: Number(row.account_id) }), row.transits]));
  for (const [id, { key, histogram }] of [...changed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const text = stored.get(id);
    // The week and month of a day with transits were written with its counters: missing means the rollups
    // were not kept with the days, and adding to nothing would leave them wrong.
    if (text === undefined) throw new Error(`delivery_rollups has no row ${id} for a transit of its days`);
    const merged = parseRollupTransits(text);
    for (const [transit, counts] of histogram) {
      const sum = merged.get(transit) ?? [0, 0, 0, 0];
      for (let i = 0; i < 4; i++) sum[i] += counts[i];
      merged.set(transit, sum);
    }
    await db
      .updateTable('delivery_rollups')
      .set({ transits: formatRollupTransits(merged) })
      .where(keyedBy([key]))
      .execute();
  }
}

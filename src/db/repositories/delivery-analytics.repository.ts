import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, DeliveryDailyTable, DeliveryDailyTransitsTable, DeliveryRollupsTable } from '../schema.js';
import {
  type CarrierParts,
  carrierColumns,
  formatRollupTransits,
  type PeriodPart,
  periodParts,
  type RollupGrain,
  type RollupHistogram,
  type RollupUnit,
  rollupId,
  rollupKeysOf,
  storedUnit,
  timingIndex,
} from './delivery-rollup-units.js';

/**
 * What delivery analytics group the daily aggregates by, as columns of `delivery_daily`: the carrier
 * configuration, the lane, the destination country, or the day (the service folds days into weeks, so the
 * statement is the same on SQLite and PostgreSQL; read from the week rollups, a 'day' is the week's Monday).
 */
export type DeliveryDimension = 'carrier_reference' | 'lane_key' | 'destination_country' | 'day';

/** One account's daily aggregates over a period of acceptance days, optionally of one configuration and service. */
export interface DeliverySelection {
  accountId: number;
  /** First and last day, `YYYY-MM-DD`, inclusive. */
  from: string;
  to: string;
  carrierReference?: string;
  /** As lanes store it: trimmed and lower-cased ('' for shipments without a service). */
  shippingService?: string;
}

/** The parts of an analytics lane key, as `delivery_daily` keeps them beside it. */
export interface LaneParts {
  carrier_reference: string;
  carrier_id: string;
  shipping_service: string;
  origin_country: string;
  destination_country: string;
  destination_prefix: string;
}

export interface DeliveryCounts {
  shipments: number;
  accepted: number;
  first_attempts: number;
  first_attempt_successes: number;
  delivered: number;
  on_time: number;
  promised: number;
  exceptions: number;
  returned_to_sender: number;
}

/** The summed counts of one group: its value of each dimension, in the order asked. */
export interface DeliveryCountsGroup extends DeliveryCounts {
  key: string[];
  /** The lane's parts when the lane is one of the dimensions, else null. */
  lane: LaneParts | null;
}

/** First attempts of one group after `transit` working days, by timing against the original window. */
export interface DeliveryTransitGroup {
  key: string[];
  transit: number;
  early: number;
  on_time: number;
  late: number;
  none: number;
}

export const COUNT_COLUMNS = [
  'shipments',
  'accepted',
  'first_attempts',
  'first_attempt_successes',
  'delivered',
  'on_time',
  'promised',
  'exceptions',
  'returned_to_sender',
] as const satisfies ReadonlyArray<keyof DeliveryDailyTable>;

const LANE_PART_COLUMNS = [
  'carrier_reference',
  'carrier_id',
  'shipping_service',
  'origin_country',
  'destination_country',
  'destination_prefix',
] as const satisfies ReadonlyArray<keyof DeliveryDailyTable>;

const TIMINGS = ['early', 'on_time', 'late', 'none'] as const;

/** The sums of a selection: its counts per group and its transit histogram per group. */
export interface DeliverySums {
  counts: DeliveryCountsGroup[];
  transits: DeliveryTransitGroup[];
}

/** An inclusive run of days, `YYYY-MM-DD`. */
type DayRange = { from: string; to: string };

/** A run of whole rollup units (their first days from `first` to `last`); days only at the carrier grain. */
type RollupRun = { unit: RollupUnit | 'day'; first: string; last: string };

/**
 * By configuration or unit alone (the filters are configuration and service): the carrier-grain rows, one per
 * configuration, service and unit, hold the same sums as the lanes' rows, a twelfth as many of them here.
 */
function grainFor(dimensions: readonly DeliveryDimension[]): RollupGrain {
  return dimensions.every((column) => column === 'carrier_reference' || column === 'day') ? 'carrier' : 'lane';
}

/** Rows per multi-row insert: 18 columns × 500 stays well under both dialects' bound-parameter limits. */
const INSERT_CHUNK = 500;

/**
 * Reads of the delivery analytics aggregates (`delivery_daily`, `delivery_daily_transits`,
 * docs/delivery-intelligence.md "Analytics"): sums over one account's days, grouped in the database. Every
 * statement names the account, so no other account's rows are ever summed.
 */
export class DeliveryAnalyticsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The counts and transit histograms of the selection per group of `dimensions`: the whole months inside the
   * period (whole weeks when grouping by day, as months do not split into weeks) read from `delivery_rollups`,
   * then the whole weeks left at each end, and the days left after them: by configuration from their rollup
   * rows, by lane or country from the daily rows. A group may
   * come more than once (once per source): the caller adds them up.
   */
  async sumsBy(selection: DeliverySelection, dimensions: DeliveryDimension[]): Promise<DeliverySums> {
    const units: readonly RollupUnit[] = dimensions.includes('day') ? ['week'] : ['month', 'week'];
    const parts = periodParts(selection.from, selection.to, units);
    const grain = grainFor(dimensions);
    // By configuration, the days at the ends are rollup rows too.
    const rolledDays = grain === 'carrier';
    const days = rolledDays ? [] : parts.filter((part): part is Extract<PeriodPart, { unit: 'day' }> => part.unit === 'day');
    const runs = parts.flatMap((part): RollupRun[] =>
      part.unit !== 'day' ? [part] : rolledDays ? [{ unit: 'day', first: part.from, last: part.to }] : [],
    );
    // One statement per run of days: a range each reads from the key, where ranges joined by OR scan the account.
    const [rolled, ...daily] = await Promise.all([
      runs.length > 0 ? this.rolledUp(selection, runs, dimensions, grain) : { counts: [], transits: [] },
      ...days.map(async (range) => ({
        counts: await this.dailyCounts(selection, range, dimensions),
        transits: await this.dailyTransits(selection, range, dimensions),
      })),
    ]);
    return {
      counts: [...rolled.counts, ...daily.flatMap((part) => part.counts)],
      transits: [...rolled.transits, ...daily.flatMap((part) => part.transits)],
    };
  }

  /** The counts of the selection from its daily rows alone, summed per group of `dimensions` (at least one). */
  countsBy(selection: DeliverySelection, dimensions: DeliveryDimension[]): Promise<DeliveryCountsGroup[]> {
    return this.dailyCounts(selection, selection, dimensions);
  }

  /** The transit histogram of the selection from its daily rows alone, per group of `dimensions`. */
  transitsBy(selection: DeliverySelection, dimensions: DeliveryDimension[]): Promise<DeliveryTransitGroup[]> {
    return this.dailyTransits(selection, selection, dimensions);
  }

  /** The rollup rows of `runs` summed per group: a year is a few thousand rows, their histograms JSON texts. */
  private async rolledUp(
    selection: DeliverySelection,
    runs: RollupRun[],
    dimensions: DeliveryDimension[],
    grain: RollupGrain,
  ): Promise<DeliverySums> {
    const withLane = dimensions.includes('lane_key');
    const groupColumns = withLane ? [...new Set([...dimensions, ...LANE_PART_COLUMNS])] : dimensions;
    // 'day' is the unit's first day in a rollup row.
    const columnOf = (column: DeliveryDimension | (typeof LANE_PART_COLUMNS)[number]) => (column === 'day' ? 'start' : column);
    let query = this.db
      .selectFrom('delivery_rollups as r')
      .where('r.account_id', '=', selection.accountId)
      .where((eb) =>
        eb.or(
          runs.map((run) =>
            eb.and([eb('r.unit', '=', storedUnit(run.unit, grain)), eb('r.start', '>=', run.first), eb('r.start', '<=', run.last)]),
          ),
        ),
      );
    if (selection.carrierReference !== undefined) query = query.where('r.carrier_reference', '=', selection.carrierReference);
    if (selection.shippingService !== undefined) query = query.where('r.shipping_service', '=', selection.shippingService);
    // Summed in the database, the histograms of a group joined into one JSON text parsed at once: a year of
    // weeks by lane is thousands of rows, each read and parsed on its own costs more than the sums.
    const rows = await query
      .select(groupColumns.map((column, i) => sql.ref<string>(`r.${columnOf(column)}`).as(`g${i}`)))
      .select(COUNT_COLUMNS.map((column) => sql<number>`sum(${sql.ref(`r.${column}`)})`.as(column)))
      .select(sql<string>`string_agg(${sql.ref('r.transits')}, ',')`.as('transits'))
      .groupBy(groupColumns.map((column) => `r.${columnOf(column)}` as const))
      .execute();

    const counts: DeliveryCountsGroup[] = [];
    const transits: DeliveryTransitGroup[] = [];
    for (const row of rows as unknown as Array<Record<string, string | number>>) {
      const group = (column: DeliveryDimension | (typeof LANE_PART_COLUMNS)[number]) => String(row[`g${groupColumns.indexOf(column)}`]);
      const key = dimensions.map(group);
      const lane = withLane
        ? (Object.fromEntries(LANE_PART_COLUMNS.map((column) => [column, group(column)])) as unknown as LaneParts)
        : null;
      counts.push({
        key,
        lane,
        ...(Object.fromEntries(COUNT_COLUMNS.map((column) => [column, Number(row[column])])) as unknown as DeliveryCounts),
      });
      const histogram: RollupHistogram = new Map();
      for (const bins of JSON.parse(`[${row.transits}]`) as number[][][])
        for (const [transit, early, onTime, late, none] of bins) {
          const sum = histogram.get(transit);
          if (sum) {
            sum[0] += early;
            sum[1] += onTime;
            sum[2] += late;
            sum[3] += none;
          } else histogram.set(transit, [early, onTime, late, none]);
        }
      for (const [transit, [early, on_time, late, none]] of histogram) transits.push({ key, transit, early, on_time, late, none });
    }
    return { counts, transits };
  }

  /** The counts of the selection's rows on `days`, summed per group of `dimensions` (at least one). */
  private async dailyCounts(selection: DeliverySelection, days: DayRange, dimensions: DeliveryDimension[]): Promise<DeliveryCountsGroup[]> {
    const withLane = dimensions.includes('lane_key');
    // A lane's parts depend on its key alone: grouping by them too groups nothing further.
    const groupColumns = withLane ? [...new Set([...dimensions, ...LANE_PART_COLUMNS])] : dimensions;
    const rows = await this.selected(selection, days)
      .select(groupColumns.map((column, i) => sql.ref<string>(`d.${column}`).as(`g${i}`)))
      .select(COUNT_COLUMNS.map((column) => sql<number>`sum(${sql.ref(`d.${column}`)})`.as(column)))
      .groupBy(groupColumns.map((column) => `d.${column}` as const))
      .execute();
    return rows.map((row) => {
      const values = row as unknown as Record<string, string | number>;
      const group = (column: DeliveryDimension | (typeof LANE_PART_COLUMNS)[number]) => String(values[`g${groupColumns.indexOf(column)}`]);
      const counts = Object.fromEntries(COUNT_COLUMNS.map((column) => [column, Number(values[column])])) as unknown as DeliveryCounts;
      return {
        key: dimensions.map(group),
        lane: withLane ? (Object.fromEntries(LANE_PART_COLUMNS.map((column) => [column, group(column)])) as unknown as LaneParts) : null,
        ...counts,
      };
    });
  }

  /** The transit histogram of the selection's rows on `days` per group of `dimensions`, by timing against the original window. */
  private async dailyTransits(
    selection: DeliverySelection,
    days: DayRange,
    dimensions: DeliveryDimension[],
  ): Promise<DeliveryTransitGroup[]> {
    // Two reads of a key range each, joined here: a join in the database is planned from statistics, and
    // PostgreSQL's plans for it ranged from hashing every histogram row of the account to a nested loop over all
    // of them, where the days at a period's ends hold a few thousand.
    const [dayRows, bins] = await Promise.all([
      this.selected(selection, days)
        .select(['d.day', 'd.lane_key'])
        .select(dimensions.map((column, i) => sql.ref<string>(`d.${column}`).as(`g${i}`)))
        .execute(),
      this.db
        .selectFrom('delivery_daily_transits')
        .select(['day', 'lane_key', 'transit', 'timing', 'shipments'])
        .where('account_id', '=', selection.accountId)
        .where('day', '>=', days.from)
        .where('day', '<=', days.to)
        .execute(),
    ]);
    const keyOf = new Map<string, string[]>();
    for (const row of dayRows as unknown as Array<Record<string, string>>)
      keyOf.set(
        `${row.day}\u0000${row.lane_key}`,
        dimensions.map((_, i) => String(row[`g${i}`])),
      );
    const groups = new Map<string, DeliveryTransitGroup>();
    for (const bin of bins) {
      const key = keyOf.get(`${bin.day}\u0000${bin.lane_key}`);
      const at = TIMINGS.indexOf(bin.timing as (typeof TIMINGS)[number]);
      // A histogram row of a day not selected (another configuration or service) or of no known timing.
      if (!key || at < 0) continue;
      const id = JSON.stringify([key, Number(bin.transit)]);
      let group = groups.get(id);
      if (!group) {
        group = { key, transit: Number(bin.transit), early: 0, on_time: 0, late: 0, none: 0 };
        groups.set(id, group);
      }
      group[TIMINGS[at]] += Number(bin.shipments);
    }
    return [...groups.values()];
  }

  /**
   * Inserts daily rows and their transit histograms as they are, and the week and month rollups summed from
   * them (no row of those days, weeks or months may exist yet): test set-up and benchmarks, before the learner
   * writes them. Call it in a transaction for speed.
   */
  async insertDaily(days: Insertable<DeliveryDailyTable>[], transits: Insertable<DeliveryDailyTransitsTable>[] = []): Promise<void> {
    for (let i = 0; i < days.length; i += INSERT_CHUNK) {
      await this.db
        .insertInto('delivery_daily')
        .values(days.slice(i, i + INSERT_CHUNK))
        .execute();
    }
    for (let i = 0; i < transits.length; i += INSERT_CHUNK) {
      await this.db
        .insertInto('delivery_daily_transits')
        .values(transits.slice(i, i + INSERT_CHUNK))
        .execute();
    }
    const rollups = rollupsOf(days, transits);
    for (let i = 0; i < rollups.length; i += INSERT_CHUNK) {
      await this.db
        .insertInto('delivery_rollups')
        .values(rollups.slice(i, i + INSERT_CHUNK))
        .execute();
    }
  }

  /** The daily rows of the selection on `days`, read from the (account_id, day, lane_key) key. */
  private selected(selection: DeliverySelection, days: DayRange) {
    let query = this.db
      .selectFrom('delivery_daily as d')
      .where('d.account_id', '=', selection.accountId)
      .where('d.day', '>=', days.from)
      .where('d.day', '<=', days.to);
    if (selection.carrierReference !== undefined) query = query.where('d.carrier_reference', '=', selection.carrierReference);
    if (selection.shippingService !== undefined) query = query.where('d.shipping_service', '=', selection.shippingService);
    return query;
  }
}

/** The week and month rows (both grains) of `days` and their `transits`, as `applyDaily` would have left them. */
function rollupsOf(
  days: Insertable<DeliveryDailyTable>[],
  transits: Insertable<DeliveryDailyTransitsTable>[],
): Insertable<DeliveryRollupsTable>[] {
  const rollups = new Map<string, { row: Insertable<DeliveryRollupsTable>; histogram: RollupHistogram }>();
  const carriers = new Map<string, CarrierParts>();
  for (const day of days) {
    const { day: _date, ...rest } = day;
    carriers.set(day.lane_key, day);
    for (const { key, grain } of rollupKeysOf(day, day)) {
      const id = rollupId(key);
      const existing = rollups.get(id);
      if (existing) {
        const sums = existing.row as unknown as Record<string, number>;
        for (const column of COUNT_COLUMNS) sums[column] += Number(day[column]);
      } else {
        const counts = Object.fromEntries(COUNT_COLUMNS.map((column) => [column, Number(day[column])]));
        const lane = grain === 'carrier' ? carrierColumns(day) : {};
        rollups.set(id, { row: { ...rest, ...lane, ...counts, ...key, transits: '[]' }, histogram: new Map() });
      }
    }
  }
  for (const transit of transits) {
    const at = timingIndex(transit.timing);
    const carrier = carriers.get(transit.lane_key);
    // A histogram without its daily row is read by no query: the rollups leave it out too.
    if (at < 0 || !carrier) continue;
    for (const { key } of rollupKeysOf(transit, carrier)) {
      const rollup = rollups.get(rollupId(key));
      if (!rollup) continue;
      const counts = rollup.histogram.get(transit.transit) ?? [0, 0, 0, 0];
      counts[at] += transit.shipments;
      rollup.histogram.set(transit.transit, counts);
    }
  }
  return [...rollups.values()].map(({ row, histogram }) => ({ ...row, transits: formatRollupTransits(histogram) }));
}

import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, DeliveryDailyTable, DeliveryDailyTransitsTable } from '../schema.js';

/**
 * What delivery analytics group the daily aggregates by, as columns of `delivery_daily`: the carrier
 * configuration, the lane, the destination country, or the day (the service folds days into weeks, so the
 * statement is the same on SQLite and PostgreSQL).
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

/** Rows per multi-row insert: 18 columns × 500 stays well under both dialects' bound-parameter limits. */
const INSERT_CHUNK = 500;

/**
 * Reads of the delivery analytics aggregates (`delivery_daily`, `delivery_daily_transits`,
 * docs/delivery-intelligence.md "Analytics"): sums over one account's days, grouped in the database. Every
 * statement names the account, so no other account's rows are ever summed.
 */
export class DeliveryAnalyticsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The counts of the selection, summed per group of `dimensions` (at least one). */
  async countsBy(selection: DeliverySelection, dimensions: DeliveryDimension[]): Promise<DeliveryCountsGroup[]> {
    const withLane = dimensions.includes('lane_key');
    // A lane's parts depend on its key alone: grouping by them too groups nothing further.
    const groupColumns = withLane ? [...new Set([...dimensions, ...LANE_PART_COLUMNS])] : dimensions;
    const rows = await this.selected(selection)
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

  /** The transit histogram of the selection per group of `dimensions`, by timing against the original window. */
  async transitsBy(selection: DeliverySelection, dimensions: DeliveryDimension[]): Promise<DeliveryTransitGroup[]> {
    const rows = await this.selected(selection)
      .innerJoin('delivery_daily_transits as t', (join) =>
        join.onRef('t.account_id', '=', 'd.account_id').onRef('t.day', '=', 'd.day').onRef('t.lane_key', '=', 'd.lane_key'),
      )
      .select(dimensions.map((column, i) => sql.ref<string>(`d.${column}`).as(`g${i}`)))
      .select('t.transit')
      .select(
        TIMINGS.map((timing) =>
          sql<number>`sum(case when ${sql.ref('t.timing')} = ${timing} then ${sql.ref('t.shipments')} else 0 end)`.as(`n_${timing}`),
        ),
      )
      .groupBy([...dimensions.map((column) => `d.${column}` as const), 't.transit'])
      .execute();
    return rows.map((row) => {
      const values = row as unknown as Record<string, string | number>;
      return {
        key: dimensions.map((_, i) => String(values[`g${i}`])),
        transit: Number(values.transit),
        early: Number(values.n_early),
        on_time: Number(values.n_on_time),
        late: Number(values.n_late),
        none: Number(values.n_none),
      };
    });
  }

  /**
   * Inserts daily rows and their transit histograms as they are (no row may exist yet): test set-up and
   * benchmarks, before the learner writes them. Call it in a transaction for speed.
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
  }

  /** The daily rows of the selection, read from the (account_id, day, lane_key) key. */
  private selected(selection: DeliverySelection) {
    let query = this.db
      .selectFrom('delivery_daily as d')
      .where('d.account_id', '=', selection.accountId)
      .where('d.day', '>=', selection.from)
      .where('d.day', '<=', selection.to);
    if (selection.carrierReference !== undefined) query = query.where('d.carrier_reference', '=', selection.carrierReference);
    if (selection.shippingService !== undefined) query = query.where('d.shipping_service', '=', selection.shippingService);
    return query;
  }
}

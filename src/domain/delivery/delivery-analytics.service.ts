import { mondayOf } from '../../core/calendar-date.js';
import type {
  DeliveryCounts,
  DeliveryDimension,
  DeliverySelection,
  LaneParts,
} from '../../db/repositories/delivery-analytics.repository.js';

import { COUNT_COLUMNS } from '../../db/repositories/delivery-analytics.repository.js';
import type { Repositories } from '../../db/repositories/index.js';
import { FieldErrorCollector } from '../errors.js';
import type { AnalyticsGroup, AnalyticsQuery, AnalyticsRow, TransitSummary } from './analytics.types.js';

export type { LaneParts } from '../../db/repositories/delivery-analytics.repository.js';

/** The longest period one query sums: a leap year, so that "the last twelve months" always fits. */
export const MAX_PERIOD_DAYS = 366;

/** The column of `delivery_daily` each dimension is read from; weeks are read by day and folded here. */
const COLUMN_OF: Record<AnalyticsGroup, DeliveryDimension> = {
  carrier: 'carrier_reference',
  lane: 'lane_key',
  destination_country: 'destination_country',
  week: 'day',
};

export const ANALYTICS_GROUPS = Object.keys(COLUMN_OF) as AnalyticsGroup[];

/** The rows of a query, and the parts of each lane they name when grouped by lane. */
export interface DeliveryPerformance {
  rows: AnalyticsRow[];
  /** By lane key; empty unless `groupBy` has `lane`. */
  lanes: ReadonlyMap<string, LaneParts>;
}

const DAY_MS = 86_400_000;

/** The day number of a real calendar date `YYYY-MM-DD`, or null (2025-02-30 is not one). */
function dayNumberOf(date: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const time = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== date) return null;
  return time / DAY_MS;
}

/**
 * Median, 90th percentile and mean of a transit histogram: the median is the smallest transit whose cumulative
 * share reaches one half, the 90th percentile likewise 0.9; the mean is rounded to 2 decimals. All null
 * without a sample. `histogram` is sorted by transit.
 */
export function summarizeTransits(histogram: Array<{ transit: number; shipments: number }>): TransitSummary {
  const total = histogram.reduce((sum, bin) => sum + bin.shipments, 0);
  if (total === 0) return { median: null, p90: null, mean: null };
  let median: number | null = null;
  let p90: number | null = null;
  let cumulative = 0;
  let weighted = 0;
  for (const bin of histogram) {
    cumulative += bin.shipments;
    weighted += bin.transit * bin.shipments;
    // In whole numbers: a share compared as a fraction of `total` would round.
    if (median === null && cumulative * 2 >= total) median = bin.transit;
    if (p90 === null && cumulative * 10 >= total * 9) p90 = bin.transit;
  }
  return { median, p90, mean: Math.round((weighted / total) * 100) / 100 };
}

const rate = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

/** Keys compared value by value, by code unit: dates, codes and references sort as written. */
function compareKeys(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

interface Bucket {
  key: string[];
  counts: DeliveryCounts;
  transits: Map<number, { transit: number; early: number; on_time: number; late: number; none: number }>;
}

/**
 * Delivery analytics of one account (docs/delivery-intelligence.md, "Analytics"): the daily aggregates the
 * learner keeps and their week and month rollups, summed over a period of acceptance days and grouped by carrier configuration, lane,
 * destination country or week, with the rates and transit percentiles worked out from the sums. The HTTP
 * route and the console's Analytics page both ask it, so the period's rules are checked here.
 */
export class DeliveryAnalyticsService {
  constructor(private readonly repos: Repositories) {}

  /** The rows of `query`, sorted by key. */
  async rows(accountId: number, query: AnalyticsQuery): Promise<AnalyticsRow[]> {
    return (await this.performance(accountId, query)).rows;
  }

  /** The rows of `query`, sorted by key, with the parts of the lanes they name. Throws ValidationError. */
  async performance(accountId: number, query: AnalyticsQuery): Promise<DeliveryPerformance> {
    checkQuery(query);
    const dimensions = query.groupBy.map((group) => COLUMN_OF[group]);
    const selection: DeliverySelection = {
      accountId,
      from: query.from,
      to: query.to,
      carrierReference: query.carrierReference,
      // Lanes keep the service trimmed and lower-cased (lane.ts), so the filter is read the same way.
      shippingService: query.shippingService?.trim().toLowerCase(),
    };
    // Whole weeks and months from their rollups, the days at the ends from the daily rows: a group may come
    // from several of them, and the buckets below add them up.
    const { counts, transits } = await this.repos.deliveryAnalytics.sumsBy(selection, dimensions);
    const weekAt = query.groupBy.indexOf('week');
    const keyOf = weekAt < 0 ? (key: string[]) => key : (key: string[]) => key.map((value, i) => (i === weekAt ? mondayOf(value) : value));

    const buckets = new Map<string, Bucket>();
    const bucketOf = (rawKey: string[]): Bucket => {
      const key = keyOf(rawKey);
      // A key value may hold any character: JSON keeps the values apart.
      const id = JSON.stringify(key);
      let bucket = buckets.get(id);
      if (!bucket) {
        const zero = Object.fromEntries(COUNT_COLUMNS.map((column) => [column, 0])) as unknown as DeliveryCounts;
        bucket = { key, counts: zero, transits: new Map() };
        buckets.set(id, bucket);
      }
      return bucket;
    };
    const lanes = new Map<string, LaneParts>();
    const laneAt = query.groupBy.indexOf('lane');
    for (const group of counts) {
      const bucket = bucketOf(group.key);
      for (const column of COUNT_COLUMNS) bucket.counts[column] += group[column];
      if (laneAt >= 0 && group.lane) lanes.set(group.key[laneAt], group.lane);
    }
    for (const group of transits) {
      const bins = bucketOf(group.key).transits;
      const bin = bins.get(group.transit) ?? { transit: group.transit, early: 0, on_time: 0, late: 0, none: 0 };
      bin.early += group.early;
      bin.on_time += group.on_time;
      bin.late += group.late;
      bin.none += group.none;
      bins.set(group.transit, bin);
    }

    // A group whose shipments all moved elsewhere (another lane, a deleted simulated history) has no row.
    const held = [...buckets.values()].filter(({ counts: c }) => COUNT_COLUMNS.some((column) => c[column] !== 0));
    const rows = held.map(({ key, counts: c, transits: bins }): AnalyticsRow => {
      // A transit whose shipments all moved elsewhere says nothing: left out, whether its zeros are kept by day
      // or not in a rollup.
      const histogram = [...bins.values()]
        .filter((bin) => bin.early !== 0 || bin.on_time !== 0 || bin.late !== 0 || bin.none !== 0)
        .sort((a, b) => a.transit - b.transit);
      return {
        key,
        shipments: c.shipments,
        accepted: c.accepted,
        first_attempts: c.first_attempts,
        delivered: c.delivered,
        first_attempt_success_rate: rate(c.first_attempt_successes, c.first_attempts),
        on_time_rate: rate(c.on_time, c.promised),
        transit_working_days: summarizeTransits(
          histogram.map((bin) => ({ transit: bin.transit, shipments: bin.early + bin.on_time + bin.late + bin.none })),
        ),
        exceptions: c.exceptions,
        returned_to_sender: c.returned_to_sender,
        transits: histogram,
      };
    });
    rows.sort((a, b) => compareKeys(a.key, b.key));
    return { rows, lanes };
  }
}

/** Real dates, `from` ≤ `to`, at most MAX_PERIOD_DAYS days; one or more known dimensions, each once. */
function checkQuery(query: AnalyticsQuery): void {
  const errors = new FieldErrorCollector();
  const from = dayNumberOf(query.from);
  const to = dayNumberOf(query.to);
  if (from === null) errors.add(['from'], 'Enter a real date as YYYY-MM-DD.');
  if (to === null) errors.add(['to'], 'Enter a real date as YYYY-MM-DD.');
  if (from !== null && to !== null) {
    if (to < from) errors.add(['to'], 'Must not be before from.');
    else if (to - from + 1 > MAX_PERIOD_DAYS) errors.add(['to'], `The period is at most ${MAX_PERIOD_DAYS} days, from and to included.`);
  }
  if (query.groupBy.length === 0) errors.add(['group_by'], 'Name at least one dimension.');
  else if (new Set(query.groupBy).size !== query.groupBy.length || query.groupBy.some((group) => !Object.hasOwn(COLUMN_OF, group)))
    errors.add(['group_by'], `Name each of ${ANALYTICS_GROUPS.join(', ')} at most once.`);
  errors.throwIfAny();
}

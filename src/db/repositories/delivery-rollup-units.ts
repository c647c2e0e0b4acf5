/**
 * The coarse units delivery analytics are rolled up by beside the daily rows (`delivery_rollups`,
 * docs/delivery-intelligence.md "Analytics"): ISO weeks (Monday to Sunday, named by their Monday) and calendar
 * months (named by their first day). A period is answered from the whole units inside it and the daily rows of
 * what is left at its ends, so a year reads a few thousand rows whatever its traffic.
 */

import { dateOfDay, dayNumber, dayNumberOf, mondayOf } from '../../core/calendar-date.js';

export type RollupUnit = 'week' | 'month';

export const ROLLUP_UNITS: readonly RollupUnit[] = ['week', 'month'];

/**
 * What a rollup row sums over besides its unit: a lane (`lane`, the row's `lane_key` is the daily rows'), or a
 * carrier configuration and service across its lanes (`carrier`: a year by week or by carrier reads a row per
 * configuration and service and week, not one per lane). Stored in `unit` as `week`, `month`, `carrier_day`,
 * `carrier_week`, `carrier_month`: the carrier grain has days too, so that the days at a period's ends are read
 * there as well and not from the lanes' daily rows.
 */
export type RollupGrain = 'lane' | 'carrier';

export const ROLLUP_GRAINS: readonly RollupGrain[] = ['lane', 'carrier'];

/** The units kept at a grain (the lanes' days are `delivery_daily` itself). */
export const GRAIN_UNITS: Readonly<Record<RollupGrain, ReadonlyArray<RollupUnit | 'day'>>> = {
  lane: ROLLUP_UNITS,
  carrier: ['day', ...ROLLUP_UNITS],
};

/** `delivery_rollups.unit` of a unit at a grain. */
export function storedUnit(unit: RollupUnit | 'day', grain: RollupGrain): string {
  return grain === 'lane' ? unit : `carrier_${unit}`;
}

/** The lane parts a carrier-grain row keeps (the others are ''). */
export interface CarrierParts {
  carrier_reference: string;
  carrier_id: string;
  shipping_service: string;
}

/** The `lane_key` of a carrier-grain row: its configuration, carrier and service as a JSON array. */
export function carrierKeyOf(parts: CarrierParts): string {
  return JSON.stringify([parts.carrier_reference, parts.carrier_id, parts.shipping_service]);
}

/** The key of a `delivery_rollups` row (`unit` as stored: storedUnit). */
export interface RollupKey {
  account_id: number;
  unit: string;
  start: string;
  lane_key: string;
}

export const rollupId = (key: RollupKey): string => JSON.stringify([key.account_id, key.unit, key.start, key.lane_key]);

/**
 * The rollup rows a lane's day counts in: its week and month at each grain, and its day by configuration. `carrier` is the lane's configuration,
 * carrier and service.
 */
export function rollupKeysOf(
  day: { account_id: number; day: string; lane_key: string },
  carrier: CarrierParts,
): Array<{ key: RollupKey; grain: RollupGrain }> {
  const keys: Array<{ key: RollupKey; grain: RollupGrain }> = [];
  for (const grain of ROLLUP_GRAINS) {
    const laneKey = grain === 'lane' ? day.lane_key : carrierKeyOf(carrier);
    for (const unit of GRAIN_UNITS[grain])
      keys.push({
        grain,
        key: { account_id: day.account_id, unit: storedUnit(unit, grain), start: unitStartOf(unit, day.day), lane_key: laneKey },
      });
  }
  return keys;
}

/** The lane columns of a carrier-grain row: its configuration, carrier and service; no countries or prefix. */
export function carrierColumns(
  carrier: CarrierParts,
): CarrierParts & { origin_country: ''; destination_country: ''; destination_prefix: '' } {
  return {
    carrier_reference: carrier.carrier_reference,
    carrier_id: carrier.carrier_id,
    shipping_service: carrier.shipping_service,
    origin_country: '',
    destination_country: '',
    destination_prefix: '',
  };
}

/** The carrier parts of an analytics lane key (`["reference","carrier","service",…]`, src/domain/delivery/lane.ts). */
export function carrierPartsOfLane(laneKey: string): CarrierParts {
  const parts = JSON.parse(laneKey) as unknown;
  if (!Array.isArray(parts) || parts.length < 3 || !parts.slice(0, 3).every((part) => typeof part === 'string'))
    throw new Error(`not an analytics lane key: ${laneKey}`);
  return { carrier_reference: parts[0], carrier_id: parts[1], shipping_service: parts[2] };
}

const dateOf = dateOfDay;
/** 0 for Monday … 6 for Sunday. */
const weekdayOf = (day: number): number => (((day + 3) % 7) + 7) % 7;

/** The first day of the unit that holds `date` (`YYYY-MM-DD`). */
export function unitStartOf(unit: RollupUnit | 'day', date: string): string {
  if (unit === 'day') return date;
  return unit === 'month' ? `${date.slice(0, 8)}01` : mondayOf(date);
}

/** The day number of the first day of the month of `date` (`YYYY-MM-DD`). */
function monthStartOf(date: string): number {
  return dayNumberOf(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 1);
}

/** The day number of the first day of the month after the one of `date`. */
function monthStartAfter(date: string): number {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return month === 12 ? dayNumberOf(year + 1, 1, 1) : dayNumberOf(year, month + 1, 1);
}

/** A run of whole units (their first days from `first` to `last`), or of days (`from` to `to`), inclusive. */
export type PeriodPart = { unit: RollupUnit; first: string; last: string } | { unit: 'day'; from: string; to: string };

/**
 * `from`..`to` (inclusive) cut into runs that together hold each of its days once: the whole units of the
 * coarsest of `units` inside it, then, at each end, the whole units of the next coarser, and days for the rest.
 * `units` lists the units allowed, coarsest first (months cannot answer by week, so grouping by week allows weeks only).
 */
export function periodParts(from: string, to: string, units: readonly RollupUnit[]): PeriodPart[] {
  const [unit, ...finer] = units;
  if (unit === undefined) return from <= to ? [{ unit: 'day', from, to }] : [];
  const start = dayNumber(from);
  const end = dayNumber(to);
  let first: number;
  let lastEnd: number;
  if (unit === 'week') {
    first = start + ((7 - weekdayOf(start)) % 7);
    lastEnd = end - ((weekdayOf(end) + 1) % 7);
  } else {
    // By year and month, not through dates of the months after: the one after December 9999 has no `YYYY-MM-DD`.
    first = from.endsWith('-01') ? start : monthStartAfter(from);
    lastEnd = monthStartAfter(to) - 1 === end ? end : monthStartOf(to) - 1;
  }
  if (lastEnd < first) return periodParts(from, to, finer);
  const last = unitStartOf(unit, dateOf(lastEnd));
  return [
    ...(first > start ? periodParts(from, dateOf(first - 1), finer) : []),
    { unit, first: dateOf(first), last },
    ...(lastEnd < end ? periodParts(dateOf(lastEnd + 1), to, finer) : []),
  ];
}

/** The timings a rollup's histogram counts, in the order of its JSON entries after the transit. */
export const ROLLUP_TIMINGS = ['early', 'on_time', 'late', 'none'] as const;
export type RollupTiming = (typeof ROLLUP_TIMINGS)[number];

/** A rollup's transit histogram: per transit, the shipments of each timing in ROLLUP_TIMINGS order. */
export type RollupHistogram = Map<number, [number, number, number, number]>;

/** Reads `delivery_rollups.transits`: `[[transit, early, on_time, late, none], …]`. */
export function parseRollupTransits(text: string): RollupHistogram {
  const histogram: RollupHistogram = new Map();
  for (const [transit, early, onTime, late, none] of JSON.parse(text) as number[][]) histogram.set(transit, [early, onTime, late, none]);
  return histogram;
}

/** Writes `delivery_rollups.transits`, sorted by transit, leaving out transits counted nowhere. */
export function formatRollupTransits(histogram: RollupHistogram): string {
  const bins = [...histogram].filter(([, counts]) => counts.some((n) => n !== 0)).sort(([a], [b]) => a - b);
  return JSON.stringify(bins.map(([transit, counts]) => [transit, ...counts]));
}

/** The index of `timing` in a histogram entry's counts, or -1 for none of ROLLUP_TIMINGS (counted nowhere, as by day). */
export function timingIndex(timing: string): number {
  return ROLLUP_TIMINGS.indexOf(timing as RollupTiming);
}

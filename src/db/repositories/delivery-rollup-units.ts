/**
 * The coarse units delivery analytics are rolled up by beside the daily rows (`delivery_rollups`,
 * docs/delivery-intelligence.md "Analytics"): ISO weeks (Monday to Sunday, named by their Monday) and calendar
 * months (named by their first day). A period is answered from the whole units inside it and the daily rows of
 * what is left at its ends, so a year reads a few thousand rows whatever its traffic.
 */

import { dateOfDay, dayNumber, mondayOf } from '../../core/calendar-date.js';

export type RollupUnit = 'week' | 'month';

export const ROLLUP_UNITS: readonly RollupUnit[] = ['week', 'month'];

const dateOf = dateOfDay;
/** 0 for Monday … 6 for Sunday. */
const weekdayOf = (day: number): number => (((day + 3) % 7) + 7) % 7;

/** The first day of the unit that holds `date` (`YYYY-MM-DD`). */
export function unitStartOf(unit: RollupUnit, date: string): string {
  return unit === 'month' ? `${date.slice(0, 8)}01` : mondayOf(date);
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
    first = from.endsWith('-01') ? start : dayNumber(unitStartOf('month', dateOf(dayNumber(unitStartOf('month', from)) + 32)));
    lastEnd = dayNumber(unitStartOf('month', dateOf(end + 1))) - 1;
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

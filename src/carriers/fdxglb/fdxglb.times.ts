import { parseEventTime } from '../../core/event-time.js';
import type { ExpectedDelivery } from '../carrier.js';
import { fromIsoLike } from '../sdk/times.js';
import type { FedexDateAndTime, FedexTimeRange, FedexTimeWindow, FedexTrackResult } from './fdxglb.payload.js';

/**
 * FedEx times: ISO 8601, normally with the local offset of the scan (`2026-11-03T09:12:00-05:00`). Some
 * windows carry an offset on one end only (`begins` without, `ends` with), and dates that FedEx documents as
 * `YYYY-MM-DD` sometimes arrive as midnight date-times.
 */

const OFFSET = /(Z|[+-]\d{2}:\d{2})$/;

/** A FedEx time text made strict for `parseEventTime`; null when it is not a time. */
export function fedexTime(value: unknown): string | null {
  return typeof value === 'string' ? fromIsoLike(value) : null;
}

/** True when the text states its own offset. */
export function hasOffset(time: string): boolean {
  return time.includes('T') && OFFSET.test(time);
}

/** A date-time at exactly midnight without a real time of day becomes the date it stands for. */
function dayOf(time: string): string {
  return /T00:00:00(\.0+)?(Z|[+-]\d{2}:\d{2})?$/.test(time) ? time.slice(0, 10) : time;
}

/** `begins`/`ends` → a window; an end without offset borrows the other end's (both ends are at the same place). */
function windowOf(range: FedexTimeRange | null | undefined): ExpectedDelivery | undefined {
  if (!range || typeof range !== 'object') return undefined;
  let from = fedexTime(range.begins);
  let to = fedexTime(range.ends);
  if (from && to && from.includes('T') && to.includes('T')) {
    if (!hasOffset(from) && hasOffset(to)) from += (OFFSET.exec(to) as RegExpExecArray)[1];
    if (!hasOffset(to) && hasOffset(from)) to += (OFFSET.exec(from) as RegExpExecArray)[1];
  }
  from ??= to;
  to ??= from;
  return from && to ? { from, to } : undefined;
}

function windowOfTimeWindow(window: FedexTimeWindow | null | undefined): ExpectedDelivery | undefined {
  return window && typeof window === 'object' ? windowOf(window.window) : undefined;
}

/** The first `dateAndTimes` entry of a type, as a time text. */
export function dateOfType(result: FedexTrackResult, type: string): string | null {
  if (!Array.isArray(result.dateAndTimes)) return null;
  for (const entry of result.dateAndTimes as FedexDateAndTime[]) {
    if (entry && typeof entry === 'object' && entry.type === type) {
      const time = fedexTime(entry.dateTime);
      if (time) return time;
    }
  }
  return null;
}

/** A window both of whose ends parse and which does not end before it starts; else undefined. */
function usable(window: ExpectedDelivery | undefined): ExpectedDelivery | undefined {
  if (!window) return undefined;
  const from = parseEventTime(window.from);
  const to = parseEventTime(window.to);
  if (!from.ok || !to.ok || to.time.utc < from.time.utc) return undefined;
  return window;
}

/**
 * The expected delivery FedEx states, most precise first: the estimated delivery time window, the
 * ESTIMATED_DELIVERY date, then the standard transit window. Undefined when none is usable.
 */
export function expectedDeliveryOf(result: FedexTrackResult): ExpectedDelivery | undefined {
  const estimated = usable(windowOfTimeWindow(result.estimatedDeliveryTimeWindow));
  if (estimated) return estimated;
  const date = dateOfType(result, 'ESTIMATED_DELIVERY');
  const day = date ? usable({ from: dayOf(date), to: dayOf(date) }) : undefined;
  if (day) return day;
  return usable(windowOfTimeWindow(result.standardTransitTimeWindow));
}

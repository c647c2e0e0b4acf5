import type { ExpectedDelivery } from '../carrier.js';
import { composeDateTime, normalizeOffset } from '../sdk/times.js';
import type { UpsActivity, UpsPackage } from './upsglb.payload.js';

/**
 * UPS's times: an activity's local `date` (`YYYYMMDD`) and `time` (`HHMMSS`) with `gmtOffset` (`-05:00`),
 * and sometimes `gmtDate`/`gmtTime` (UTC) beside them; delivery dates and windows are local to the
 * destination and carry no offset at all.
 */

/** An event time as `parseEventTime` reads it, and the zone that places it when it has no offset. */
export interface UpsEventTime {
  time: string;
  timezone: string | null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** `HHMMSS` as UPS writes it, sometimes without the leading zero (`74700`); `HH:MM:SS` too. */
function clock(value: unknown): string | null {
  const raw = text(value);
  if (raw === null) return null;
  return /^\d{5}$/.test(raw) ? `0${raw}` : raw;
}

/**
 * The offset of a local time, from the same instant in UTC (`gmtDate` + `gmtTime`): whole quarter hours
 * within ±14 h, else null. Used only when UPS leaves `gmtOffset` out.
 */
function offsetFromGmt(local: string, gmtDate: unknown, gmtTime: unknown): string | null {
  const gmt = composeDateTime(text(gmtDate), clock(gmtTime), 'Z');
  if (gmt === null || !gmt.includes('T') || !local.includes('T')) return null;
  const minutes = Math.round((Date.parse(`${local}Z`) - Date.parse(gmt)) / 60_000);
  if (!Number.isFinite(minutes) || Math.abs(minutes) > 14 * 60 || minutes % 15 !== 0) return null;
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * An activity's time: the local time with its offset when UPS gives one (or when its UTC twin gives it
 * away), else the local time with `zone` (the place's timezone, when unambiguous). A time UPS wrote
 * wrongly leaves its date alone; an activity without a readable date has no time (null).
 */
export function activityTime(activity: UpsActivity, zone: string | null): UpsEventTime | null {
  const date = text(activity.date);
  const time = clock(activity.time);
  const local = composeDateTime(date, time) ?? composeDateTime(date);
  if (local === null) return null;
  if (!local.includes('T')) return { time: local, timezone: zone };
  const offset = normalizeOffset(text(activity.gmtOffset)) ?? offsetFromGmt(local, activity.gmtDate, activity.gmtTime);
  return { time: offset ? `${local}${offset}` : local, timezone: zone };
}

const WINDOWS = new Set(['EDW', 'CDW', 'IDW']);

/**
 * The expected delivery: the rescheduled date (`RDD`) over the scheduled one (`SDD`), narrowed by
 * `deliveryTime` (an estimated, confirmed or imminent window, or a commit time as the window's end).
 * None once UPS reports a delivery date (`DEL`).
 */
export function expectedDelivery(pkg: UpsPackage): ExpectedDelivery | undefined {
  const dates = Array.isArray(pkg.deliveryDate) ? pkg.deliveryDate : [];
  const typed = dates.filter((d): d is { type: string; date: string } => typeof d?.type === 'string' && typeof d?.date === 'string');
  if (typed.some((d) => d.type.trim().toUpperCase() === 'DEL')) return undefined;
  const pick = (type: string) =>
    typed
      .filter((d) => d.type.trim().toUpperCase() === type)
      .map((d) => composeDateTime(d.date))
      .filter((day): day is string => day !== null)
      .at(-1);
  const day = pick('RDD') ?? pick('SDD');
  if (!day) return undefined;
  const window = pkg.deliveryTime && typeof pkg.deliveryTime === 'object' ? pkg.deliveryTime : undefined;
  const type = text(window?.type)?.toUpperCase();
  const start = composeDateTime(day, clock(window?.startTime));
  const end = composeDateTime(day, clock(window?.endTime));
  if (type && WINDOWS.has(type) && start?.includes('T') && end?.includes('T') && start <= end) return { from: start, to: end };
  if (type === 'CMT' && end?.includes('T')) return { from: day, to: end };
  return { from: day, to: day };
}

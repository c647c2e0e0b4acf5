import { parseEventTime } from '../../core/event-time.js';
import type { ExpectedDelivery } from '../carrier.js';
import { composeDateTime, fromIsoLike, normalizeOffset } from '../sdk/times.js';
import type { UspsDeliveryDateExpectation, UspsTrackingDetail, UspsTrackingEvent } from './uspsus.payload.js';

/**
 * USPS times. Tracking 3.2 gives `eventTimestamp` as a local date-time with its offset (`…T14:03:12-07:00`), or a
 * date alone, plus `GMTOffset` (`-7:00`) and `GMTTimestamp` (`…Z`). Tracking 3.0 gave the local time without an
 * offset, and USPS's own example labels such a local time `Z` (07:31 "Z" for an item accepted at 7:31 am in
 * Richmond, VA), so a `Z` on `eventTimestamp` is not trusted when USPS says otherwise.
 */

const LOCAL = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d{1,9})?\s*(Z|z|[+-]\d{1,2}(?::?\d{2})?)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The time of an event as `parseEventTime` reads it, and the zone beside it; null when USPS gave none we can read. */
export function eventTime(event: UspsTrackingEvent, timezone: string | null): { time: string; timezone: string | null } | null {
  const stamp = text(event.eventTimestamp);
  const gmt = fromIsoLike(text(event.GMTTimestamp));
  if (stamp && DATE.test(stamp)) {
    const day = composeDateTime(stamp);
    if (day) return { time: day, timezone };
  }
  const match = stamp ? LOCAL.exec(stamp) : null;
  if (match) {
    const [, day, clock, written] = match;
    const local = composeDateTime(day, clock);
    if (local) {
      // An offset USPS wrote into the timestamp itself is the event's own.
      if (written && written.toUpperCase() !== 'Z') {
        const offset = normalizeOffset(written);
        if (offset) return { time: `${local}${offset}`, timezone };
      }
      const offset = normalizeOffset(text(event.GMTOffset)) ?? offsetBetween(local, gmt);
      if (offset) return { time: `${local}${offset}`, timezone };
      if (timezone) return { time: local, timezone };
      if (written) return { time: `${local}Z`, timezone: null };
      return { time: local, timezone: null };
    }
  }
  return gmt ? { time: gmt, timezone } : null;
}

/** The offset that takes the local wall time to the GMT instant, when both are readable and it is a real offset. */
function offsetBetween(local: string, gmt: string | null): string | null {
  if (!gmt) return null;
  const wall = parseEventTime(local);
  const instant = parseEventTime(gmt);
  if (!wall.ok || !instant.ok || instant.time.precision !== 'datetime') return null;
  const minutes = Math.round((Date.parse(wall.time.utc) - Date.parse(instant.time.utc)) / 60_000);
  if (Math.abs(minutes) > 14 * 60 || minutes % 15 !== 0) return null;
  return formatOffset(minutes);
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** `12:15pm`, `3:15 PM`, `9am`, `15:15`, `15:15:00` → `HH:MM:SS`; null otherwise. */
export function clockOf(value: unknown): string | null {
  const raw = text(value);
  if (!raw) return null;
  const twelve = /^(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\.?$/i.exec(raw);
  if (twelve) {
    const hour = Number(twelve[1]);
    const minute = Number(twelve[2] ?? '0');
    if (hour < 1 || hour > 12 || minute > 59) return null;
    const h24 = (hour % 12) + (twelve[3].toLowerCase() === 'p' ? 12 : 0);
    return `${String(h24).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00`;
  }
  const day = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(raw);
  if (!day) return null;
  const [hour, minute, second] = [Number(day[1]), Number(day[2]), Number(day[3] ?? '0')];
  if (hour > 23 || minute > 59 || second > 59) return null;
  return `${String(hour).padStart(2, '0')}:${day[2]}:${String(second).padStart(2, '0')}`;
}

/** A local wall time with the offset its zone has then (DST included); the wall time alone without a zone. */
export function withZoneOffset(local: string, timezone: string | null): string {
  if (!timezone) return local;
  const placed = parseEventTime(local, { timezone });
  const wall = parseEventTime(local);
  if (!placed.ok || !wall.ok) return local;
  return `${local}${formatOffset(Math.round((Date.parse(wall.time.utc) - Date.parse(placed.time.utc)) / 60_000))}`;
}

/**
 * The delivery window: USPS's predicted date with its predicted window (`12:15pm`–`3:15pm`, local to the
 * destination) when it gives one, else the predicted date, else the expected delivery date, as a whole day.
 */
export function expectedDelivery(detail: UspsTrackingDetail, destinationZone: string | null): ExpectedDelivery | undefined {
  const expectation = (
    detail.deliveryDateExpectation && typeof detail.deliveryDateExpectation === 'object' ? detail.deliveryDateExpectation : {}
  ) as UspsDeliveryDateExpectation;
  const predicted = dateOf(expectation.predictedDeliveryDate);
  if (predicted) {
    const start = clockOf(expectation.predictedDeliveryWindowStartTime);
    const end = clockOf(expectation.predictedDeliveryWindowEndTime);
    if (start && end && start < end) {
      return {
        from: withZoneOffset(`${predicted}T${start}`, destinationZone),
        to: withZoneOffset(`${predicted}T${end}`, destinationZone),
      };
    }
    return { from: predicted, to: predicted };
  }
  const expected = dateOf(expectation.expectedDeliveryDate) ?? dateOf(detail.expectedDeliveryDate);
  return expected ? { from: expected, to: expected } : undefined;
}

function dateOf(value: unknown): string | null {
  const raw = text(value);
  if (!raw) return null;
  // A date-time is cut to its day: USPS documents these fields as dates.
  const day = /^(\d{4}-\d{2}-\d{2})(?:[T ].*)?$/.exec(raw);
  return day ? composeDateTime(day[1]) : null;
}

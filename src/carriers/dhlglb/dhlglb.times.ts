import { parseEventTime, toLocalDateTime } from '../../core/event-time.js';
import type { ExpectedDelivery } from '../carrier.js';
import { fromIsoLike } from '../sdk/times.js';
import { type DhlShipment, record, text } from './dhlglb.payload.js';

/**
 * DHL's times are ISO 8601 texts: with `Z`, with an offset, or (often, depending on the division) local
 * without one. A local time keeps its text and is placed by the timezone of the event's place.
 */

/** An event's time text in the strict form `parseEventTime` reads, or null when DHL's text is unreadable. */
export function eventTime(timestamp: unknown): string | null {
  return fromIsoLike(text(timestamp));
}

const MIDNIGHT = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:\.0+)?(?:Z|[+-]\d{2}:\d{2})?$/;

/**
 * A local date-time written with the offset its zone had then (an expected delivery carries no
 * timezone beside it); texts with an offset, dates alone, and times whose zone is unknown are returned
 * as they are.
 */
function withOffset(time: string, zone: string | null): string {
  if (!zone || !time.includes('T') || /(?:Z|[+-]\d{2}:\d{2})$/.test(time)) return time;
  const parsed = parseEventTime(time, { timezone: zone });
  if (!parsed.ok) return time;
  return `${time}${toLocalDateTime(Date.parse(parsed.time.utc), zone).offset}`;
}

/**
 * The delivery window DHL expects: `estimatedDeliveryTimeFrame` (from, through) completed by
 * `estimatedTimeOfDelivery`. DHL writes a day it knows without the hour as midnight: a window whose ends
 * are both midnight is read as days. Local times get the offset of the destination's zone.
 */
export function expectedDelivery(shipment: DhlShipment, destinationZone: string | null): ExpectedDelivery | undefined {
  const frame = record<{ estimatedFrom?: unknown; estimatedThrough?: unknown }>(shipment.estimatedDeliveryTimeFrame);
  const eta = eventTime(shipment.estimatedTimeOfDelivery);
  const from = eventTime(frame?.estimatedFrom) ?? eta;
  const to = eventTime(frame?.estimatedThrough) ?? eta;
  const first = from ?? to;
  const last = to ?? from;
  if (!first || !last) return undefined;
  const startDay = MIDNIGHT.exec(first)?.[1];
  const endDay = MIDNIGHT.exec(last)?.[1];
  let window: ExpectedDelivery =
    startDay && endDay
      ? { from: startDay, to: endDay }
      : { from: withOffset(first, destinationZone), to: withOffset(last, destinationZone) };
  const a = parseEventTime(window.from, { timezone: destinationZone });
  const b = parseEventTime(window.to, { timezone: destinationZone });
  if (!a.ok || !b.ok) return undefined;
  if (a.time.utc > b.time.utc) window = { from: window.to, to: window.from };
  return window;
}

import { hash } from 'node:crypto';
import { type EventTimeResult, parseEventTime } from '../core/event-time.js';
import type { CarrierEvent } from './carrier.js';

/**
 * The de-duplication key of a carrier event: the same event polled again yields the same key, so it is
 * stored once. It hashes the carrier id, the tracking number (spaces removed, upper case), the
 * normalized time (precision and UTC instant, so `…T10:15:00+02:00` and `…T08:15:00Z` agree), the
 * carrier's own code, and the place. Descriptions are left out: carriers reword them.
 *
 * A time without an offset is hashed as its text (`local:2026-10-25T02:30:00`), not as the instant a
 * timezone makes of it: a carrier that gives no offset is placed by inference (country, region), and a
 * better inference later must not make the same event look new.
 *
 * @param parsed `parseEventTime(event.time, { timezone: event.timezone })` when the caller has it already.
 * @param options.legacy hash offset-less times by their instant too (the sandbox's events stored so far).
 * @returns 64 lowercase hex characters (SHA-256).
 */
export function eventKey(
  carrierId: string,
  trackingNumber: string,
  event: CarrierEvent,
  parsed?: EventTimeResult,
  options: { legacy?: boolean } = {},
): string {
  const parts = [
    carrierId,
    trackingNumber.replace(/\s+/g, '').toUpperCase(),
    normalizedTime(event, parsed, options.legacy === true),
    event.additional_info.carrier_code ?? event.event_key ?? event.event,
    event.location?.place.trim() ?? '',
  ];
  // One-shot: the same SHA-256 as a Hash object's, without making one (a key per stored event).
  return hash('sha256', JSON.stringify(parts), 'hex');
}

function normalizedTime(event: CarrierEvent, given: EventTimeResult | undefined, legacy: boolean): string {
  const parsed = given ?? parseEventTime(event.time, { timezone: event.timezone });
  // An unusable time still de-duplicates by its text; storing it is the caller's decision.
  if (!parsed.ok) return `text:${event.time.trim()}`;
  if (parsed.time.offset === null && !legacy) return `local:${parsed.time.text}`;
  return `${parsed.time.precision}:${parsed.time.utc}`;
}

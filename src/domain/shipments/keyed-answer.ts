import { hash } from 'node:crypto';
import type { CarrierAdapter, CarrierEvent } from '../../carriers/carrier.js';
import { eventKey } from '../../carriers/event-key.js';
import { eventTimeOf } from '../../carriers/sdk/http-carrier.js';
import type { EventTime } from '../../core/event-time.js';
import type { NewEvent } from './event-recorder.js';

/** Carrier events turned into stored events; events whose time cannot be read are left out and reported. */
export function toNewEvents(
  adapter: CarrierAdapter,
  trackingNumber: string,
  events: CarrierEvent[],
): { rows: NewEvent[]; unreadable: number } {
  const answer = answerOf(adapter, trackingNumber, events);
  return { rows: answer.rows(), unreadable: answer.unreadable };
}

/** An answer's events keyed, with the rows to store made only when asked for (most polls store none). */
export interface KeyedAnswer {
  /** `answerDigest` of the keys: what the shipment keeps as `tracking_digest` once the answer is stored. */
  digest: string;
  unreadable: number;
  /** Every event of the answer as a row to store. */
  rows(): NewEvent[];
  /**
   * The rows a shipment whose last stored answer has digest `stored` may lack: none (null) when it is this
   * answer; the events after it when that answer was the start of this one (a carrier adds its new scans
   * at the end, oldest first); else every row (insert skips those stored already).
   */
  rowsSince(stored: string | null): NewEvent[] | null;
}

interface KeyedEvent {
  event: CarrierEvent;
  time: EventTime;
  key: string;
  sequence: number;
}

/**
 * The events of an answer with their de-duplication keys, in the answer's order. The keys are made at once
 * (the digest needs them); the rows, which serialize each event's place and details, only when asked for.
 */
export function answerOf(adapter: CarrierAdapter, trackingNumber: string, events: CarrierEvent[]): KeyedAnswer {
  const keyed: KeyedEvent[] = [];
  let unreadable = 0;
  const legacy = adapter.legacyEventKeys === true;
  events.forEach((event, index) => {
    // Parsed once per event: the carrier's base parsed it to order the answer.
    const time = eventTimeOf(event);
    if (!time.ok) {
      unreadable++;
      return;
    }
    keyed.push({ event, time: time.time, key: eventKey(adapter.record.id, trackingNumber, event, time, { legacy }), sequence: index });
  });
  const keys = keyed.map((e) => e.key);
  const digest = answerDigest(keys);
  const rowsOf = (from: number) => keyed.slice(from).map((e) => rowOf(adapter, e));
  return {
    digest,
    unreadable,
    rows: () => rowsOf(0),
    rowsSince(stored) {
      if (stored === digest) return null;
      const count = stored === null ? 0 : digestCount(stored);
      if (count > 0 && count < keys.length && answerDigest(keys.slice(0, count)) === stored) return rowsOf(count);
      return rowsOf(0);
    },
  };
}

function rowOf(adapter: CarrierAdapter, { event, time, key, sequence }: KeyedEvent): NewEvent {
  return {
    dedupe_key: key,
    origin: 'carrier',
    event: event.event,
    event_key: event.event_key,
    phase_key: event.phase_key,
    time_text: time.text,
    time_utc: time.utc,
    timezone: event.timezone,
    carrier_name: adapter.record.name,
    location: event.location ? JSON.stringify(event.location) : null,
    additional_info: JSON.stringify(event.additional_info),
    sequence,
  };
}

/**
 * The digest of an answer's event keys, in order: their count, a colon, and the SHA-256 of the keys (base64).
 * A shipment keeps the digest of the last answer whose events were all stored; events are never deleted, so
 * an answer with the same digest has only events stored already, and one that begins with those keys only
 * the ones after them to store.
 */
export function answerDigest(keys: readonly string[]): string {
  return `${keys.length}:${hash('sha256', keys.join('\n'), 'base64')}`;
}

/** The number of keys a digest stands for (0 for one not made by `answerDigest`). */
function digestCount(digest: string): number {
  const count = Number.parseInt(digest, 10);
  return Number.isSafeInteger(count) && count > 0 ? count : 0;
}

import type { CarrierEvent, CarrierEventLocation } from '../carrier.js';
import { type EventKey, eventDescription, isEventKey, phaseOfEvent } from '../phases.js';
import type { CarrierMetrics } from './carrier-metrics.js';

/**
 * A carrier's codes → our event keys. Keys are the carrier's code, or a composite (`eventType:exceptionCode`,
 * `ICE:RIC`) tried before the plain code. Each adapter keeps its table in its own `<id>.codes.ts`.
 */
export type CodeTable = Readonly<Record<string, EventKey>>;

/**
 * The event key of the first code the table knows, most specific first; null (and one count in
 * `waybill_carrier_unmapped_codes_total`) when none is known.
 */
export function mapCode(
  table: CodeTable,
  codes: ReadonlyArray<string | null | undefined>,
  unmapped?: { carrier: string; metrics: CarrierMetrics | null },
): EventKey | null {
  const given = codes.filter((code): code is string => typeof code === 'string' && code !== '');
  for (const code of given) {
    if (Object.hasOwn(table, code) && isEventKey(table[code])) return table[code];
  }
  if (unmapped?.metrics && given.length > 0) unmapped.metrics.unmappedCode(unmapped.carrier, given[0]);
  return null;
}

export interface EventParts {
  key: EventKey | null;
  /** The carrier's code as stored for de-duplication (composite when the carrier's is). */
  code: string;
  /** The carrier's own description. */
  description: string;
  time: string;
  timezone: string | null;
  location: CarrierEventLocation | null;
  /** More of the carrier's raw data (location codes, reason codes). */
  extra?: Record<string, unknown>;
  correction?: boolean;
}

/** A `CarrierEvent`: the standard description when the code is mapped, the carrier's own otherwise. */
export function carrierEvent(parts: EventParts): CarrierEvent {
  const description = parts.description.replace(/\s+/g, ' ').trim().slice(0, 500);
  const event: CarrierEvent = {
    event: parts.key ? eventDescription(parts.key) : description || parts.code,
    event_key: parts.key,
    phase_key: parts.key ? phaseOfEvent(parts.key) : null,
    time: parts.time,
    timezone: parts.timezone,
    location: parts.location,
    additional_info: { ...parts.extra, carrier_code: parts.code, carrier_description: description },
  };
  if (parts.correction) event.correction = true;
  return event;
}

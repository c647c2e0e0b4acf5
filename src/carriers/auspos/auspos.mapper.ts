import { parseEventTime } from '../../core/event-time.js';
import type { CarrierEvent, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import type { SameAnswer } from '../sdk/known-answers.js';
import { fromIsoLike } from '../sdk/times.js';
import {
  AUSPOST_DOCUMENTED_STATUSES,
  AUSPOST_EVENT_TEXTS,
  AUSPOST_NOT_FOUND,
  AUSPOST_NOT_TRACKABLE,
  AUSPOST_STATUSES,
} from './auspos.codes.js';
import { placeOfLocation } from './auspos.places.js';

/**
 * Australia Post "Track items" answers → our results. Pure: no I/O, no clock; any JSON maps without throwing.
 *
 * Events carry no code, only a text: an event's stored code is its text (the event's identity for
 * de-duplication, with its time and place). Its key comes from the text where the documentation names it
 * (`AUSPOST_EVENT_TEXTS`, or a text that is a status), and the newest event takes the item's documented status.
 */

/** Maps statuses (composite first) to an event key; the carrier passes one that counts unmapped statuses. */
export type CodeMapper = (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;

/**
 * Places a time that comes without an offset when its state is not known. Australia Post documents times with
 * their offset; this is a fallback, the zone of its head office (the eastern states share its offsets).
 */
export const AUSPOST_HOME_ZONE = 'Australia/Melbourne';

/** The status that summarises items at different stages: it says nothing of where the parcel is. */
const SUMMARY_STATUS = 'Track items for detailed delivery information';
const COLLECTED = 'Delivered:Awaiting collection';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}

function records(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function normalize(number: string): string {
  return number.replace(/\s+/g, '').toUpperCase();
}

/** Documented spellings by their lower-case form, so that `In Transit` reads as `In transit`. */
const STATUS_SPELLING = new Map<string, string>(AUSPOST_DOCUMENTED_STATUSES.map((status) => [status.toLowerCase(), status]));
const EVENT_TEXT_KEYS = new Map<string, EventKey>(
  [...Object.entries(AUSPOST_STATUSES).filter(([status]) => !status.includes(':')), ...Object.entries(AUSPOST_EVENT_TEXTS)].map(
    ([words, key]) => [words.toLowerCase(), key],
  ),
);

/** A status as the documentation spells it, or as given (trimmed, at most 80 characters) when it is not documented. */
export function statusOf(value: unknown): string | null {
  const given = text(value);
  return given === null ? null : (STATUS_SPELLING.get(given.toLowerCase()) ?? given.slice(0, 80));
}

/** The event key a text names by itself (documented texts and statuses only); null for any other text. */
export function keyOfText(description: string): EventKey | null {
  return EVENT_TEXT_KEYS.get(description.toLowerCase()) ?? null;
}

/**
 * Maps a 200 answer (`tracking_results`) to one result per number Australia Post answered for, matched by
 * `tracking_id` (spaces and case ignored). Returns null when the body is not a "Track items" answer.
 */
export function mapTrackBody(
  body: unknown,
  numbers: readonly string[],
  code: CodeMapper = defaultCodeMapper,
  unchanged?: SameAnswer,
): TrackResult[] | null {
  if (!isRecord(body) || !Array.isArray(body.tracking_results)) return null;
  const entries = records(body.tracking_results);
  const asked = new Map(numbers.map((n) => [normalize(n), n]));
  const answered = new Map<string, TrackResult>();
  for (const entry of entries) {
    const id = text(entry.tracking_id) ?? (entries.length === 1 && numbers.length === 1 ? numbers[0] : null);
    const number = id === null ? undefined : asked.get(normalize(id));
    if (number === undefined || answered.has(number)) continue;
    // A number's entry is all that is read for it: the stored answer's entry is that answer again.
    answered.set(number, unchanged?.(number, entry) ? { status: 'unchanged', tracking_number: number } : resultOf(entry, number, code));
  }
  return [...answered.values()];
}

/** What the answer holds for the number: the article it names, else everything of the consignment. */
interface Source {
  events: Json[];
  /** The article the events belong to, when it is not the number asked. */
  articleId: string | null;
}

function resultOf(entry: Json, trackingNumber: string, code: CodeMapper): TrackResult {
  const items = records(entry.trackable_items);
  const nested = items.flatMap((item) => records(item.items));
  const consignment = isRecord(entry.consignment) ? entry.consignment : null;
  const article = [...items, ...nested].find((item) => normalize(text(item.article_id) ?? '') === normalize(trackingNumber));
  if (article) {
    const events = eventsOf(
      [{ events: records(article.events), articleId: null }],
      statusOf(article.status) ?? statusOf(entry.status),
      code,
    );
    return { status: 'ok', tracking_number: trackingNumber, events };
  }
  if (items.length > 0 || consignment) {
    const sources: Source[] = [
      ...(consignment ? [{ events: records(consignment.events), articleId: null }] : []),
      ...[...items, ...nested].map((item) => ({ events: records(item.events), articleId: text(item.article_id) })),
    ];
    const status = statusOf(entry.status) ?? statusOf(consignment?.status) ?? (items.length === 1 ? statusOf(items[0].status) : null);
    return { status: 'ok', tracking_number: trackingNumber, events: eventsOf(sources, status, code) };
  }
  return errorResult(entry, trackingNumber);
}

/** A tracking id answered without items: its `errors` say why (documented: ESB-10001, ESB-10002, ESB-20010, ESB-20050). */
function errorResult(entry: Json, trackingNumber: string): TrackResult {
  const errors = records(entry.errors);
  const codes = errors.map((error) => text(error.code));
  if (codes.includes(AUSPOST_NOT_FOUND)) return { status: 'not_found', tracking_number: trackingNumber };
  const said = errors
    .map((error) => [text(error.code), text(error.name) ?? text(error.message)].filter(Boolean).join(' '))
    .filter(Boolean)
    .join('; ')
    .slice(0, 200);
  if (codes.includes(AUSPOST_NOT_TRACKABLE)) {
    return {
      status: 'error',
      tracking_number: trackingNumber,
      retryable: false,
      message: `Australia Post cannot track this item: ${said}`,
    };
  }
  // Found, with nothing to show yet: a status alone has no time to make an event of.
  if (errors.length === 0 && statusOf(entry.status) !== null) return { status: 'ok', tracking_number: trackingNumber, events: [] };
  return {
    status: 'error',
    tracking_number: trackingNumber,
    retryable: true,
    message: said
      ? `Australia Post answered an error for this number: ${said}`
      : 'Australia Post answered no tracking data for this number',
  };
}

interface Read {
  event: CarrierEvent;
  /** The instant, for finding the newest and reading the journey in order. */
  utc: string;
}

/** The events of every source, oldest first (Australia Post lists them newest first), the newest with the status. */
function eventsOf(sources: readonly Source[], status: string | null, code: CodeMapper): CarrierEvent[] {
  const read: Read[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    for (const raw of source.events) {
      const description = text(raw.description)?.slice(0, 200) ?? null;
      const time = fromIsoLike(text(raw.date));
      // An event without a text or a readable time cannot be stored or de-duplicated: it is left out.
      if (description === null || time === null) continue;
      const locationText = text(raw.location)?.slice(0, 200) ?? null;
      // The articles of a consignment share scans: the same scan is one event.
      const identity = JSON.stringify([description.toLowerCase(), time, locationText]);
      if (seen.has(identity)) continue;
      seen.add(identity);
      const place = placeOfLocation(locationText);
      const hasOffset = /(?:Z|[+-]\d{2}:\d{2})$/.test(time);
      const timezone = hasOffset ? place.timezone : (place.timezone ?? AUSPOST_HOME_ZONE);
      const parsed = parseEventTime(time, { timezone });
      const event = carrierEvent({
        key: keyOfText(description),
        code: description,
        description,
        time,
        timezone,
        location: place.location,
        extra: source.articleId ? { article_id: source.articleId.slice(0, 40) } : {},
      });
      read.push({ event, utc: parsed.ok ? parsed.time.utc : '' });
    }
  }
  // Oldest first, Australia Post's order breaking ties (it lists newest first): the order the base keeps.
  const journey = read
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => (a.utc === b.utc ? b.index - a.index : a.utc < b.utc ? -1 : 1));
  let waited = false;
  return journey.map((step, position) => {
    let key = position === journey.length - 1 ? newestKey(step.event.event_key, status, waited, code) : step.event.event_key;
    if (key === 'delivered' && waited) key = AUSPOST_STATUSES[COLLECTED];
    if (key === 'available_for_pickup') waited = true;
    return withKey(step.event, key);
  });
}

/**
 * The newest event's key: the item's status, unless its text says more (a text's key is kept over the generic
 * `In transit`, and over a status that is not documented or maps to nothing).
 */
function newestKey(fromText: EventKey | null, status: string | null, waited: boolean, code: CodeMapper): EventKey | null {
  if (status === null || status === SUMMARY_STATUS) return fromText;
  const fromStatus = code(status === 'Delivered' && waited ? [COLLECTED, status] : [status]);
  if (fromStatus === null || (fromStatus === 'in_transit' && fromText !== null)) return fromText;
  return fromStatus;
}

/** The event with another key (its standard description and phase follow); pick-up places marked as such. */
function withKey(event: CarrierEvent, key: EventKey | null): CarrierEvent {
  const location = key === 'available_for_pickup' && event.location ? { ...event.location, location_type: 'pickup_point' } : event.location;
  if (key === event.event_key && location === event.location) return event;
  const { carrier_code, carrier_description, ...extra } = event.additional_info;
  return carrierEvent({
    key,
    code: carrier_code,
    description: carrier_description,
    time: event.time,
    timezone: event.timezone,
    location,
    extra,
  });
}

/** The errors of a refused request (`errors[]` with `code`/`name`/`message`, or the gateway's `error_code`/`error_name`). */
export function requestErrors(body: unknown): Array<{ code: string | null; text: string }> {
  if (!isRecord(body)) return [];
  return records(body.errors).map((error) => {
    const errorCode = text(error.code) ?? text(error.error_code);
    const words = [text(error.name) ?? text(error.error_name), text(error.message)].filter((part): part is string => part !== null);
    return { code: errorCode, text: [errorCode, ...new Set(words)].filter(Boolean).join(' ').slice(0, 300) };
  });
}

function defaultCodeMapper(codes: ReadonlyArray<string | null | undefined>): EventKey | null {
  return mapCode(AUSPOST_STATUSES, codes);
}

import { parseEventTime, toLocalDateTime } from '../../core/event-time.js';
import type { CarrierEvent, CarrierEventLocation, ExpectedDelivery, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import { placeOf } from '../sdk/places.js';
import { fromDayFirst, fromIsoLike, timezoneOf } from '../sdk/times.js';
import { DPDEUR_CODES, DPDEUR_DELIVERED, DPDEUR_PARCEL_SHOP } from './dpdeur.codes.js';
import { booleanOf, lineOf, linesOf, listOf, objectOf, soapBodyOf } from './dpdeur.payload.js';
import { faultOf, faultText } from './dpdeur.soap.js';

/**
 * ParcelLifeCycleService `getTrackingData` answers → our results. Pure: no I/O and no clock; the same answer
 * always maps to the same result, and no input makes it throw.
 */

export interface DpdMapOptions {
  /** Maps codes to an event key, most specific first (the carrier counts unmapped codes through it). */
  code?: (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;
  /**
   * The zone of the DPD company whose instance answered: its local times are read in it when the place gives no
   * country of its own. Default `Europe/Berlin` (DPD Germany).
   */
  timezone?: string;
}

const DEFAULT_TIMEZONE = 'Europe/Berlin';

/**
 * A DPD date text as the text `parseEventTime` reads, or null. DPD documents no format: `date` is display text in
 * the message language's form. Read: ISO (`2026-11-18 14:05:00`), day-first with dots or slashes and a 24-hour
 * clock (`18.11.2026 14:05`, `18/11/2026, 14:05`), and month-first with AM/PM (`11/18/2026 2:05:00 PM`, the
 * form of an `en_US` answer). A slashed date without a time is ambiguous and refused.
 */
export function dpdTime(value: unknown): string | null {
  const text = lineOf(value)?.replace(/\s+/g, ' ');
  if (!text) return null;
  const iso = fromIsoLike(text);
  if (iso) return iso;
  const twelve = /^(\d{1,2})\/(\d{1,2})\/(\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))? ?([AaPp])\.?[Mm]\.?$/.exec(text);
  if (twelve) {
    const [, month, day, year, hour, minute, second, half] = twelve;
    const h = Number(hour);
    if (h < 1 || h > 12) return null;
    const h24 = (h % 12) + (half.toUpperCase() === 'P' ? 12 : 0);
    return fromDayFirst(`${day}.${month}.${year} ${h24}:${minute}:${second ?? '00'}`);
  }
  const dayFirst = /^(\d{1,2})([./])(\d{1,2})\2(\d{4})(?:,? (\d{1,2}:\d{2}(?::\d{2})?))?$/.exec(text);
  if (!dayFirst) return null;
  const [, day, separator, month, year, clock] = dayFirst;
  if (separator === '/' && !clock) return null;
  return fromDayFirst(`${day}.${month}.${year}${clock ? ` ${clock}` : ''}`);
}

/**
 * A `location` text: `City (CC)` as a city and its country, anything else as a facility's name. At a Pickup
 * parcel shop (`locationType` `pickup_point`) the text before the country is the shop: kept whole as its name.
 */
export function dpdPlace(value: unknown, locationType?: string): CarrierEventLocation | null {
  const text = lineOf(value)?.replace(/\s+/g, ' ');
  if (!text) return null;
  const withCountry = /^(.+?) ?\(([A-Za-z]{2})\)$/.exec(text);
  if (withCountry) {
    const [, name, country] = withCountry;
    const parts = locationType === 'pickup_point' ? { facility: name } : { city: name };
    const place = placeOf({ ...parts, country_code: country, location_type: locationType });
    if (place?.country_code) return place;
  }
  return placeOf({ facility: text, location_type: locationType });
}

interface StatusRecord {
  status: string;
  time: string;
  timezone: string;
  utc: string;
  entry: Record<string, unknown>;
  location: CarrierEventLocation | null;
}

/** The statuses the parcel has reached, with a readable time; statuses ahead (`statusHasBeenReached` false) are skipped. */
function reachedStatuses(result: Record<string, unknown>, zone: string): StatusRecord[] {
  const records: StatusRecord[] = [];
  for (const entry of listOf(result.statusInfo)) {
    const status = lineOf(entry.status);
    if (!status || booleanOf(entry.statusHasBeenReached) === false) continue;
    const time = dpdTime(entry.date);
    if (!time) continue;
    const location = dpdPlace(entry.location, status === DPDEUR_PARCEL_SHOP ? 'pickup_point' : undefined);
    const timezone = timezoneOf(location?.country_code, null, { mainland: true }) ?? zone;
    const parsed = parseEventTime(time, { timezone });
    if (!parsed.ok) continue;
    records.push({ status, time, timezone, utc: parsed.time.utc, entry, location });
  }
  return records;
}

/** The text lines of a list of `ContentItem`s (`normalItems`, `importantItems`, `errorItems`). */
function itemTexts(value: unknown): string[] {
  return listOf(value)
    .flatMap((item) => [lineOf(item.label), ...linesOf(item)])
    .filter((line): line is string => line !== null);
}

/**
 * The parcel's events, one per status reached: its `carrier_code` the status, its text DPD's heading and
 * explanation. A delivery after a stay at a Pickup parcel shop is keyed `Delivered:ParcelShop` first.
 */
export function mapEvents(
  result: Record<string, unknown>,
  code: NonNullable<DpdMapOptions['code']>,
  zone: string = DEFAULT_TIMEZONE,
): CarrierEvent[] {
  const records = reachedStatuses(result, zone);
  return records.map((record) => {
    const atShopBefore =
      DPDEUR_DELIVERED.has(record.status) && records.some((other) => other.status === DPDEUR_PARCEL_SHOP && other.utc < record.utc);
    const composite = atShopBefore ? `${record.status}:${DPDEUR_PARCEL_SHOP}` : null;
    const label = lineOf(record.entry.label);
    const explanation = linesOf(record.entry.description).join(' ');
    const extra: Record<string, unknown> = {};
    const location = lineOf(record.entry.location);
    if (location) extra.location_text = location;
    const important = itemTexts(record.entry.importantItems);
    if (important.length > 0) extra.important_items = important;
    const errors = itemTexts(record.entry.errorItems);
    if (errors.length > 0) extra.error_items = errors;
    return carrierEvent({
      key: code([composite, record.status]),
      code: record.status,
      description: [label, explanation].filter(Boolean).join(': ') || record.status,
      time: record.time,
      timezone: record.timezone,
      // Collected at the shop: the place is the shop.
      location: composite ? (dpdPlace(record.entry.location, 'pickup_point') ?? record.location) : record.location,
      extra,
    });
  });
}

/** A local date and clock in `zone`, written with the offset in force then; null when unreadable. */
function withOffset(day: string, clock: string, zone: string): string | null {
  const parsed = parseEventTime(`${day}T${clock}:00`, { timezone: zone });
  if (!parsed.ok) return null;
  const local = toLocalDateTime(Date.parse(parsed.time.utc), zone);
  return `${local.date}T${local.time.slice(0, 5)}:00${local.offset}`;
}

/**
 * DPD Predict's announcement (`shipmentInfo.predictInformation`) as a window. The schema gives it as text lines
 * only, so the window is read from the text when it holds exactly one unambiguous date (`18.11.2026` or
 * `2026-11-18`) and two times (`10:15`, `11:15`); a date alone is a day. Anything else is no estimate.
 */
export function mapExpectedDelivery(
  shipmentInfo: Record<string, unknown> | null,
  zone: string = DEFAULT_TIMEZONE,
): ExpectedDelivery | undefined {
  const predict = objectOf(shipmentInfo?.predictInformation);
  if (!predict) return undefined;
  const text = [lineOf(predict.label), ...linesOf(predict)].filter(Boolean).join(' ');
  const dates = new Set<string>();
  for (const match of text.matchAll(/\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/g)) {
    const day = fromDayFirst(`${match[1]}.${match[2]}.${match[3]}`);
    if (day) dates.add(day);
  }
  for (const match of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) {
    const day = fromIsoLike(match[0]);
    if (day) dates.add(day);
  }
  if (dates.size !== 1 || /\b\d{1,2}\/\d{1,2}\/\d{4}\b/.test(text)) return undefined;
  const [day] = [...dates];
  const withoutDates = text.replace(/\b\d{1,2}\.\d{1,2}\.\d{4}\b|\b\d{4}-\d{2}-\d{2}\b/g, ' ');
  const clocks = [...withoutDates.matchAll(/\b([01]?\d|2[0-3]):([0-5]\d)(?::\d{2})?\b/g)].map(
    (match) => `${match[1].padStart(2, '0')}:${match[2]}`,
  );
  if (clocks.length === 0) return { from: day, to: day };
  if (clocks.length !== 2) return undefined;
  const from = withOffset(day, clocks[0], zone);
  const to = withOffset(day, clocks[1], zone);
  if (!from || !to) return undefined;
  const start = parseEventTime(from);
  const end = parseEventTime(to);
  if (!start.ok || !end.ok || start.time.utc > end.time.utc) return undefined;
  return { from, to };
}

/** The `trackingresult` of a parsed answer (`trackingResult` in DPD's JSON rendering), or null. */
export function trackingResultOf(root: Record<string, unknown> | null): Record<string, unknown> | null {
  const response = objectOf(soapBodyOf(root)?.getTrackingDataResponse);
  return objectOf(response?.trackingresult) ?? objectOf(response?.trackingResult);
}

/**
 * A parsed `getTrackingData` answer → the result for one number: its events and Predict window; `not_found` when
 * DPD's result holds neither shipment nor statuses; an error for a fault or a body that is no tracking answer.
 */
export function mapTrackingAnswer(trackingNumber: string, root: unknown, options: DpdMapOptions = {}): TrackResult {
  const envelope = objectOf(root);
  const fault = faultOf(envelope);
  if (fault) {
    // A refused request (a wrong number) will be refused again; DPD's own failures may pass.
    const retryable = fault.faultcode !== 'Client' && !fault.authentication;
    return {
      status: 'error',
      tracking_number: trackingNumber,
      retryable,
      message: `DPD refused the tracking request: ${faultText(fault)}`,
    };
  }
  const body = soapBodyOf(envelope);
  if (!body || !('getTrackingDataResponse' in body)) {
    return { status: 'error', tracking_number: trackingNumber, retryable: true, message: 'DPD answer holds no tracking data' };
  }
  const result = trackingResultOf(envelope);
  const shipmentInfo = objectOf(result?.shipmentInfo);
  const statuses = listOf(result?.statusInfo);
  if (!result || (!shipmentInfo && statuses.length === 0)) return { status: 'not_found', tracking_number: trackingNumber };
  const zone = options.timezone ?? DEFAULT_TIMEZONE;
  const code = options.code ?? ((codes) => mapCode(DPDEUR_CODES, codes));
  const mapped: TrackResult = { status: 'ok', tracking_number: trackingNumber, events: mapEvents(result, code, zone) };
  const expected = mapExpectedDelivery(shipmentInfo, zone);
  if (expected) mapped.expected_delivery = expected;
  return mapped;
}

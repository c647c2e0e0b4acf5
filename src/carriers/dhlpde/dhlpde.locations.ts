import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { operatingDay } from '../../core/operating-hours.js';
import { type ClosingPeriod, type OpeningHours, type OperatingHoursCalc, WEEKDAYS } from '../../core/pudo-location.js';
import { type CarrierPudoLocation, carrierPudoUuid } from '../booking.js';
import { timezoneOf } from '../sdk/times.js';
import { type DhlLocation, list, record, text } from './dhlpde.payload.js';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

/** DHL's location types and the service's standard ones. */
const MAPPED_TYPES: Record<string, string> = {
  locker: 'parcel_locker',
  postoffice: 'post_office',
  postbank: 'post_office',
  servicepoint: 'parcel_shop',
};

/** DHL's service types (Location Finder) and our service names; the others are kept in `additional_info`. */
const SERVICES: Record<string, string[]> = {
  'parcel:pick-up': ['pick_up'],
  'parcel:pick-up-registered': ['pick_up'],
  'parcel:pick-up-unregistered': ['pick_up'],
  // A DHL drop-off point also takes DHL Retoure parcels: they are prepaid parcels like any other.
  'parcel:drop-off': ['drop_off', 'returns'],
  'parcel:drop-off-unregistered': ['drop_off', 'returns'],
};

/** `http://schema.org/Monday` (or `Monday`) → `monday`. */
function weekday(value: unknown): string | null {
  const name = text(value)?.split('/').pop()?.toLowerCase() ?? null;
  return name && (WEEKDAYS as readonly string[]).includes(name) ? name : null;
}

/** `09:00:00` → `09:00`; `23:59:59` stays `23:59`. */
function hhmm(value: unknown): string | null {
  const match = /^(\d{2}):(\d{2})(?::\d{2})?/.exec(text(value) ?? '');
  return match && Number(match[1]) <= 24 && Number(match[2]) < 60 ? `${match[1]}:${match[2]}` : null;
}

/** A street address `Charles-de-Gaulle-Str. 20` as street and house number (`Charles-de-Gaulle-Str.`, `20`). */
export function splitStreet(streetAddress: string): { street: string; number: string } {
  const match = /^(.*?\D)\s*(\d+\s?[a-zA-Z]?(?:\s?[-/]\s?\d+\s?[a-zA-Z]?)?)$/.exec(streetAddress.trim());
  return match ? { street: match[1].trim(), number: match[2].replace(/\s+/g, '') } : { street: streetAddress.trim(), number: '' };
}

function coordinate(value: unknown, limit: number): number | null {
  const n = typeof value === 'number' ? value : Number(text(value));
  return Number.isFinite(n) && Math.abs(n) <= limit && text(value) !== null ? n : null;
}

/** Opening windows by day, Monday first, each day's windows in order. */
function windowsByDay(openingHours: unknown): Map<string, Array<[string, string]>> {
  const byDay = new Map<string, Array<[string, string]>>();
  for (const entry of list(openingHours)) {
    const spec = record<{ opens?: unknown; closes?: unknown; dayOfWeek?: unknown }>(entry);
    const day = weekday(spec?.dayOfWeek);
    const opens = hhmm(spec?.opens);
    const closes = hhmm(spec?.closes);
    if (!day || !opens || !closes) continue;
    byDay.set(day, [...(byDay.get(day) ?? []), [opens, closes]]);
  }
  for (const windows of byDay.values()) windows.sort((a, b) => a[0].localeCompare(b[0]));
  return byDay;
}

function closingPeriods(value: unknown): ClosingPeriod[] {
  return list(value).flatMap((entry) => {
    const period = record<{ type?: unknown; fromDate?: unknown; toDate?: unknown }>(entry);
    const from = text(period?.fromDate)?.slice(0, 10);
    const to = text(period?.toDate)?.slice(0, 10) ?? from;
    if (!from || !to || !/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return [];
    return [{ from_date: from, to_date: to, reason: text(period?.type) ?? 'closed' }];
  });
}

/**
 * One location of the Location Finder – Unified as the interface's PudoLocation record: its id, address and
 * point; opening hours per day (in the location's time zone) for each of our services; DHL's own service types,
 * keyword and keyword id (the Packstation or post office number a booking addresses) in `additional_info`; DHL's
 * distance from the searched place as `distance_meters`.
 * Null for a location without an id or a point.
 */
export function mapLocation(value: unknown, carrierId: string, now: Date): CarrierPudoLocation | null {
  const location = record<DhlLocation>(value);
  if (!location) return null;
  const ids = list(location.location?.ids).map((id) => record<{ locationId?: unknown; provider?: unknown }>(id));
  const parcelId = ids.find((id) => text(id?.provider) === 'parcel') ?? ids[0];
  const id = text(parcelId?.locationId) ?? text(location.url)?.split('/').pop() ?? null;
  const lat = coordinate(location.place?.geo?.latitude, 90);
  const lng = coordinate(location.place?.geo?.longitude, 180);
  if (!id || lat === null || lng === null) return null;

  const address = record<Record<string, unknown>>(location.place?.address) ?? {};
  const countryCode = text(address.countryCode)?.toUpperCase() ?? '';
  const streetAddress = text(address.streetAddress) ?? '';
  const { street, number } = splitStreet(streetAddress);
  const postalCode = text(address.postalCode) ?? '';
  const city = text(address.addressLocality) ?? '';
  const country = countries.getName(countryCode, 'en') ?? countryCode;
  const type = text(location.location?.type) ?? 'servicepoint';
  const mapped = MAPPED_TYPES[type] ?? 'parcel_shop';
  const name = text(location.name) ?? text(location.location?.keyword) ?? 'DHL';
  const serviceTypes = list(location.serviceTypes)
    .map(text)
    .filter((s): s is string => s !== null);
  const services = [...new Set(serviceTypes.flatMap((s) => SERVICES[s] ?? []))];
  const timeZone = timezoneOf(countryCode, null, { mainland: true }) ?? 'UTC';

  const byDay = windowsByDay(location.openingHours);
  const opening_hours: OpeningHours[] = [];
  const operating_hours_calc: OperatingHoursCalc[] = [];
  for (const day of WEEKDAYS) {
    const windows = byDay.get(day);
    if (!windows) continue;
    for (const [open, close] of windows) opening_hours.push({ day_of_week: day, open_hour: open, close_hour: close });
    for (const service of services) {
      operating_hours_calc.push(operatingDay(service, day, timeZone, windows));
    }
  }

  const uuid = carrierPudoUuid(carrierId, id);
  const distance = coordinate(location.distance, 1e7);
  return {
    pudo_location_uuid: uuid,
    uuid,
    carrier_id: carrierId,
    pudo_location_id: id,
    address: {
      location_types: [type],
      mapped_location_types: [mapped],
      location_type: type,
      mapped_location_type: mapped,
      entity_reference: id,
      address_name: name,
      full: [name, streetAddress, [postalCode, city].filter(Boolean).join(' '), country].filter(Boolean).join(', '),
      line1: streetAddress,
      line2: null,
      line3: null,
      street_name: street,
      house_number: number,
      postal_code: postalCode,
      city,
      state_or_province: null,
      region: null,
      country,
      country_code: countryCode,
      phone: null,
    },
    lat,
    lng,
    operating_hours_calc,
    opening_hours,
    cutoff_hours: [],
    closing_periods: closingPeriods(location.closurePeriods),
    validity_period: { from_date: now.toISOString().slice(0, 10), to_date: null },
    services,
    additional_info: {
      keyword: text(location.location?.keyword),
      keyword_id: text(location.location?.keywordId),
      location_id: id,
      service_types: serviceTypes,
      // A Packstation hands parcels to registered DHL customers only: a booking needs their post number.
      needs_post_number: serviceTypes.includes('parcel:pick-up-registered') && !serviceTypes.includes('parcel:pick-up-unregistered'),
      ...(text(location.availableCapacity) ? { available_capacity: text(location.availableCapacity) } : {}),
    },
    updated_date: now.toISOString(),
    // DHL's own distance from the searched place: what a postal-code search is measured by.
    ...(distance !== null && distance >= 0 ? { distance_meters: Math.round(distance) } : {}),
  };
}

/** A Location Finder answer (`{"locations": [...]}`) as records; unreadable entries are left out. */
export function mapLocations(body: unknown, carrierId: string, now: Date): CarrierPudoLocation[] | null {
  const answer = record<{ locations?: unknown }>(body);
  if (!answer || !Array.isArray(answer.locations)) return null;
  const seen = new Set<string>();
  return answer.locations.flatMap((entry) => {
    const mapped = mapLocation(entry, carrierId, now);
    if (!mapped || seen.has(mapped.pudo_location_id)) return [];
    seen.add(mapped.pudo_location_id);
    return [mapped];
  });
}

import { operatingDay } from '../../core/operating-hours.js';
import { type OpeningHours, type OperatingHoursCalc, type PudoAddress, WEEKDAYS } from '../../core/pudo-location.js';
import { type CarrierPudoLocation, type CarrierPudoQuery, carrierPudoUuid } from '../booking.js';
import type { CarrierError, CarrierSettings } from '../carrier.js';
import { redact } from '../sdk/http.js';
import { timezoneOf } from '../sdk/times.js';
import { DOMESTIC_COUNTRIES } from './uspsus.booking.js';
import { describe, errorEntries } from './uspsus.errors.js';
import type { UspsApi } from './uspsus.shipping.js';

/**
 * USPS Locations 3.0, Post Office Locator (`GET /locations/v3/post-office-locations`: by `ZIPCode` or by `LAT`
 * and `LONG`, within `radius` miles, `limit` locations) → our PudoLocation records. Every Post Office takes
 * parcels (`drop_off`, its `RETAIL` hours); those offering `HOLD_FOR_PICKUP` keep parcels for the addressee
 * (`pick_up`), which is what a booking to a point asks for. Pure but for `searchPostOffices`, never a throw.
 */

export const LOCATIONS_PATH = '/locations/v3/post-office-locations';
const METERS_PER_MILE = 1609.344;

/** The query of a search: a point or a ZIP Code, the radius in whole miles (1 to 100), the number wanted. */
export function locationsQuery(query: CarrierPudoQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (typeof query.lat === 'number' && typeof query.lng === 'number') {
    params.set('LAT', query.lat.toFixed(6));
    params.set('LONG', query.lng.toFixed(6));
  } else {
    const zip = /^\d{5}/.exec((query.postal_code ?? '').replace(/\s+/g, ''))?.[0];
    if (zip) params.set('ZIPCode', zip);
    else if (query.city) params.set('city', query.city);
  }
  params.set('radius', String(Math.min(100, Math.max(1, Math.ceil(query.radius_meters / METERS_PER_MILE)))));
  params.set('limit', String(Math.min(50, Math.max(1, Math.round(query.limit)))));
  return params;
}

type Json = Record<string, unknown>;

function object(value: unknown): Json | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(object).filter((v): v is Json => v !== null) : [];
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== ''
    ? value.replace(/\s+/g, ' ').trim()
    : typeof value === 'number'
      ? String(value)
      : null;
}

function numeric(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

/** `08:30:00` or `08:30` → `08:30`; null otherwise. */
function clock(value: unknown): string | null {
  const match = /^(\d{1,2}):(\d{2})/.exec(text(value) ?? '');
  if (!match || Number(match[1]) > 24 || Number(match[2]) > 59) return null;
  return `${match[1].padStart(2, '0')}:${match[2]}`;
}

type Week = Map<string, Array<[string, string]>>;

/** A service's `hours` (`dayOfWeek` MONDAY…, `times[{ openTime, closeTime }]`) → its windows per day. */
function weekOf(service: Json | undefined): { windows: Week; closes: Map<string, string> } {
  const windows: Week = new Map();
  const closes = new Map<string, string>();
  for (const entry of list(service?.hours)) {
    const day = (text(entry.dayOfWeek) ?? '').toLowerCase();
    if (!(WEEKDAYS as readonly string[]).includes(day)) continue;
    for (const time of list(entry.times)) {
      const open = clock(time.openTime);
      const close = clock(time.closeTime);
      if (close) closes.set(day, close);
      if (open && close) windows.set(day, [...(windows.get(day) ?? []), [open, close]]);
    }
  }
  for (const day of windows.values()) day.sort((a, b) => a[0].localeCompare(b[0]));
  return { windows, closes };
}

function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.includes('/');
  } catch {
    return false;
  }
}

/** One `PostOfficeLocation` → a record; null without a facility id or coordinates. */
function mapLocation(location: Json, carrierId: string, now: Date): CarrierPudoLocation | null {
  const id = text(location.facilityId);
  const geo = object(location.geoCoordinates);
  const lat = numeric(geo?.latitude);
  const lng = numeric(geo?.longitude);
  if (!id || lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  const where = object(location.facilityAddress) ?? {};
  const street = text(where.streetAddress) ?? '';
  const secondary = text(where.secondaryAddress);
  const city = text(where.city) ?? '';
  const state = (text(where.state) ?? '').toUpperCase();
  const zip = [text(where.ZIPCode), text(where.ZIPPlus4)].filter(Boolean).join('-');
  const name = text(location.facilityName) ?? street;
  const zoneText = text(location.timeZone);
  const timeZone = zoneText && isZone(zoneText) ? zoneText : (timezoneOf('US', state, { mainland: true }) ?? 'America/New_York');
  const offered = new Map(list(location.services).map((s) => [(text(s.service) ?? '').toUpperCase(), s]));
  const retail = weekOf(offered.get('RETAIL'));
  const hold = offered.has('HOLD_FOR_PICKUP');
  const pickup = weekOf(offered.get('HOLD_FOR_PICKUP'));
  const lastCollection = weekOf(offered.get('LAST_COLLECTION')).closes;
  const services = hold ? ['drop_off', 'pick_up'] : ['drop_off'];
  const weekFor: Record<string, Week> = {
    drop_off: retail.windows,
    pick_up: pickup.windows.size > 0 ? pickup.windows : retail.windows,
  };
  const opening_hours: OpeningHours[] = [];
  const operating_hours_calc: OperatingHoursCalc[] = [];
  const cutoff_hours: CarrierPudoLocation['cutoff_hours'] = [];
  for (const day of WEEKDAYS) {
    for (const [open, close] of retail.windows.get(day) ?? []) opening_hours.push({ day_of_week: day, open_hour: open, close_hour: close });
    const cutoff = lastCollection.get(day) ?? null;
    if (cutoff) cutoff_hours.push({ service: 'drop_off', day_of_week: day, cutoff_at: cutoff });
    for (const service of services) {
      const windows = weekFor[service].get(day) ?? [];
      if (windows.length > 0)
        operating_hours_calc.push(operatingDay(service, day, timeZone, windows, service === 'drop_off' ? cutoff : null));
    }
  }
  const type = (text(location.postOfficeType) ?? 'POST_OFFICE').toLowerCase();
  const address: PudoAddress = {
    location_types: [type],
    mapped_location_types: ['post_office'],
    location_type: type,
    mapped_location_type: 'post_office',
    entity_reference: id,
    address_name: name,
    full: [name, street, secondary, `${city}, ${state} ${zip}`.trim(), 'US'].filter(Boolean).join(', '),
    line1: street,
    line2: secondary,
    line3: null,
    street_name: street,
    house_number: '',
    postal_code: zip,
    city,
    state_or_province: state || null,
    region: null,
    country: 'US',
    country_code: 'US',
    phone: text(object(location.phoneNumbers)?.phone),
  };
  const miles = numeric(location.distance);
  const uuid = carrierPudoUuid(carrierId, id);
  return {
    pudo_location_uuid: uuid,
    uuid,
    carrier_id: carrierId,
    pudo_location_id: id,
    address,
    lat,
    lng,
    operating_hours_calc,
    opening_hours,
    cutoff_hours,
    closing_periods: [],
    validity_period: { from_date: now.toISOString().slice(0, 10), to_date: null },
    services,
    additional_info: {
      facility_id: id,
      ...(location.temporaryClosure === true ? { temporary_closure: true } : {}),
      ...(text(location.parking) ? { parking: text(location.parking) } : {}),
    },
    updated_date: now.toISOString(),
    ...(miles !== null && miles >= 0 ? { distance_meters: Math.round(miles * METERS_PER_MILE) } : {}),
  };
}

/** A locator answer (`{ locations: [...] }`) → the Post Offices it lists, temporarily closed ones left out; null when unreadable. */
export function mapLocationsAnswer(body: unknown, carrierId: string, now: Date): CarrierPudoLocation[] | null {
  const answer = object(body);
  if (!answer || (answer.locations !== undefined && !Array.isArray(answer.locations))) return null;
  const seen = new Set<string>();
  const locations: CarrierPudoLocation[] = [];
  for (const location of list(answer.locations)) {
    if (location.temporaryClosure === true) continue;
    const record = mapLocation(location, carrierId, now);
    if (!record || seen.has(record.pudo_location_id)) continue;
    seen.add(record.pudo_location_id);
    locations.push(record);
  }
  return locations;
}

/**
 * Post Offices near a point or a ZIP Code, with the tracking credentials (the USPS app needs the Locations
 * API). A search is a read: the transport may retry it. Outside the US there are none.
 */
export async function searchPostOffices(
  api: UspsApi,
  carrierId: string,
  query: CarrierPudoQuery,
  settings: CarrierSettings,
  options: { now: Date; signal?: AbortSignal },
): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
  if (query.country_code && !DOMESTIC_COUNTRIES.has(query.country_code.toUpperCase())) return { status: 'ok', locations: [] };
  const context = api.context(settings, options);
  if ('status' in context) return context;
  const params = locationsQuery(query);
  if (!params.has('LAT') && !params.has('ZIPCode') && !params.has('city')) return { status: 'ok', locations: [] };
  let wanted = query.services ?? [];
  wanted = wanted.filter((s) => s === 'pick_up' || s === 'drop_off');
  const response = await api.send(context, {
    method: 'GET',
    path: LOCATIONS_PATH,
    query: params,
    accept: 'application/json',
    payment: false,
    retry: true,
  });
  if ('retryable' in response) return response;
  const say = (message: string) => redact(message, context.secrets);
  if (response.status === 200) {
    const locations = mapLocationsAnswer(response.json(), carrierId, options.now);
    if (locations === null)
      return {
        status: 'error',
        retryable: true,
        message: say(`USPS's locator answer could not be read: ${response.text().slice(0, 200)}`),
      };
    return { status: 'ok', locations: locations.filter((l) => wanted.every((s) => l.services.includes(s))) };
  }
  const entries = errorEntries(response.json());
  if (response.status === 404 && entries.length > 0) return { status: 'ok', locations: [] };
  if (response.status >= 400 && response.status < 500 && entries.length > 0)
    return { status: 'error', retryable: false, message: say(`USPS refused the search (HTTP ${response.status}): ${describe(entries)}`) };
  return {
    status: 'error',
    retryable: response.status >= 500,
    message: say(`USPS's locator answer could not be read (HTTP ${response.status}): ${response.text().slice(0, 200)}`),
  };
}

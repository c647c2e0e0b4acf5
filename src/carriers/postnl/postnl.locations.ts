import { type OpeningWindow, operatingDay } from '../../core/operating-hours.js';
import type { OpeningHours, OperatingHoursCalc, PudoAddress } from '../../core/pudo-location.js';
import { type CarrierPudoLocation, type CarrierPudoQuery, carrierPudoUuid } from '../booking.js';
import type { CarrierError, CarrierSettings } from '../carrier.js';
import { redact } from '../sdk/http.js';
import { describeErrors, errorsOf } from './postnl.labelling.js';
import { listOf, objectOf, textOf } from './postnl.payload.js';
import type { PostnlApi } from './postnl.shipping.js';

/**
 * PostNL points near a place, through the Locations API v2_1 with the tracking API key: `GET
 * /shipment/v2_1/locations/nearest/geocode` (Latitude, Longitude, CountryCode) or `GET
 * /shipment/v2_1/locations/nearest` (CountryCode, PostalCode, City). Source: PostNL's Locations documentation and
 * the SDK documentation's models (LocationsResponseMultiple, Location, LocationsAddress, LocationsOpeningHours),
 * read 2026-11-29. A search is a read: the transport may retry it.
 */

export const LOCATIONS_PATH = '/shipment/v2_1/locations/nearest';
/** Countries the Locations API serves (`CountrycodeEnum`). */
const COUNTRIES = new Set(['NL', 'BE']);
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const ZONE = 'Europe/Amsterdam';

/** The query of a search: by point, or by postal code (PostNL's pattern: `1234` or `1234AB`). */
export function locationsQuery(query: CarrierPudoQuery, now: Date): { path: string } | { error: string } {
  const country = (query.country_code ?? 'NL').toUpperCase();
  if (!COUNTRIES.has(country)) return { error: 'PostNL searches its points in the Netherlands and Belgium.' };
  // PG: PostNL points, retail and lockers alike; PA: parcel lockers only (a search for lockers only is not ours to make).
  const params = new URLSearchParams({ CountryCode: country, DeliveryOptions: 'PG' });
  const date = new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, day: '2-digit', month: '2-digit', year: 'numeric' }).format(now);
  params.set('DeliveryDate', date.replace(/\//g, '-'));
  if (typeof query.lat === 'number' && typeof query.lng === 'number') {
    params.set('Latitude', String(query.lat));
    params.set('Longitude', String(query.lng));
    return { path: `${LOCATIONS_PATH}/geocode?${params}` };
  }
  const postal = (query.postal_code ?? '').replace(/\s+/g, '').toUpperCase();
  if (!/^[0-9]{4}([A-Z]{2})?$/.test(postal))
    return { error: 'PostNL searches by a postal code of four digits (and two letters in the Netherlands).' };
  params.set('PostalCode', postal);
  if (query.city) params.set('City', query.city);
  return { path: `${LOCATIONS_PATH}?${params}` };
}

/** `08:00-18:00` (or several, comma-separated) → opening windows. */
function windowsOf(value: unknown): OpeningWindow[] {
  const texts = [value, objectOf(value)?.string].flatMap((v) => (Array.isArray(v) ? v : [v])).map(textOf);
  const windows: OpeningWindow[] = [];
  for (const text of texts) {
    for (const part of (text ?? '').split(/[,;]/)) {
      const match = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/.exec(part);
      if (match) windows.push([`${match[1].padStart(2, '0')}:${match[2]}`, `${match[3].padStart(2, '0')}:${match[4]}`]);
    }
  }
  return windows.sort((a, b) => a[0].localeCompare(b[0])).slice(0, 2);
}

function mapLocation(location: Record<string, unknown>, carrierId: string, now: Date): CarrierPudoLocation | null {
  const id = textOf(location.LocationCode);
  const lat = Number(textOf(location.Latitude) ?? Number.NaN);
  const lng = Number(textOf(location.Longitude) ?? Number.NaN);
  if (!id || !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  const a = objectOf(location.Address) ?? {};
  const street = textOf(a.Street) ?? '';
  const number = [textOf(a.HouseNr), textOf(a.HouseNrExt)].filter(Boolean).join(' ');
  const postal = textOf(a.Zipcode) ?? '';
  const city = textOf(a.City) ?? '';
  const country = (textOf(a.Countrycode) ?? 'NL').toUpperCase();
  const name = textOf(location.Name) ?? id;
  const raw = objectOf(location.DeliveryOptions)?.string ?? location.DeliveryOptions;
  const options = (Array.isArray(raw) ? raw : [raw]).map(textOf).filter((o): o is string => o !== null);
  const locker = options.includes('PA') || /locker|automaat/i.test(name);
  const hours = objectOf(location.OpeningHours) ?? {};
  const opening_hours: OpeningHours[] = [];
  const operating_hours_calc: OperatingHoursCalc[] = [];
  for (const day of DAYS) {
    const key = `${day.charAt(0).toUpperCase()}${day.slice(1)}`;
    const windows = windowsOf(hours[key]);
    for (const [open, close] of windows) opening_hours.push({ day_of_week: day, open_hour: open, close_hour: close });
    if (windows.length > 0) operating_hours_calc.push(operatingDay('pick_up', day, ZONE, windows));
  }
  const line1 = [street, number].filter(Boolean).join(' ');
  const type = locker ? 'parcel_locker' : 'postnl_point';
  const address: PudoAddress = {
    location_types: [type],
    mapped_location_types: [locker ? 'parcel_locker' : 'parcel_shop'],
    location_type: type,
    mapped_location_type: locker ? 'parcel_locker' : 'parcel_shop',
    entity_reference: id,
    address_name: name,
    full: [name, line1, [postal, city].filter(Boolean).join(' '), country].filter(Boolean).join(', '),
    line1,
    line2: textOf(a.Remark),
    line3: null,
    street_name: street,
    house_number: number,
    postal_code: postal,
    city,
    state_or_province: null,
    region: null,
    country,
    country_code: country,
    phone: null,
  };
  const distance = Number(textOf(location.Distance) ?? Number.NaN);
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
    cutoff_hours: [],
    closing_periods: [],
    validity_period: { from_date: now.toISOString().slice(0, 10), to_date: null },
    services: ['pick_up'],
    additional_info: {
      location_code: id,
      ...(options.length > 0 ? { delivery_options: options } : {}),
      ...(textOf(location.RetailNetworkID) ? { retail_network_id: textOf(location.RetailNetworkID) } : {}),
    },
    updated_date: now.toISOString(),
    ...(Number.isFinite(distance) && distance >= 0 ? { distance_meters: Math.round(distance) } : {}),
  };
}

/** A `LocationsResponseMultiple` → the points it lists (none when PostNL found none); null when unreadable. */
export function mapLocationsAnswer(body: unknown, carrierId: string, now: Date): CarrierPudoLocation[] | null {
  const root = objectOf(body);
  if (!root || !('GetLocationsResult' in root)) return null;
  const result = objectOf(root.GetLocationsResult);
  const seen = new Set<string>();
  const locations: CarrierPudoLocation[] = [];
  for (const location of listOf(result?.ResponseLocation)) {
    const record = mapLocation(location, carrierId, now);
    if (!record || seen.has(record.pudo_location_id)) continue;
    seen.add(record.pudo_location_id);
    locations.push(record);
  }
  return locations;
}

export async function searchLocations(
  api: PostnlApi,
  carrierId: string,
  query: CarrierPudoQuery,
  settings: CarrierSettings,
  options: { now: Date; signal?: AbortSignal },
): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
  if (query.services?.length && !query.services.includes('pick_up')) return { status: 'ok', locations: [] };
  const asked = locationsQuery(query, options.now);
  if ('error' in asked) return { status: 'error', retryable: false, message: asked.error };
  const context = api.context(settings, options);
  if ('status' in context) return context;
  const response = await api.send(context, { method: 'GET', path: asked.path, retry: true });
  if ('retryable' in response) return response;
  const body = response.json();
  const say = (message: string) => redact(message, context.secrets);
  if (response.status === 200) {
    const locations = mapLocationsAnswer(body, carrierId, options.now);
    if (locations) return { status: 'ok', locations };
    return {
      status: 'error',
      retryable: true,
      message: say(`PostNL's Locations answer could not be read: ${response.text().slice(0, 200)}`),
    };
  }
  const errors = errorsOf(body);
  if (response.status >= 400 && response.status < 500 && errors.length > 0) {
    return {
      status: 'error',
      retryable: false,
      message: say(`PostNL refused the search (HTTP ${response.status}): ${describeErrors(errors)}`),
    };
  }
  return {
    status: 'error',
    retryable: response.status >= 500,
    message: say(`PostNL's Locations answer could not be read (HTTP ${response.status}): ${response.text().slice(0, 200)}`),
  };
}

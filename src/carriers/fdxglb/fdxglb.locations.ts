import { operatingDay } from '../../core/operating-hours.js';
import { type OpeningHours, type OperatingHoursCalc, type PudoAddress, WEEKDAYS } from '../../core/pudo-location.js';
import { type CarrierPudoLocation, type CarrierPudoQuery, carrierPudoUuid } from '../booking.js';
import type { CarrierError, CarrierSettings } from '../carrier.js';
import { redact } from '../sdk/http.js';
import { timezoneOf } from '../sdk/times.js';
import { describeErrors, fedexErrors } from './fdxglb.errors.js';
import { type Json, many, numeric, object, text } from './fdxglb.json.js';
import type { FedexApi } from './fdxglb.shipping.js';

/**
 * FedEx locations for Hold at Location through the Locations API (`POST /location/v1/locations`), searched by a
 * point or a postal code, and their answer (`output.locationDetailList[]`) → our PudoLocation records. Field names
 * and values: the Locations API's OpenAPI document (Locations-Resource). The mapping is pure and never throws.
 */

export const LOCATIONS_PATH = '/location/v1/locations';

/** A FedEx `locationType` → our standard type. */
const MAPPED_TYPES: Record<string, string> = {
  FEDEX_SELF_SERVICE_LOCATION: 'parcel_locker',
  FEDEX_ONSITE: 'parcel_shop',
  FEDEX_AUTHORIZED_SHIP_CENTER: 'parcel_shop',
  FEDEX_OFFICE: 'parcel_shop',
  FEDEX_SHIPSITE: 'parcel_shop',
  FEDEX_SHIP_AND_GET: 'parcel_shop',
};

const DAYS: Record<string, string> = {
  MONDAY: 'monday',
  TUESDAY: 'tuesday',
  WEDNESDAY: 'wednesday',
  THURSDAY: 'thursday',
  FRIDAY: 'friday',
  SATURDAY: 'saturday',
  SUNDAY: 'sunday',
};

/**
 * The search request. A search by a point is `GEOGRAPHIC_COORDINATES` with the country FedEx requires in every
 * search (`location.address.countryCode`): the query's, else the configuration's `search_country_code`.
 * Locations that hold parcels for pickup are asked for when the search wants `pick_up` (FedEx's capability
 * filter `transferOfPossessionType: HOLD_AT_LOCATION`), those that take parcels when it wants `drop_off`.
 */
export function locationsRequest(query: CarrierPudoQuery, country: string): Json {
  const point = typeof query.lat === 'number' && typeof query.lng === 'number';
  const capabilities = [
    ...(query.services?.includes('pick_up') ? [{ transferOfPossessionType: 'HOLD_AT_LOCATION' }] : []),
    ...(query.services?.includes('drop_off') ? [{ transferOfPossessionType: 'DROPOFF' }] : []),
  ];
  return {
    locationsSummaryRequestControlParameters: {
      distance: { units: 'KM', value: Math.min(400, Math.max(1, Math.ceil(query.radius_meters / 1000))) },
      maxResults: Math.min(50, Math.max(1, Math.round(query.limit))),
    },
    locationSearchCriterion: point ? 'GEOGRAPHIC_COORDINATES' : 'ADDRESS',
    location: {
      address: {
        ...(!point && query.city ? { city: query.city } : {}),
        ...(!point && query.postal_code ? { postalCode: query.postal_code.trim() } : {}),
        countryCode: country,
      },
      ...(point ? { longLat: { latitude: String(query.lat), longitude: String(query.lng) } } : {}),
    },
    multipleMatchesAction: 'RETURN_ALL',
    sort: { criteria: 'DISTANCE', order: 'ASCENDING' },
    ...(capabilities.length > 0 ? { locationCapabilities: capabilities } : {}),
  };
}

/** `HH:MM:SS` → `HH:MM`; null for anything else. */
function clock(value: unknown): string | null {
  const match = /^(\d{2}):(\d{2})(?::\d{2})?$/.exec(text(value) ?? '');
  return match && Number(match[1]) <= 24 && Number(match[2]) <= 59 ? `${match[1]}:${match[2]}` : null;
}

/** The regular week: windows per day (`OPEN_BY_HOURS` windows, `OPEN_ALL_DAY` as 00:00–23:59, closed days none). */
function weekOf(location: Json): Map<string, Array<[string, string]>> {
  const week = new Map<string, Array<[string, string]>>();
  for (const entry of many(location.storeHours)) {
    const day = DAYS[text(entry.dayofweek)?.toUpperCase() ?? ''];
    if (!day) continue;
    const type = text(entry.operationalHoursType)?.toUpperCase();
    const windows = week.get(day) ?? [];
    if (type === 'OPEN_ALL_DAY') windows.push(['00:00', '23:59']);
    else if (type !== 'CLOSED_ALL_DAY') {
      const hours = Array.isArray(entry.operationalHours) ? many(entry.operationalHours) : [object(entry.operationalHours) ?? {}];
      for (const window of hours) {
        const open = clock(window.begins);
        const close = clock(window.ends);
        if (open && close && open < close) windows.push([open, close]);
      }
    }
    week.set(
      day,
      windows.sort((a, b) => a[0].localeCompare(b[0])),
    );
  }
  return week;
}

/** Our services from the location's capabilities (an object or a list of them); none listed: it takes parcels, and holds them when asked for. */
function servicesOf(location: Json, askedPickUp: boolean): string[] {
  const raw = location.locationCapabilities;
  const capabilities = Array.isArray(raw) ? many(raw) : [object(raw)].filter((c): c is Json => c !== null);
  const services = new Set<string>();
  for (const capability of capabilities) {
    const transfer = text(capability.transferOfPossessionType)?.toUpperCase();
    if (transfer === 'HOLD_AT_LOCATION' || transfer === 'REDIRECT_TO_HOLD_AT_LOCATION') services.add('pick_up');
    if (transfer === 'DROPOFF') services.add('drop_off');
  }
  if (services.size === 0) {
    services.add('drop_off');
    if (askedPickUp) services.add('pick_up');
  }
  return ['drop_off', 'pick_up'].filter((s) => services.has(s));
}

/** One `locationDetailList` entry → a record; null without an id or coordinates. */
function mapLocation(location: Json, carrierId: string, now: Date, askedPickUp: boolean): CarrierPudoLocation | null {
  const id = text(location.locationId);
  const coordinates = object(location.geoPositionalCoordinates);
  const lat = numeric(coordinates?.latitude);
  const lng = numeric(coordinates?.longitude);
  if (!id || lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  const contactAndAddress = object(location.contactAndAddress);
  const address = object(contactAndAddress?.address) ?? {};
  const contact = object(contactAndAddress?.contact) ?? {};
  const lines = (Array.isArray(address.streetLines) ? address.streetLines : []).map(text).filter((l): l is string => l !== null);
  const country = (text(address.countryCode) ?? '').toUpperCase();
  const state = text(address.stateOrProvinceCode);
  const postal = text(address.postalCode) ?? '';
  const city = text(address.city) ?? '';
  const name = text(contact.companyName) ?? text(object(contactAndAddress?.addressAncillaryDetail)?.displayName) ?? lines[0] ?? id;
  const fedexType = text(location.locationType)?.toUpperCase() ?? null;
  const locker = object(location)?.lockerAvailability === true || fedexType === 'FEDEX_SELF_SERVICE_LOCATION';
  const mapped = locker ? 'parcel_locker' : (MAPPED_TYPES[fedexType ?? ''] ?? 'parcel_shop');
  const timeZone = timezoneOf(country, state, { mainland: true }) ?? 'UTC';
  const services = servicesOf(location, askedPickUp);
  const week = weekOf(location);
  const opening_hours: OpeningHours[] = [];
  const operating_hours_calc: OperatingHoursCalc[] = [];
  for (const day of WEEKDAYS) {
    const windows = week.get(day) ?? [];
    for (const [open, close] of windows) opening_hours.push({ day_of_week: day, open_hour: open, close_hour: close });
    if (windows.length === 0) continue;
    for (const service of services) operating_hours_calc.push(operatingDay(service, day, timeZone, windows));
  }
  const type = (fedexType ?? 'fedex_location').toLowerCase();
  const pudoAddress: PudoAddress = {
    location_types: [type],
    mapped_location_types: [mapped],
    location_type: type,
    mapped_location_type: mapped,
    entity_reference: id,
    address_name: name,
    full: [name, ...lines, [postal, city].filter(Boolean).join(' '), state, country].filter(Boolean).join(', '),
    line1: lines[0] ?? '',
    line2: lines[1] ?? null,
    line3: lines[2] ?? null,
    street_name: lines[0] ?? '',
    house_number: '',
    postal_code: postal,
    city,
    state_or_province: state,
    region: null,
    country,
    country_code: country,
    phone: text(contact.phoneNumber),
  };
  const distance = object(location.distance);
  const distanceValue = numeric(distance?.value);
  const meters =
    distanceValue === null ? undefined : Math.round(distanceValue * (text(distance?.units)?.toUpperCase() === 'MI' ? 1609.344 : 1000));
  const uuid = carrierPudoUuid(carrierId, id);
  return {
    pudo_location_uuid: uuid,
    uuid,
    carrier_id: carrierId,
    pudo_location_id: id,
    address: pudoAddress,
    lat,
    lng,
    operating_hours_calc,
    opening_hours,
    cutoff_hours: [],
    closing_periods: [],
    validity_period: { from_date: now.toISOString().slice(0, 10), to_date: null },
    services,
    additional_info: {
      ...(fedexType ? { fedex_location_type: fedexType } : {}),
      ...(typeof location.lockerAvailability === 'boolean' ? { locker_available: location.lockerAvailability } : {}),
      ...(text(location.specialInstructions) ? { special_instructions: text(location.specialInstructions) } : {}),
    },
    updated_date: now.toISOString(),
    ...(meters !== undefined && meters >= 0 ? { distance_meters: meters } : {}),
  };
}

/** A Find Locations answer (HTTP 200) → its locations; null when it is not one. */
export function mapLocationsResponse(body: unknown, carrierId: string, now: Date, askedPickUp = false): CarrierPudoLocation[] | null {
  const output = object(object(body)?.output);
  if (!output) return null;
  const seen = new Set<string>();
  const locations: CarrierPudoLocation[] = [];
  for (const entry of many(output.locationDetailList)) {
    const record = mapLocation(entry, carrierId, now, askedPickUp);
    if (!record || seen.has(record.pudo_location_id)) continue;
    seen.add(record.pudo_location_id);
    locations.push(record);
  }
  return locations;
}

/** FedEx's "no locations" answers: a 404 or a refusal whose code or message says nothing was found. */
function saysNoneFound(errors: ReadonlyArray<{ code: string | null; message: string | null }>): boolean {
  return errors.some(
    (e) => /NOT\.?FOUND|NO\.?LOCATIONS?/i.test(e.code ?? '') || /no\s+(?:\w+\s+)?locations?\s+(?:were\s+)?found/i.test(e.message ?? ''),
  );
}

/** FedEx locations near a point or a postal code, with the Ship project's credentials. A search is a read: the transport may retry it. */
export async function searchLocations(
  api: FedexApi,
  carrierId: string,
  query: CarrierPudoQuery,
  settings: CarrierSettings,
  options: { now: Date; signal?: AbortSignal },
): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
  const context = api.context(settings, options);
  if ('status' in context) return context;
  const country = (query.country_code ?? text(context.settings.search_country_code) ?? '').toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) {
    return {
      status: 'error',
      retryable: false,
      message:
        'FedEx searches locations within a country: search by postal_code and country_code, or set settings.search_country_code of the FedEx configuration for searches by lat and lng.',
    };
  }
  const response = await api.send(context, { method: 'POST', path: LOCATIONS_PATH, body: locationsRequest(query, country), retry: true });
  if ('retryable' in response) return response;
  const body = response.json();
  const say = (message: string) => redact(message, context.secrets);
  if (response.status === 200) {
    const locations = mapLocationsResponse(body, carrierId, options.now, query.services?.includes('pick_up') ?? false);
    if (locations === null)
      return {
        status: 'error',
        retryable: true,
        message: say(`FedEx's Locations answer could not be read: ${response.text().slice(0, 200)}`),
      };
    return { status: 'ok', locations };
  }
  const errors = fedexErrors(body);
  if (response.status >= 400 && response.status < 500 && errors.length > 0) {
    if (saysNoneFound(errors)) return { status: 'ok', locations: [] };
    return {
      status: 'error',
      retryable: false,
      message: say(`FedEx refused the search (HTTP ${response.status}): ${describeErrors(errors)}`),
    };
  }
  return {
    status: 'error',
    retryable: response.status >= 500,
    message: say(`FedEx's Locations answer could not be read (HTTP ${response.status}): ${response.text().slice(0, 200)}`),
  };
}

import { operatingDay } from '../../core/operating-hours.js';
import { type CutoffHours, type OpeningHours, type OperatingHoursCalc, type PudoAddress, WEEKDAYS } from '../../core/pudo-location.js';
import { type CarrierPudoLocation, type CarrierPudoQuery, carrierPudoUuid } from '../booking.js';
import { timezoneOf } from '../sdk/times.js';
import { type Json, many, numeric, object, text } from './upsglb.json.js';

/**
 * UPS Locator (`POST /api/locations/{version}/search/availabilities/64`, request option 64 "Search for UPS
 * Access Point Locations") → our PudoLocation records. Field names and codes: Locator.yaml
 * (UPS-API/api-documentation, MIT). Pure, and never a throw whatever the JSON.
 */

export const LOCATOR_VERSION = 'v3';
/** Request option 64: UPS Access Point locations. */
export const ACCESS_POINT_SEARCH = '64';

/** `ServiceOffering` codes → our service names (Locator.yaml: 001 Direct To Retail, 005 Pickup, 006 Drop Off, 007 PUDO, 009 Accept prepaid drop offs). */
const SERVICE_OFFERINGS: Readonly<Record<string, readonly string[]>> = {
  '001': ['pick_up'],
  '005': ['pick_up'],
  '006': ['drop_off'],
  '007': ['pick_up', 'drop_off'],
  '009': ['drop_off'],
};
/** Our service names UPS can filter by, with the code and description it wants. */
const FILTERS: Readonly<Record<string, { Code: string; Description: string }>> = {
  pick_up: { Code: '005', Description: 'Pickup' },
  drop_off: { Code: '006', Description: 'Drop Off' },
};

/** `Latitude`/`Longitude` "Length 15" (Locator.yaml: minLength and maxLength 15): the decimal padded to 15 characters. */
export function coordinate(value: number): string {
  const whole = String(Math.trunc(value)).replace(/^0$/, value < 0 ? '-0' : '0');
  const digits = Math.max(1, 15 - whole.length - 1);
  return value.toFixed(digits).slice(0, 15);
}

/** The Locator request of a search by point and/or postal code (and city) in a country. */
export function locatorRequest(query: CarrierPudoQuery): Json {
  const point = typeof query.lat === 'number' && typeof query.lng === 'number';
  const country = query.country_code?.toUpperCase();
  const filters = (query.services ?? []).map((s) => FILTERS[s]).filter(Boolean);
  const radiusKm = Math.min(150, Math.max(5, Math.ceil(query.radius_meters / 1000)));
  const listSize = String(Math.min(50, Math.max(1, Math.round(query.limit))));
  return {
    LocatorRequest: {
      Request: { RequestAction: 'Locator' },
      OriginAddress: {
        ...(point ? { Geocode: { Latitude: coordinate(query.lat as number), Longitude: coordinate(query.lng as number) } } : {}),
        ...(country
          ? {
              AddressKeyFormat: {
                ...(query.city ? { PoliticalDivision2: query.city } : {}),
                ...(query.postal_code ? { PostcodePrimaryLow: query.postal_code.replace(/\s+/g, '') } : {}),
                CountryCode: country,
              },
            }
          : {}),
        MaximumListSize: listSize,
      },
      Translate: { Locale: 'en_US' },
      UnitOfMeasurement: { Code: 'KM' },
      LocationSearchCriteria: {
        AccessPointSearch: {
          AccessPointStatus: '01',
          ...(filters.length > 0 ? { IncludeCriteria: { ServiceOfferingList: { ServiceOffering: filters } } } : {}),
        },
        MaximumListSize: listSize,
        SearchRadius: String(radiusKm),
      },
      SortCriteria: { SortType: '01' },
    },
  };
}

/** `HHMM` in "military format (e.g. 930, 1700 …) with exception for midnight … returned as 0" → `HH:MM`. */
function clock(value: unknown, closing: boolean): string | null {
  const raw = text(value);
  if (raw === null || !/^\d{1,4}$/.test(raw)) return null;
  const padded = raw.padStart(4, '0');
  const hours = Number(padded.slice(0, 2));
  const minutes = Number(padded.slice(2));
  if (hours > 24 || minutes > 59) return null;
  if (closing && hours === 0 && minutes === 0) return '23:59';
  return `${padded.slice(0, 2)}:${padded.slice(2)}`;
}

/** UPS days: 1 Sunday … 7 Saturday. */
const UPS_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

type Week = Map<string, Array<[string, string]>>;

/** Each hours type (`10` regular, `14` customer pickup, `50` drop off …) → its windows per day, and the drop-off cut-offs. */
function hoursByType(location: Json): { types: Map<string, Week>; cutoffs: Map<string, string> } {
  const types = new Map<string, Week>();
  const cutoffs = new Map<string, string>();
  for (const standard of many(object(location.OperatingHours)?.StandardHours)) {
    const type = text(standard.HoursType) ?? '10';
    const week = types.get(type) ?? new Map<string, Array<[string, string]>>();
    for (const entry of many(standard.DayOfWeek)) {
      const dayNumber = numeric(entry.Day);
      const day = dayNumber !== null && dayNumber >= 1 && dayNumber <= 7 ? UPS_DAYS[dayNumber - 1] : null;
      if (!day || entry.ClosedIndicator !== undefined) continue;
      const windows = week.get(day) ?? [];
      if (entry.Open24HoursIndicator !== undefined) windows.push(['00:00', '23:59']);
      else {
        const open = clock(entry.OpenHours, false);
        const close = clock(entry.CloseHours, true);
        if (open && close) windows.push([open, close]);
      }
      week.set(day, windows);
      const cutoff = type === '50' ? clock(entry.LatestDropOffHours, true) : null;
      if (cutoff) cutoffs.set(day, cutoff);
    }
    types.set(type, week);
  }
  for (const week of types.values()) for (const windows of week.values()) windows.sort((a, b) => a[0].localeCompare(b[0]));
  return { types, cutoffs };
}

function isIanaZone(zone: string): boolean {
  if (!zone.includes('/')) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Services from the location's service offerings; without any, an Access Point holds parcels (and takes them when shipping is available). */
function servicesOf(location: Json): string[] {
  const offered = many(object(location.ServiceOfferingList)?.ServiceOffering);
  const services = new Set<string>();
  for (const offering of offered) for (const s of SERVICE_OFFERINGS[text(offering.Code) ?? ''] ?? []) services.add(s);
  if (offered.length === 0) {
    services.add('pick_up');
    const shipping = object(object(object(location.AccessPointInformation)?.Availability)?.ShippingAvailability);
    if (shipping?.AvailableIndicator !== undefined) services.add('drop_off');
  }
  return ['drop_off', 'pick_up'].filter((s) => services.has(s));
}

function addressLines(value: unknown): string[] {
  const raw = Array.isArray(value) ? value.filter((v) => typeof v === 'string').join('\n') : typeof value === 'string' ? value : '';
  return raw
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/** One `DropLocation` → a record; null without an identifier or coordinates. */
function mapDropLocation(location: Json, carrierId: string, now: Date): CarrierPudoLocation | null {
  const info = object(location.AccessPointInformation);
  const id = text(info?.PublicAccessPointID) ?? text(location.LocationID);
  const geocode = object(location.Geocode);
  const lat = numeric(geocode?.Latitude);
  const lng = numeric(geocode?.Longitude);
  if (!id || lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  const key = object(location.AddressKeyFormat) ?? {};
  const lines = addressLines(key.AddressLine);
  const country = (text(key.CountryCode) ?? '').toUpperCase();
  const state = text(key.PoliticalDivision1);
  const postal = [text(key.PostcodePrimaryLow), text(key.PostcodeExtendedLow)].filter(Boolean).join('-');
  const city = text(key.PoliticalDivision2) ?? '';
  const name = text(key.ConsigneeName) ?? lines[0] ?? id;
  const classifications = many(object(info?.BusinessClassificationList)?.BusinessClassification).map((c) => ({
    code: text(c.Code),
    description: text(c.Description),
  }));
  const attributes = many(location.LocationAttribute).flatMap((a) =>
    many(a.OptionCode).map((o) => text(o.Description) ?? text(o.Name) ?? ''),
  );
  const locker = [name, ...classifications.map((c) => c.description ?? ''), ...attributes].some((t) => /locker/i.test(t));
  const zoneText = text(location.Timezone);
  const timeZone = zoneText && isIanaZone(zoneText) ? zoneText : (timezoneOf(country, state, { mainland: true }) ?? 'UTC');
  const phoneShown = text(location.DisplayPhoneNumberIndicator) !== '0';
  const phones = Array.isArray(location.PhoneNumber) ? location.PhoneNumber : [location.PhoneNumber];
  const phone = phoneShown ? (phones.map(text).find((p): p is string => p !== null) ?? null) : null;
  const services = servicesOf(location);
  const { types, cutoffs } = hoursByType(location);
  const regular = types.get('10') ?? types.values().next().value ?? new Map();
  const weekFor: Record<string, Week> = { pick_up: types.get('14') ?? regular, drop_off: types.get('50') ?? regular };

  const opening_hours: OpeningHours[] = [];
  const cutoff_hours: CutoffHours[] = [];
  const operating_hours_calc: OperatingHoursCalc[] = [];
  for (const day of WEEKDAYS) {
    for (const [open, close] of regular.get(day) ?? []) opening_hours.push({ day_of_week: day, open_hour: open, close_hour: close });
    const cutoff = services.includes('drop_off') ? (cutoffs.get(day) ?? null) : null;
    if (cutoff) cutoff_hours.push({ service: 'drop_off', day_of_week: day, cutoff_at: cutoff });
    for (const service of services) {
      const windows = weekFor[service]?.get(day) ?? [];
      if (windows.length === 0) continue;
      operating_hours_calc.push(operatingDay(service, day, timeZone, windows, service === 'drop_off' ? cutoff : null));
    }
  }

  const locationType = locker ? 'access_point_locker' : 'access_point';
  const address: PudoAddress = {
    location_types: [locationType],
    mapped_location_types: [locker ? 'parcel_locker' : 'parcel_shop'],
    location_type: locationType,
    mapped_location_type: locker ? 'parcel_locker' : 'parcel_shop',
    entity_reference: text(location.LocationID) ?? id,
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
    country: country,
    country_code: country,
    phone,
  };
  const distance = object(location.Distance);
  const distanceValue = numeric(distance?.Value);
  const unit = text(object(distance?.UnitOfMeasurement)?.Code)?.toUpperCase();
  const meters = distanceValue === null ? undefined : Math.round(distanceValue * (unit === 'MI' ? 1609.344 : 1000));
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
      ups_location_id: text(location.LocationID),
      ...(classifications.length > 0 ? { business_classifications: classifications } : {}),
      ...(text(object(info?.AccessPointStatus)?.Code) ? { access_point_status: text(object(info?.AccessPointStatus)?.Code) } : {}),
      ...(text(location.StandardHoursOfOperation) ? { standard_hours_of_operation: text(location.StandardHoursOfOperation) } : {}),
    },
    updated_date: now.toISOString(),
    ...(meters !== undefined && meters >= 0 ? { distance_meters: meters } : {}),
  };
}

/** A `LocatorResponse` (HTTP 200) → the Access Points it lists (none for an address UPS only offers candidates for); null when unreadable. */
export function mapLocatorResponse(body: unknown, carrierId: string, now: Date): CarrierPudoLocation[] | null {
  const response = object(object(body)?.LocatorResponse);
  if (!response) return null;
  const results = object(response.SearchResults);
  const seen = new Set<string>();
  const locations: CarrierPudoLocation[] = [];
  for (const location of many(results?.DropLocation)) {
    const record = mapDropLocation(location, carrierId, now);
    if (!record || seen.has(record.pudo_location_id)) continue;
    seen.add(record.pudo_location_id);
    locations.push(record);
  }
  return locations;
}

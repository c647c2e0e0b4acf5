import { type OpeningWindow, operatingDay } from '../../core/operating-hours.js';
import { type OpeningHours, type OperatingHoursCalc, type PudoAddress, WEEKDAYS } from '../../core/pudo-location.js';
import { type CarrierPudoLocation, type CarrierPudoQuery, carrierPudoUuid } from '../booking.js';
import type { CarrierError, CarrierSettings } from '../carrier.js';
import { redact } from '../sdk/http.js';
import { timezoneOf } from '../sdk/times.js';
import { str } from './glsglb.parties.js';
import { describeRefusal, refusalOf } from './glsglb.refusals.js';
import { SHIPIT_PATH } from './glsglb.shipit.js';
import type { GlsApi } from './glsglb.shipping.js';

/**
 * GLS ParcelShops near a point (`POST …/rs/parcelshop/distance`, `ParcelShopSearchDistance`) or an address
 * (`POST …/rs/parcelshop/address`, `ParcelShopSearchLocation`) → our PudoLocation records, through ShipIT with
 * the tracking credentials. Field names: the ShipIT REST "ParcelShop search" page and the ShipIT Farm API
 * reference; distances are read as kilometres. Mapping is pure and never throws whatever the JSON.
 */

/** `DayOfWeek` → our day names. */
const DAYS: Readonly<Record<string, (typeof WEEKDAYS)[number]>> = {
  MON: 'monday',
  TUE: 'tuesday',
  WED: 'wednesday',
  THU: 'thursday',
  FRI: 'friday',
  SAT: 'saturday',
  SUN: 'sunday',
};

/** A ParcelShop takes parcels to send and holds parcels for pick-up. */
const SERVICES = ['drop_off', 'pick_up'];

type Json = Record<string, unknown>;

function object(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function many(value: unknown): Json[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.map(object).filter((item): item is Json => item !== null);
}

function numeric(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.replace(',', '.')) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** The search body: by point when the query has one, else by postal code (and city) in a country. */
export function parcelShopSearch(query: CarrierPudoQuery): { path: string; body: Record<string, string> } {
  const distance = String(Math.max(1, Math.ceil(query.radius_meters / 1000)));
  const max = String(Math.max(1, Math.min(100, query.limit)));
  if (query.lat !== undefined && query.lng !== undefined) {
    return {
      path: `${SHIPIT_PATH}/parcelshop/distance`,
      body: { Latitude: String(query.lat), Longitude: String(query.lng), Distance: distance, MaxNumberOfShops: max },
    };
  }
  const body: Record<string, string> = { CountryCode: (query.country_code ?? '').toUpperCase(), Distance: distance, MaxNumberOfShops: max };
  if (query.postal_code) body.ZIPCode = query.postal_code;
  if (query.city) body.City = query.city;
  return { path: `${SHIPIT_PATH}/parcelshop/address`, body };
}

/**
 * A time of day as `HH:MM`: REST sends milliseconds since midnight with an offset of one hour ("28800000
 * corresponds to … 09:00"), the reference a date-time or a time text; null when unreadable.
 */
export function clockOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const minutes = Math.round(value / 60_000) + 60;
    if (minutes < 0 || minutes > 24 * 60) return null;
    const clipped = Math.min(minutes, 23 * 60 + 59);
    return `${String(Math.floor(clipped / 60)).padStart(2, '0')}:${String(clipped % 60).padStart(2, '0')}`;
  }
  const match = /(?:^|T)(\d{1,2}):(\d{2})/.exec(str(value));
  if (!match || Number(match[1]) > 24 || Number(match[2]) > 59) return null;
  return `${match[1].padStart(2, '0')}:${match[2]}`;
}

function windowsOf(hours: unknown): OpeningWindow[] {
  return many(object(hours)?.OpeningHours)
    .map((h) => [clockOf(h.From), clockOf(h.To)] as const)
    .filter((w): w is readonly [string, string] => w[0] !== null && w[1] !== null && w[0] < w[1]);
}

/** The opening windows of a day less its breaks, in order. */
function openWindows(day: Json): OpeningWindow[] {
  let windows = windowsOf(day.OpeningHours);
  for (const [from, to] of windowsOf(day.Breaks)) {
    windows = windows.flatMap(([open, close]): OpeningWindow[] => {
      if (to <= open || from >= close) return [[open, close]];
      const parts: OpeningWindow[] = [];
      if (from > open) parts.push([open, from]);
      if (to < close) parts.push([to, close]);
      return parts;
    });
  }
  return windows.sort((a, b) => a[0].localeCompare(b[0]));
}

/** One `ParcelShop` → a record; null without an id or coordinates. */
function mapParcelShop(shop: Json, carrierId: string, now: Date): CarrierPudoLocation | null {
  const id = str(shop.ParcelShopID);
  const location = object(shop.Location);
  const lat = numeric(location?.Latitude);
  const lng = numeric(location?.Longitude);
  if (!id || lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  const a = object(shop.Address) ?? {};
  const country = (str(a.CountryCode) || str(location?.CountryCode)).toUpperCase();
  const name = str(a.Name1) || id;
  const street = str(a.Street);
  const number = str(a.StreetNumber);
  const line1 = [street, number].filter(Boolean).join(' ');
  const postal = str(a.ZIPCode) || str(a.Zipcode);
  const city = str(a.City);
  const timeZone = timezoneOf(country, null, { mainland: true }) ?? 'UTC';
  const opening_hours: OpeningHours[] = [];
  const operating_hours_calc: OperatingHoursCalc[] = [];
  const days = new Map(many(shop.WorkingDay).map((d) => [DAYS[str(d.DayOfWeek).toUpperCase()], d] as const));
  for (const day of WEEKDAYS) {
    const entry = days.get(day);
    const windows = entry ? openWindows(entry) : [];
    for (const [open, close] of windows) opening_hours.push({ day_of_week: day, open_hour: open, close_hour: close });
    if (windows.length > 0) for (const service of SERVICES) operating_hours_calc.push(operatingDay(service, day, timeZone, windows));
  }
  const closing_periods = many(shop.Holidays)
    .map((h) => ({ from_date: str(h.StartDate).slice(0, 10), to_date: str(h.EndDate).slice(0, 10), reason: 'holidays' }))
    .filter((p) => /^\d{4}-\d{2}-\d{2}$/.test(p.from_date) && /^\d{4}-\d{2}-\d{2}$/.test(p.to_date));
  const phone = str(a.FixedLinePhonenumber) || str(a.MobilePhoneNumber) || null;
  const address: PudoAddress = {
    location_types: ['parcel_shop'],
    mapped_location_types: ['parcel_shop'],
    location_type: 'parcel_shop',
    mapped_location_type: 'parcel_shop',
    entity_reference: id,
    address_name: name,
    full: [name, line1, [postal, city].filter(Boolean).join(' '), country].filter(Boolean).join(', '),
    line1,
    line2: str(a.Name2) || null,
    line3: null,
    street_name: street,
    house_number: number,
    postal_code: postal,
    city,
    state_or_province: str(a.Province) || null,
    region: null,
    country,
    country_code: country,
    phone,
  };
  const km = numeric(shop.AirlineDistance);
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
    closing_periods,
    validity_period: { from_date: now.toISOString().slice(0, 10), to_date: null },
    services: [...SERVICES],
    additional_info: {},
    updated_date: now.toISOString(),
    ...(km !== null && km >= 0 ? { distance_meters: Math.round(km * 1000) } : {}),
  };
}

/** A `ListOfParcelShop` (or a bare list) → the ParcelShops it lists; null when it is neither. */
export function mapParcelShops(body: unknown, carrierId: string, now: Date): CarrierPudoLocation[] | null {
  const list = Array.isArray(body) ? body : object(body) ? object(body)?.ParcelShop : undefined;
  if (list === undefined && !object(body)) return null;
  const seen = new Set<string>();
  const locations: CarrierPudoLocation[] = [];
  for (const shop of many(list)) {
    const record = mapParcelShop(shop, carrierId, now);
    if (!record || seen.has(record.pudo_location_id)) continue;
    seen.add(record.pudo_location_id);
    locations.push(record);
  }
  return locations;
}

/** ParcelShops near the query's place. A search is a read: the transport may retry it. */
export async function searchParcelShops(
  api: GlsApi,
  carrierId: string,
  query: CarrierPudoQuery,
  settings: CarrierSettings,
  options: { now: Date; signal?: AbortSignal },
): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
  const context = api.context(settings, options);
  if ('status' in context) return context;
  const { path, body } = parcelShopSearch(query);
  const response = await api.send(context, { method: 'POST', path, body, retry: true });
  if ('retryable' in response) return response;
  const say = (message: string) => redact(message, context.secrets);
  if (response.status === 200) {
    const locations = mapParcelShops(response.json(), carrierId, options.now);
    if (locations === null)
      return {
        status: 'error',
        retryable: true,
        message: say(`GLS's ParcelShop answer could not be read: ${response.text().slice(0, 200)}`),
      };
    return { status: 'ok', locations };
  }
  if (response.status === 204 || response.status === 404) return { status: 'ok', locations: [] };
  const refusal = refusalOf(response);
  if (response.status >= 400 && response.status < 500 && refusal) {
    return {
      status: 'error',
      retryable: false,
      message: say(`GLS refused the ParcelShop search (HTTP ${response.status}): ${describeRefusal(refusal)}`),
    };
  }
  return {
    status: 'error',
    retryable: response.status >= 500,
    message: say(`GLS's ParcelShop answer could not be read (HTTP ${response.status}): ${response.text().slice(0, 200)}`),
  };
}

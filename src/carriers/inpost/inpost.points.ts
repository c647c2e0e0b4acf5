import { type OperatingHoursCalc, type PudoAddress, WEEKDAYS } from '../../core/pudo-location.js';
import { type CarrierPudoLocation, type CarrierPudoQuery, carrierPudoUuid } from '../booking.js';
import { INPOST_TIMEZONE } from './inpost.mapper.js';
import { listOf, objectOf, textOf } from './inpost.payload.js';

/**
 * ShipX's Points resource (`GET /v1/points`, public) → our pick-up points. A search near a place asks
 * `relative_point=lat,lng` (or `relative_post_code`) with `max_distance` in metres, sorted by distance; ShipX
 * answers a page (`items`) of points: `name` (the id bookings name as `target_point`), `type`, `status`,
 * `location`, `address`, `address_details`, `opening_hours`, `location_247`, `functions`, `distance`. Pure.
 */

/** The query of a search: only Poland is served by the Polish instance; null for another country. */
export function pointsQuery(query: CarrierPudoQuery): URLSearchParams | null {
  if (query.country_code && query.country_code.toUpperCase() !== 'PL') return null;
  const params = new URLSearchParams();
  if (query.lat !== undefined && query.lng !== undefined) params.set('relative_point', `${query.lat},${query.lng}`);
  else if (query.postal_code) {
    const digits = query.postal_code.replace(/[\s-]/g, '');
    params.set('relative_post_code', /^[0-9]{5}$/.test(digits) ? `${digits.slice(0, 2)}-${digits.slice(2)}` : query.postal_code.trim());
    if (query.city) params.set('city', query.city);
  } else return null;
  params.set('max_distance', String(Math.max(1, Math.round(query.radius_meters))));
  params.set('sort_by', 'distance_to_relative_point');
  params.set('per_page', String(Math.min(Math.max(query.limit, 1), 100)));
  // Points a parcel can be sent to: parcel lockers and the ParcelPoints that take locker parcels.
  params.set('type', 'parcel_locker');
  return params;
}

/** `functions` → our services: `parcel_collect` pick-up, `parcel_send` drop-off (both when it lists neither). */
function servicesOf(functions: unknown): string[] {
  const list = Array.isArray(functions) ? functions.map(textOf) : [];
  const services: string[] = [];
  if (list.some((f) => f === 'parcel_send' || f === 'parcel')) services.push('drop_off');
  if (list.some((f) => f === 'parcel_collect' || f === 'parcel')) services.push('pick_up');
  return services.length > 0 ? services : ['drop_off', 'pick_up'];
}

function coordinate(value: unknown): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? number : null;
}

/** One point → a record; null without a name or coordinates. */
function mapPoint(point: Record<string, unknown>, carrierId: string, now: Date): CarrierPudoLocation | null {
  const name = textOf(point.name);
  const location = objectOf(point.location);
  const lat = coordinate(location?.latitude);
  const lng = coordinate(location?.longitude);
  if (!name || lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  const details = objectOf(point.address_details) ?? {};
  const address = objectOf(point.address) ?? {};
  const types = Array.isArray(point.type) ? point.type.map(textOf).filter((t): t is string => t !== null) : [];
  const locker = types.length === 0 || types.includes('parcel_locker') || types.includes('parcel_locker_only');
  const street = textOf(details.street) ?? '';
  const building = [textOf(details.building_number), textOf(details.flat_number)].filter(Boolean).join('/');
  const line1 = textOf(address.line1) ?? [street, building].filter(Boolean).join(' ');
  const postal = textOf(details.post_code) ?? /^(\d{2}-\d{3})/.exec(textOf(address.line2) ?? '')?.[1] ?? '';
  const city = textOf(details.city) ?? (textOf(address.line2) ?? '').replace(/^\d{2}-\d{3}\s*/, '');
  const services = servicesOf(point.functions);
  const allDay = point.location_247 === true || /^24\s*\/\s*7$/.test(textOf(point.opening_hours) ?? '');
  const hours: OperatingHoursCalc[] = allDay
    ? WEEKDAYS.flatMap((day) =>
        services.map((service) => ({
          service_name: service,
          operating_day: day,
          time_zone: INPOST_TIMEZONE,
          first_open_hours: '00:00-23:59',
          second_open_hours: null,
          first_cutoff: null,
          second_cutoff: null,
        })),
      )
    : [];
  const type = locker ? 'parcel_locker' : 'pop';
  const pudoAddress: PudoAddress = {
    location_types: types.length > 0 ? types : [type],
    mapped_location_types: [locker ? 'parcel_locker' : 'parcel_shop'],
    location_type: type,
    mapped_location_type: locker ? 'parcel_locker' : 'parcel_shop',
    entity_reference: name,
    address_name: name,
    full: [name, line1, [postal, city].filter(Boolean).join(' '), 'Poland'].filter(Boolean).join(', '),
    line1,
    line2: textOf(point.location_description),
    line3: null,
    street_name: street || line1,
    house_number: building,
    postal_code: postal,
    city,
    state_or_province: textOf(details.province),
    region: null,
    country: 'Poland',
    country_code: 'PL',
    phone: textOf(point.phone_number),
  };
  const distance = coordinate(point.distance);
  const uuid = carrierPudoUuid(carrierId, name);
  return {
    pudo_location_uuid: uuid,
    uuid,
    carrier_id: carrierId,
    pudo_location_id: name,
    address: pudoAddress,
    lat,
    lng,
    operating_hours_calc: hours,
    opening_hours: allDay ? WEEKDAYS.map((day) => ({ day_of_week: day, open_hour: '00:00', close_hour: '23:59' })) : [],
    cutoff_hours: [],
    closing_periods: [],
    validity_period: { from_date: now.toISOString().slice(0, 10), to_date: null },
    services,
    additional_info: {
      point_types: types,
      ...(textOf(point.status) ? { status: textOf(point.status) } : {}),
      ...(textOf(point.opening_hours) ? { opening_hours: textOf(point.opening_hours) } : {}),
      ...(textOf(point.location_type) ? { location_type: textOf(point.location_type) } : {}),
    },
    updated_date: now.toISOString(),
    ...(distance !== null && distance >= 0 ? { distance_meters: Math.round(distance) } : {}),
  };
}

/** A page of points → the ones in operation (ShipX's `status` `Operating`, or none given); null when unreadable. */
export function mapPoints(body: unknown, carrierId: string, now: Date): CarrierPudoLocation[] | null {
  const page = objectOf(body);
  if (!page || !Array.isArray(page.items)) return null;
  const seen = new Set<string>();
  const locations: CarrierPudoLocation[] = [];
  for (const point of listOf(page.items)) {
    const status = textOf(point.status);
    if (status && status !== 'Operating') continue;
    const record = mapPoint(point, carrierId, now);
    if (!record || seen.has(record.pudo_location_id)) continue;
    seen.add(record.pudo_location_id);
    locations.push(record);
  }
  return locations;
}

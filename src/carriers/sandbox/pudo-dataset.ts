import { destinationPoint } from '../../core/geo.js';
import { PostalCentroidIndex } from '../../core/postal-centroids.js';
import type { ClosingPeriod, PudoAddress, PudoLocationRecord, ValidityPeriod } from '../../core/pudo-location.js';
import { SANDBOX_CITIES, type SandboxCity } from './pudo-cities.js';
import { hoursFields, type PudoKind, weeklySchedule } from './pudo-hours.js';
import { SeededRandom } from './pudo-random.js';
import { SANDBOX_PUDO_NAMESPACE, uuidV5 } from './pudo-uuid.js';

/** Carrier id of the sandbox carrier (same as SandboxCarrier.id). */
export const SANDBOX_CARRIER_ID = 'sandbx';

export interface PudoDatasetOptions {
  /** Any string; the same seed always gives the same data set. Default `waybill-sandbox-pudo-v1`. */
  seed?: string;
  /** Multiplies each city's number of locations (default 1: about 3,700 locations). */
  scale?: number;
  /** Cities to include, by code (`BER`, `AMS`, `PAR`, `LON`, `NYC`, `SIN`); default all. */
  cities?: string[];
}

export const DEFAULT_PUDO_SEED = 'waybill-sandbox-pudo-v1';

/** Every `updated_date` lies in the half year before this instant; fixed so the data never depends on today. */
const DATA_AS_OF = Date.UTC(2026, 0, 1);

const KIND_WEIGHTS: Record<PudoKind, number> = { parcel_shop: 60, parcel_locker: 30, post_office: 10 };
const CARRIER_TYPES: Record<PudoKind, readonly string[][]> = {
  parcel_shop: [['shop'], ['shop', 'kiosk'], ['shop', 'service_point']],
  parcel_locker: [['locker'], ['locker', 'automat']],
  post_office: [['post_office'], ['post_office', 'service_point']],
};

/**
 * Generates the sandbox carrier's PUDO locations: a deterministic, realistic-looking set across Berlin,
 * Amsterdam, Paris, London, New York and Singapore, with every field of the interface's PudoLocation
 * except the per-query `distance_meters`. Pure: no clock, no I/O.
 */
export function generatePudoDataset(options: PudoDatasetOptions = {}): PudoLocationRecord[] {
  const seed = options.seed ?? DEFAULT_PUDO_SEED;
  const scale = options.scale ?? 1;
  const cities = options.cities ? SANDBOX_CITIES.filter((city) => options.cities!.includes(city.code)) : SANDBOX_CITIES;
  const records: PudoLocationRecord[] = [];
  for (const city of cities) {
    // one generator per city: adding a city or changing another city's count leaves this one unchanged
    const random = new SeededRandom(`${seed}:${city.code}`);
    const count = Math.round(city.count * scale);
    for (let index = 1; index <= count; index++) records.push(generateLocation(city, index, random));
  }
  return records;
}

function generateLocation(city: SandboxCity, index: number, random: SeededRandom): PudoLocationRecord {
  const pudoLocationId = `SBX-${city.code}-${String(index).padStart(5, '0')}`;
  const uuid = uuidV5(`${SANDBOX_CARRIER_ID}:${pudoLocationId}`, SANDBOX_PUDO_NAMESPACE);
  // uniform over the disc: the square root keeps the density even from centre to edge
  const point = destinationPoint(city, random.next() * 360, city.radius_meters * Math.sqrt(random.next()));
  const lat = round(point.lat, 6);
  const lng = round(point.lng, 6);
  const kind = random.weighted(KIND_WEIGHTS);
  const services =
    kind === 'parcel_shop' ? ['drop_off', 'pick_up', ...(random.chance(0.7) ? ['returns'] : [])] : ['drop_off', 'pick_up', 'returns'];
  const schedule = weeklySchedule(kind, random);
  const address = generateAddress(city, kind, pudoLocationId, lat, lng, random);
  const updated = new Date(DATA_AS_OF - random.int(0, 180 * 24 * 60) * 60_000);
  return {
    pudo_location_uuid: uuid,
    uuid,
    carrier_id: SANDBOX_CARRIER_ID,
    pudo_location_id: pudoLocationId,
    address,
    lat,
    lng,
    ...hoursFields(schedule, services, city.time_zone, kind),
    closing_periods: closingPeriods(kind, random),
    validity_period: validityPeriod(random),
    services,
    additional_info: {
      max_weight_grams: kind === 'parcel_locker' ? 20_000 : 31_500,
      wheelchair_accessible: random.chance(0.6),
      parking: random.chance(0.4),
      ...(kind === 'parcel_locker' ? { compartments: random.int(24, 160) } : {}),
    },
    updated_date: updated.toISOString(),
  };
}

function generateAddress(city: SandboxCity, kind: PudoKind, id: string, lat: number, lng: number, random: SeededRandom): PudoAddress {
  const streetName = random.pick(city.streets);
  const houseNumber = String(random.int(1, 180)) + (!city.number_first && random.chance(0.1) ? random.pick(['a', 'b', 'c']) : '');
  const line1 = city.number_first ? `${houseNumber} ${streetName}` : `${streetName} ${houseNumber}`;
  const postalCode = city.postal_code(districtOf(city, lat, lng), random);
  const addressName =
    kind === 'parcel_locker'
      ? `Sandbox Locker ${streetName}`
      : kind === 'post_office'
        ? `${city.city} Post Office ${postalCode}`
        : `${random.pick(city.shop_names)} ${streetName}`;
  const locationTypes = random.pick(CARRIER_TYPES[kind]);
  const locality =
    city.country_code === 'US'
      ? `${city.city}, ${city.state_or_province} ${postalCode}`
      : city.country_code === 'GB'
        ? `${city.city} ${postalCode}`
        : `${postalCode} ${city.city}`;
  return {
    location_types: [...locationTypes],
    mapped_location_types: [kind],
    location_type: locationTypes[0],
    mapped_location_type: kind,
    entity_reference: id,
    address_name: addressName,
    full: [addressName, line1, locality, city.country].join(', '),
    line1,
    line2: null,
    line3: null,
    street_name: streetName,
    house_number: houseNumber,
    postal_code: postalCode,
    city: city.city,
    state_or_province: city.state_or_province,
    region: city.region,
    country: city.country,
    country_code: city.country_code,
    phone: kind === 'parcel_locker' ? null : `${city.phone_prefix}${String(random.int(1_000_000, 9_999_999))}`,
  };
}

/** Index of the grid district holding (lat, lng): the grid covers the square around the city's circle. */
function districtOf(city: SandboxCity, lat: number, lng: number): number {
  const north = destinationPoint(city, 0, city.radius_meters).lat;
  const east = destinationPoint(city, 90, city.radius_meters).lng;
  const row = clampCell(Math.floor(((north - lat) / (2 * (north - city.lat))) * city.grid), city.grid);
  const column = clampCell(Math.floor(((lng - (2 * city.lng - east)) / (2 * (east - city.lng))) * city.grid), city.grid);
  return row * city.grid + column;
}

function clampCell(cell: number, grid: number): number {
  return Math.min(grid - 1, Math.max(0, cell));
}

function closingPeriods(kind: PudoKind, random: SeededRandom): ClosingPeriod[] {
  if (kind === 'parcel_locker' || !random.chance(0.2)) return [];
  if (random.chance(0.5)) return [{ from_date: '2026-12-24', to_date: '2026-12-26', reason: 'holiday' }];
  const start = new Date(Date.UTC(2026, 0, 1) + random.int(20, 300) * 86_400_000);
  const end = new Date(start.getTime() + random.int(2, 14) * 86_400_000);
  return [{ from_date: isoDate(start), to_date: isoDate(end), reason: random.pick(['renovation', 'vacation', 'inventory']) }];
}

function validityPeriod(random: SeededRandom): ValidityPeriod {
  const from = new Date(Date.UTC(2019, 0, 1) + random.int(0, 6 * 365) * 86_400_000);
  const to = random.chance(0.03) ? new Date(Date.UTC(2026, 0, 1) + random.int(30, 365) * 86_400_000) : null;
  return { from_date: isoDate(from), to_date: to ? isoDate(to) : null };
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

let defaultDataset: readonly PudoLocationRecord[] | null = null;
let defaultCentroids: PostalCentroidIndex | null = null;

/** The default data set, generated once per process and shared (treat it as read-only). */
export function sandboxPudoDataset(): readonly PudoLocationRecord[] {
  defaultDataset ??= generatePudoDataset();
  return defaultDataset;
}

/** Postal-code centroids of the default data set, for `postal_code + country_code` searches in the sandbox. */
export function sandboxPostalCentroids(): PostalCentroidIndex {
  defaultCentroids ??= new PostalCentroidIndex(sandboxPudoDataset());
  return defaultCentroids;
}

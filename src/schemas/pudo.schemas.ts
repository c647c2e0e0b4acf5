import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from './common.js';
import { OperatingHours } from './shipment-output.schemas.js';

const S = () => Type.String();
const NS = () => Nullable(Type.String());

const addressFields = [
  'location_type',
  'mapped_location_type',
  'entity_reference',
  'address_name',
  'full',
  'line1',
  'line2',
  'line3',
  'street_name',
  'house_number',
  'postal_code',
  'city',
  'state_or_province',
  'region',
  'country',
  'country_code',
  'phone',
] as const;

export const PudoLocationSchema = Type.Object({
  pudo_location_uuid: Type.String({ format: 'uuid' }),
  uuid: Type.String({ format: 'uuid' }),
  carrier_id: S(),
  pudo_location_id: S(),
  address: Type.Object({
    location_types: Type.Array(S()),
    mapped_location_types: Type.Array(S()),
    ...Object.fromEntries(addressFields.map((f) => [f, NS()])),
  }),
  lat: Type.Number(),
  lng: Type.Number(),
  distance_meters: Type.Number(),
  operating_hours_calc: Type.Array(OperatingHours),
  opening_hours: Type.Array(Type.Object({ day_of_week: S(), open_hour: S(), close_hour: S() })),
  cutoff_hours: Type.Array(Type.Object({ service: S(), day_of_week: S(), cutoff_at: S() })),
  closing_periods: Type.Array(Type.Object({ from_date: S(), to_date: S(), reason: NS() })),
  validity_period: Type.Object({ from_date: NS(), to_date: NS() }),
  services: Type.Array(S()),
  additional_info: Type.Record(Type.String(), Type.Unknown()),
  updated_date: S(),
});

export const PudoQuerySchema = Type.Object(
  {
    carrier_reference: Type.String({ minLength: 1, maxLength: 50 }),
    lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
    lng: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
    postal_code: Type.Optional(Type.String({ minLength: 1, maxLength: 25 })),
    country_code: Type.Optional(Type.String({ minLength: 2, maxLength: 2 })),
    radius_meters: Type.Optional(Type.Integer({ minimum: 1, maximum: 50_000, default: 5_000 })),
    services: Type.Optional(Type.String({ maxLength: 200, description: 'Comma-separated, e.g. drop_off,returns' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);

/** A search, as the PUDO service takes it. */
export type PudoQuery = Static<typeof PudoQuerySchema>;

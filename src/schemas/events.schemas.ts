import { Type } from '@sinclair/typebox';
import { EVENT_LOCATION_FIELDS } from './shipment-output.schemas.js';

const LocationInput = Type.Object(
  {
    place: Type.Optional(Type.String({ maxLength: 500 })),
    ...Object.fromEntries(EVENT_LOCATION_FIELDS.map((f) => [f, Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()]))])),
  },
  { additionalProperties: false },
);

export const ManualEventInput = Type.Object(
  {
    event: Type.String({ minLength: 1, maxLength: 500 }),
    event_key: Type.Optional(Type.String({ maxLength: 50 })),
    time: Type.String({ minLength: 1, maxLength: 40, description: 'A date, or a date-time with or without offset' }),
    timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA timezone' })),
    location: Type.Optional(LocationInput),
    additional_info: Type.Optional(Type.Record(Type.String({ maxLength: 50 }), Type.Unknown(), { maxProperties: 50 })),
  },
  { additionalProperties: false },
);

export const EventsCreateBody = Type.Object(
  {
    shipment_uuid: Type.Optional(Type.String({ format: 'uuid' })),
    shipment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    events: Type.Array(ManualEventInput, { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);

export const EventsCreated = Type.Object({ shipment_uuid: Type.String({ format: 'uuid' }), events_created: Type.Integer() });

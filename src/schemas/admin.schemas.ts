import { Type } from '@sinclair/typebox';
import { FEATURES } from '../core/features.js';
import { CarrierRecord } from './common.js';

const Feature = Type.Union(FEATURES.map((f) => Type.Literal(f)));

const StrictFields = Type.Boolean({
  description: 'true: unknown fields in request bodies are refused (4030); false (default): ignored and named in Waybill-Ignored-Fields',
});

export const AccountUuidParams = Type.Object({ account_uuid: Type.String({ format: 'uuid' }) });

export const AccountCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    features: Type.Optional(Type.Array(Feature, { maxItems: 10 })),
    strict_fields: Type.Optional(StrictFields),
  },
  { additionalProperties: false },
);

export const AccountUpdateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    features: Type.Optional(Type.Array(Feature, { maxItems: 10 })),
    strict_fields: Type.Optional(StrictFields),
  },
  { additionalProperties: false },
);

export const Account = Type.Object({
  account_uuid: Type.String({ format: 'uuid' }),
  name: Type.String(),
  features: Type.Array(Type.String()),
  strict_fields: StrictFields,
  created_date: Type.String(),
  updated_date: Type.String(),
});

export const Credentials = Type.Object({ client_id: Type.String(), client_secret: Type.String() });

export const CredentialSummary = Type.Object({
  client_id: Type.String(),
  created_date: Type.String(),
  revoked_date: Type.Union([Type.String(), Type.Null()]),
});

export const CarrierConfigCreateBody = Type.Object(
  {
    carrier_reference: Type.String({ minLength: 1, maxLength: 50 }),
    carrier_id: Type.String({ minLength: 6, maxLength: 6 }),
    booking: Type.Optional(Type.Array(Type.Union([Type.Literal('outbound'), Type.Literal('return')]), { maxItems: 2 })),
    fallback: Type.Optional(
      Type.Boolean({
        description:
          "The account's fallback: tracks every shipment given without carrier_reference whose number no other configuration claims (tracking aggregators only; one per account)",
      }),
    ),
    settings: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 100 })),
  },
  { additionalProperties: false },
);

/** A change to a configuration: `booking` replaces the booking kinds; `settings` is a merge patch (null removes a setting). */
export const CarrierConfigPatchBody = Type.Object(
  {
    booking: Type.Optional(Type.Array(Type.Union([Type.Literal('outbound'), Type.Literal('return')]), { maxItems: 2 })),
    fallback: Type.Optional(
      Type.Boolean({
        description:
          "The account's fallback: tracks every shipment given without carrier_reference whose number no other configuration claims (tracking aggregators only; one per account)",
      }),
    ),
    settings: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 100 })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const CarrierConfig = Type.Object({
  carrier_reference: Type.String(),
  carrier: CarrierRecord,
  booking: Type.Object({ outbound: Type.Boolean(), return: Type.Boolean() }),
  fallback: Type.Boolean({ description: "The account's fallback for numbers no other configuration claims" }),
  settings: Type.Record(Type.String(), Type.Unknown(), { description: 'The settings as stored; secret settings read "********"' }),
  created_date: Type.String(),
  updated_date: Type.String(),
});

/** The answer to adding a configuration: for a carrier that pushes, also its push token (shown once) and URLs. */
export const CarrierConfigCreated = Type.Object({
  ...CarrierConfig.properties,
  push_token: Type.Optional(Type.String()),
  push_url: Type.Optional(Type.String()),
  push_token_url: Type.Optional(
    Type.String({
      description:
        'OAuth 2.0 token URL for carriers that fetch a token before pushing (UPS Track Alert): client secret = push_token, any client id',
    }),
  ),
});

/** An adapter in the catalogue: what it can do, what it needs, what the carrier allows. */
export const CarrierCatalogueEntry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  countries: Type.Array(Type.String()),
  capabilities: Type.Object({ tracking: Type.Boolean(), booking: Type.Boolean(), pudo: Type.Boolean(), push: Type.Boolean() }),
  environments: Type.Array(Type.String()),
  settings_schema: Type.Unknown({ description: 'JSON Schema of the settings; secret settings carry "x-secret": true' }),
  operator_settings: Type.Array(Type.String(), { description: 'Settings this deployment provides through WAYBILL_CARRIER_<ID>_<SETTING>' }),
  base_url_overridden: Type.Boolean(),
  products: Type.Array(
    Type.Object({
      code: Type.String({ description: "What a shipment's shipping_service holds to book it" }),
      name: Type.String(),
      types: Type.Array(Type.String(), { description: 'outbound, return' }),
      destinations: Type.Optional(Type.Array(Type.String(), { description: 'domestic, eu, international, or ISO country codes' })),
    }),
    { description: 'What the carrier books (empty when it does not book, or books any service)' },
  ),
  max_parcels: Type.Union([Type.Number({ description: 'Most parcels in one booking' }), Type.Null()]),
  booking: Type.Union([
    Type.Object({
      returns: Type.Boolean({ description: 'Whether a product books return labels' }),
      cancel: Type.String({ description: 'How a booking is cancelled with this carrier, and until when' }),
      lost_answer_lookup: Type.Boolean({ description: 'Whether a booking whose answer was lost is looked up at the carrier' }),
      carrier_validation: Type.Boolean({ description: 'Whether POST /v5/booking/validate/ asks the carrier' }),
    }),
    Type.Null(),
  ]),
  limits: Type.Union([
    Type.Object({
      numbers_per_call: Type.Number(),
      concurrent_calls: Type.Number(),
      requests_per_second: Type.Number(),
      daily_quota: Type.Union([Type.Number(), Type.Null()]),
      quota_reset_utc: Type.String(),
      min_poll_interval_seconds: Type.Number(),
    }),
    Type.Null(),
  ]),
});

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
    settings: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 100 })),
  },
  { additionalProperties: false },
);

export const CarrierConfig = Type.Object({
  carrier_reference: Type.String(),
  carrier: CarrierRecord,
  booking: Type.Object({ outbound: Type.Boolean(), return: Type.Boolean() }),
  created_date: Type.String(),
  updated_date: Type.String(),
});

/** The answer to adding a configuration: for a carrier that pushes, also its push token (shown once) and URL. */
export const CarrierConfigCreated = Type.Object({
  ...CarrierConfig.properties,
  push_token: Type.Optional(Type.String()),
  push_url: Type.Optional(Type.String()),
});

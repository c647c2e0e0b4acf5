import { type TNull, type TProperties, type TSchema, type TUnion, Type } from '@sinclair/typebox';

/** Nullable helper: `T|null` in the interface's notation. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `T|null` with T's description on the union, where the OpenAPI document and the typed client show it. */
export const NullableDescribed = <T extends TSchema>(schema: T) =>
  Type.Union([schema, Type.Null()], schema.description ? { description: schema.description } : {});

/**
 * Every member of an input object made nullable: the details show an empty member as null, so a body read from
 * them has nulls where nothing is stored. The service reads such a null as the member left out.
 */
export const NullableMembers = <T extends TProperties>(members: T) =>
  Object.fromEntries(Object.entries(members).map(([key, schema]) => [key, NullableDescribed(schema)])) as {
    [K in keyof T]: TUnion<[T[K], TNull]>;
  };

/**
 * A field of the details that an update does not write (a uuid, a date, the status, the events…): accepted with
 * any value and ignored, so the details can be sent back whole.
 */
export const ReadOnly = () => Type.Optional(Type.Unknown({ readOnly: true, description: 'Read-only: accepted and ignored' }));

/** A success envelope: `{"api_response": "200", "data": ...}`. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ api_response: Type.String({ examples: ['200'] }), data }, { additionalProperties: false });

/**
 * Messages by field, as a `4030` error gives them: a field maps to its messages, an object or an array position
 * (as a string, `"0"`) to the messages of its own fields, nested as deep as the body.
 */
export const FieldErrors = Type.Record(Type.String(), Type.Union([Type.Array(Type.String()), Type.Ref('FieldErrors')]), {
  $id: 'FieldErrors',
  description: 'Field → list of messages; nested objects and array positions (as strings) nest further',
  examples: [
    { recipient_address: { email: ['Enter a valid email address.'] }, line_items: { '0': { quantity: ['This field is required.'] } } },
  ],
});

export const ErrorEnvelope = Type.Object(
  {
    api_response: Type.Union([Type.String(), Type.Integer()], {
      description: 'A string for application errors, an integer (403, 429) for gateway errors',
    }),
    message: Type.String(),
    error: Type.Optional(Type.String({ description: 'OAuth 2.0 error code, on the token endpoint' })),
    errors: Type.Optional(Type.Ref('FieldErrors')),
    data: Type.Optional(Type.Unknown()),
  },
  { $id: 'ErrorEnvelope', description: 'Every failure of the API' },
);

/** The error responses every merchant endpoint may give. */
export const merchantErrors = {
  400: Type.Ref('ErrorEnvelope'),
  403: Type.Ref('ErrorEnvelope'),
  429: Type.Ref('ErrorEnvelope'),
  500: Type.Ref('ErrorEnvelope'),
};

export const CarrierRecord = Type.Object(
  {
    id: Type.String({ description: '6-character carrier identifier' }),
    name: Type.String(),
    country_iso: Type.Array(Type.String()),
    language: Nullable(Type.Array(Type.String())),
    supported_languages: Type.Array(Type.String()),
    contact: Nullable(Type.String()),
    site_link: Nullable(Type.String()),
  },
  { description: 'A carrier' },
);

export const bearerSecurity = [{ bearerAuth: [] as string[] }];
export const adminSecurity = [{ adminToken: [] as string[] }];

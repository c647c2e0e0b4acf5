import { Type } from '@sinclair/typebox';
import { LANGUAGES } from '../i18n/languages.js';
import { Nullable, ReadOnly } from './common.js';
import { REFUND_METHODS, RETURN_METHODS } from './returns.schemas.js';

const literalUnion = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** A reason's text per consumer language; a language left out shows `label`. */
const Translations = Type.Object(
  Object.fromEntries(LANGUAGES.map((language) => [language, Type.Optional(Type.String({ minLength: 1, maxLength: 200 }))])),
  { additionalProperties: false, description: 'The text per language (en, de, fr, nl, es, it); others show label' },
);

export const ReturnReasonInput = Type.Object(
  {
    code: Type.String({
      pattern: '^[a-z0-9_]{1,40}$',
      description: 'Stored on the return (lower-case letters, digits, _); unique in the list',
    }),
    label: Type.String({ minLength: 1, maxLength: 200, description: 'The text shown in a language without a translation' }),
    translations: Type.Optional(Translations),
  },
  { additionalProperties: false },
);

const Money = Type.Object(
  {
    amount: Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,12}(\\.[0-9]{1,4})?$', maxLength: 17 })], {
      description: 'An amount ≥ 0, as a number or a decimal string',
    }),
    currency: Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217' }),
  },
  { additionalProperties: false },
);

const ProductKeys = (maxLength: number) => Type.Array(Type.String({ minLength: 1, maxLength }), { maxItems: 1000 });

/** What PUT /v5/returns/policy/ replaces: every field, as GET answers it (its read-only fields are ignored). */
export const ReturnPolicyBody = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Whether the returns portal takes returns' }),
    portal_name: Nullable(Type.String({ minLength: 1, maxLength: 100, description: "The portal's title; null: the account's name" })),
    return_window_days: Type.Integer({ minimum: 1, maximum: 365, description: 'Days after delivery an item can be returned' }),
    reasons: Type.Array(ReturnReasonInput, { minItems: 1, maxItems: 30 }),
    return_methods: Type.Array(literalUnion(RETURN_METHODS), { minItems: 1, maxItems: RETURN_METHODS.length }),
    refund_methods: Type.Array(literalUnion(REFUND_METHODS), { minItems: 1, maxItems: REFUND_METHODS.length }),
    auto_approval: Type.Object(
      {
        enabled: Type.Boolean({ description: 'Approve a return at once when it is within the window and at most max_value' }),
        max_value: Nullable(Money),
      },
      { additionalProperties: false },
    ),
    non_returnable: Type.Object(
      {
        product_ids: ProductKeys(50),
        product_references: ProductKeys(50),
        categories: ProductKeys(500),
      },
      { additionalProperties: false, description: 'Line items matching any of these are shown but cannot be returned' },
    ),
    branding: Type.Object(
      {
        primary_color: Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#RRGGBB' }),
        logo_url: Nullable(Type.String({ maxLength: 2000, description: 'An https URL of the logo' })),
        uploaded_logo: ReadOnly(),
      },
      { additionalProperties: false },
    ),
    portal_reference: ReadOnly(),
    portal_url: ReadOnly(),
    updated_at: ReadOnly(),
  },
  { additionalProperties: false },
);

export const ReturnPolicyView = Type.Object({
  portal_reference: Type.String({ description: 'In the portal address; never changes' }),
  portal_url: Type.String({ description: "The consumer's returns portal" }),
  enabled: Type.Boolean(),
  portal_name: Nullable(Type.String()),
  return_window_days: Type.Integer(),
  reasons: Type.Array(Type.Object({ code: Type.String(), label: Type.String(), translations: Type.Record(Type.String(), Type.String()) })),
  return_methods: Type.Array(Type.String()),
  refund_methods: Type.Array(Type.String()),
  auto_approval: Type.Object({
    enabled: Type.Boolean(),
    max_value: Nullable(Type.Object({ amount: Type.String(), currency: Type.String() })),
  }),
  non_returnable: Type.Object({
    product_ids: Type.Array(Type.String()),
    product_references: Type.Array(Type.String()),
    categories: Type.Array(Type.String()),
  }),
  branding: Type.Object({
    primary_color: Type.String(),
    logo_url: Nullable(Type.String()),
    uploaded_logo: Nullable(
      Type.Object(
        { content_type: Type.String(), bytes: Type.Integer(), url: Type.String() },
        { description: 'The logo uploaded with PUT /v5/returns/policy/logo/, shown instead of logo_url' },
      ),
    ),
  }),
  updated_at: Nullable(Type.String({ description: 'When the policy was last saved; null while it is the default' })),
});

export const ReturnPolicyLogoBody = Type.Object(
  {
    content_type: Type.String({ description: 'image/png, image/jpeg, image/gif or image/webp' }),
    content_base64: Type.String({ minLength: 1, maxLength: 400_000, description: 'The image, Base64; at most 256 KiB' }),
  },
  { additionalProperties: false },
);

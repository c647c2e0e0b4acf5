import { Type } from '@sinclair/typebox';
import { Nullable, NullableMembers } from './common.js';

/** Custom fields: keys up to 50 characters, values up to 150. */
export const CustomFields = Type.Record(
  Type.String({ maxLength: 50 }),
  Type.Union([Type.String({ maxLength: 150 }), Type.Number(), Type.Boolean(), Type.Null()]),
  {
    maxProperties: 100,
    propertyNames: { maxLength: 50 },
    description: 'Custom fields; keys max 50 characters, values max 150',
  },
);

/** The largest amount of money taken: twelve digits before the point, as an amount's decimal string may have. */
export const MAX_AMOUNT = 999_999_999_999.9999;

const amount = () => Type.Number({ minimum: 0, maximum: MAX_AMOUNT });

const lineItemFields = {
  product_name: Type.String({ maxLength: 500 }),
  product_id: Type.String({ maxLength: 50 }),
  product_reference: Type.String({ maxLength: 50, description: 'e.g. an SKU' }),
  product_category: Type.String({ maxLength: 500 }),
  product_description: Type.String({ maxLength: 500 }),
  product_origin_country_code: Type.String({ minLength: 2, maxLength: 2 }),
  hs_code: Type.String({ maxLength: 20 }),
  customs_description: Type.String({ maxLength: 500 }),
  quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  product_image_url: Type.String({ maxLength: 1024, format: 'web-url', description: 'http or https' }),
  product_url: Type.String({ maxLength: 1024, format: 'web-url', description: 'http or https' }),
  product_weight: amount(),
  product_weight_unit: Type.String({ maxLength: 5 }),
  line_item_weight: amount(),
  line_item_weight_unit: Type.String({ maxLength: 5 }),
  currency_code: Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217; the same across all line items' }),
  product_cost: amount(),
  subtotal_cost: amount(),
  discount_amount: amount(),
  tax_amount: amount(),
  misc_cost: amount(),
  total_price: amount(),
  return_id: Type.String({ maxLength: 50 }),
  return_reason: Type.String({ maxLength: 512 }),
  additional_info: CustomFields,
};

export const LINE_ITEM_FIELDS = Object.keys(lineItemFields) as Array<keyof typeof lineItemFields>;

/** A line item as written: any of its fields, each may be null (read as left out; `quantity` is then 1). */
export const LineItemInput = Type.Partial(
  Type.Object({
    ...NullableMembers(lineItemFields),
    // On the union, not inside it: a default inside a branch is not applied.
    quantity: Type.Union([lineItemFields.quantity, Type.Null()], { default: 1 }),
  }),
  { additionalProperties: false },
);

const numberOrNull = () => Nullable(Type.Number());
export const LineItemOutput = Type.Object({
  product_name: Nullable(Type.String()),
  product_id: Nullable(Type.String()),
  product_reference: Nullable(Type.String()),
  product_category: Nullable(Type.String()),
  product_description: Nullable(Type.String()),
  product_origin_country_code: Nullable(Type.String()),
  hs_code: Nullable(Type.String()),
  customs_description: Nullable(Type.String()),
  quantity: Type.Integer(),
  product_image_url: Nullable(Type.String()),
  product_url: Nullable(Type.String()),
  product_weight: numberOrNull(),
  product_weight_unit: Nullable(Type.String()),
  line_item_weight: numberOrNull(),
  line_item_weight_unit: Nullable(Type.String()),
  currency_code: Nullable(Type.String()),
  product_cost: numberOrNull(),
  subtotal_cost: numberOrNull(),
  discount_amount: numberOrNull(),
  tax_amount: numberOrNull(),
  misc_cost: numberOrNull(),
  total_price: numberOrNull(),
  return_id: Nullable(Type.String()),
  return_reason: Nullable(Type.String({ description: 'null when the item is not being returned' })),
  additional_info: Type.Record(Type.String(), Type.Unknown()),
});

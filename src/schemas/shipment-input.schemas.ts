import { type Static, type TOptional, type TProperties, Type } from '@sinclair/typebox';
import { SHIPMENT_STATUSES } from '../core/shipment-status.js';
import { AddressInput } from './address.schemas.js';
import { CustomFields, LineItemInput } from './line-item.schemas.js';

const text = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);

export const MoneyInput = Type.Object(
  {
    amount: Type.Number({ minimum: 0 }),
    currency: Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217' }),
  },
  { additionalProperties: false },
);

const ShippingCostInput = Type.Object(
  {
    name: Type.String({ maxLength: 255 }),
    reference: Type.Optional(Type.String({ maxLength: 255 })),
    unit_quantity: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
    unit_cost: Type.Optional(MoneyInput),
    total_cost: MoneyInput,
  },
  { additionalProperties: false },
);

const DimensionsInput = Type.Object(
  {
    length: Type.Number({ minimum: 0 }),
    width: Type.Number({ minimum: 0 }),
    height: Type.Number({ minimum: 0 }),
    unit: Type.Optional(Type.Literal('cm')),
  },
  { additionalProperties: false },
);

const WeightInput = Type.Object(
  { amount: Type.Number({ minimum: 0 }), unit: Type.Optional(Type.Literal('g')) },
  { additionalProperties: false },
);

const ExpectedDeliveryInput = Type.Object(
  {
    from: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
    to: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
  },
  { additionalProperties: false },
);

const LinkedShipmentInput = Type.Object(
  { tracking_number: Type.String({ minLength: 1, maxLength: 100 }), carrier_reference: Type.String({ minLength: 1, maxLength: 50 }) },
  { additionalProperties: false },
);

const nullableAddress = Type.Union([AddressInput, Type.Null()]);

/** Every writable field of the v5 Shipment record, beside the identifier. */
const v5Writable = {
  tracking_number: text(100),
  carrier_reference: text(50),
  shipment_reference: text(255),
  additional_reference: text(255),
  order_id: text(50),
  order_reference: text(255),
  order_source_type: text(100),
  order_source_name: text(255),
  recipient_address: nullableAddress,
  sender_address: nullableAddress,
  to_address: nullableAddress,
  from_address: nullableAddress,
  return_address: nullableAddress,
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 }),
  notification_email: Type.Array(Type.String({ maxLength: 100, format: 'email' }), { maxItems: 10 }),
  notification_phone: Type.Array(Type.String({ maxLength: 30 }), { maxItems: 10 }),
  shipment_value: Type.Union([MoneyInput, Type.Null()]),
  total_shipping_cost: Type.Union([MoneyInput, Type.Null()]),
  cod_value: Type.Union([MoneyInput, Type.Null()]),
  shipping_costs: Type.Array(ShippingCostInput, { maxItems: 100 }),
  dimensions: Type.Union([DimensionsInput, Type.Null()]),
  weight: Type.Union([WeightInput, Type.Null()]),
  expected_delivery: Type.Union([ExpectedDeliveryInput, Type.Null()]),
  linked_shipments: Type.Array(LinkedShipmentInput, { maxItems: 100 }),
  payment_type: text(50),
  item_count: Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000 }), Type.Null()]),
  packaging_type: text(100),
  note: text(5000),
  shipping_service: text(100),
  description_of_goods: text(1000),
  handling_instructions: text(1000),
  sales_channel: text(100),
  additional_info: CustomFields,
};

/** Fields only the v5.2 shape shows, writable on create and through /v5-2-0/shipment/update/. */
const v52Writable = {
  line_items: Type.Array(LineItemInput, { maxItems: 1000 }),
  parcel_recipient_information: text(1000),
};

const optional = <T extends TProperties>(props: T) =>
  Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof T]: TOptional<T[K]> };

export const ShipmentCreateBody = Type.Object(
  {
    shipment_id: Type.String({ minLength: 1, maxLength: 50, description: "Caller's identifier, unique in the account" }),
    ...optional(v5Writable),
    ...optional(v52Writable),
  },
  { additionalProperties: false },
);

export const ShipmentUpdateBodyV5 = Type.Object(
  { shipment_id: Type.Optional(Type.String({ maxLength: 50, description: 'Cannot change' })), ...optional(v5Writable) },
  { additionalProperties: false },
);

export const ShipmentUpdateBodyV52 = Type.Object(
  {
    shipment_id: Type.Optional(Type.String({ maxLength: 50, description: 'Cannot change' })),
    ...optional(v5Writable),
    ...optional(v52Writable),
  },
  { additionalProperties: false },
);

export const ShipmentIdentifierQuery = Type.Object(
  {
    shipment_uuid: Type.Optional(Type.String({ format: 'uuid' })),
    shipment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  },
  { additionalProperties: false },
);

/** GET /v5/shipment/list/: the filters and the cursor of the next page. */
export const ShipmentListQuery = Type.Object(
  {
    created_date_from: Type.Optional(Type.String({ maxLength: 40 })),
    created_date_to: Type.Optional(Type.String({ maxLength: 40 })),
    updated_date_from: Type.Optional(Type.String({ maxLength: 40 })),
    updated_date_to: Type.Optional(Type.String({ maxLength: 40 })),
    shipment_id: Type.Optional(Type.String({ maxLength: 50 })),
    order_id: Type.Optional(Type.String({ maxLength: 50 })),
    tracking_number: Type.Optional(Type.String({ maxLength: 100 })),
    carrier_reference: Type.Optional(Type.String({ maxLength: 50 })),
    status: Type.Optional(Type.Union(SHIPMENT_STATUSES.map((s) => Type.Literal(s)))),
    tag: Type.Optional(Type.String({ maxLength: 100 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    next_page: Type.Optional(Type.String({ maxLength: 2000, description: 'The next_page value of the previous response' })),
  },
  { additionalProperties: false },
);

/** The list filters, as the reader sees them (the console builds them from its form). */
export type ListQuery = Static<typeof ShipmentListQuery>;

/** What create and update accept, as the service sees it. */
export type ShipmentWrite = Static<typeof ShipmentUpdateBodyV52>;

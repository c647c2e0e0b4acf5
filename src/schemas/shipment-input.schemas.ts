import { type Static, type TOptional, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import { SHIPMENT_STATUSES } from '../core/shipment-status.js';
import { AddressInput, AddressUpdateInput } from './address.schemas.js';
import { Nullable, NullableDescribed, ReadOnly } from './common.js';
import { CustomFields, LineItemInput } from './line-item.schemas.js';

const text = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);

/**
 * Money as written. Its members may be null, as the details show them when nothing is stored: with both null it
 * is no money (as `null`), with one null that member is missing.
 */
export const MoneyInput = Type.Object(
  {
    amount: Nullable(Type.Number({ minimum: 0 })),
    currency: NullableDescribed(Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217' })),
  },
  { additionalProperties: false },
);

const ShippingCostInput = Type.Object(
  {
    name: Type.String({ maxLength: 255 }),
    reference: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    unit_quantity: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
    unit_cost: Type.Optional(Nullable(MoneyInput)),
    total_cost: MoneyInput,
  },
  { additionalProperties: false },
);

/** Dimensions as written; with every length null they are none (as `null`), with some null those are missing. */
const DimensionsInput = Type.Object(
  {
    length: Nullable(Type.Number({ minimum: 0 })),
    width: Nullable(Type.Number({ minimum: 0 })),
    height: Nullable(Type.Number({ minimum: 0 })),
    unit: Type.Optional(Nullable(Type.Literal('cm'))),
  },
  { additionalProperties: false },
);

/** A weight as written; with a null amount it is none (as `null`). */
const WeightInput = Type.Object(
  { amount: Nullable(Type.Number({ minimum: 0 })), unit: Type.Optional(Nullable(Type.Literal('g'))) },
  { additionalProperties: false },
);

const ExpectedDeliveryInput = Type.Object(
  {
    from: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
    to: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  },
  { additionalProperties: false },
);

const linkedShipmentFields = {
  tracking_number: Type.String({ minLength: 1, maxLength: 100 }),
  carrier_reference: Type.String({ minLength: 1, maxLength: 50 }),
};
const LinkedShipmentInput = Type.Object(linkedShipmentFields, { additionalProperties: false });
/** A linked shipment on update, as the details show it: its `carrier` is accepted and ignored. */
const LinkedShipmentUpdateInput = Type.Object({ ...linkedShipmentFields, carrier: ReadOnly() }, { additionalProperties: false });

/** Every writable field of the v5 Shipment record, beside the identifier, with the address and linked shipment given. */
const v5WritableWith = <A extends TSchema, L extends TSchema>(address: A, linkedShipment: L) => {
  const nullableAddress = Nullable(address);
  return {
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
    shipment_value: Nullable(MoneyInput),
    total_shipping_cost: Nullable(MoneyInput),
    cod_value: Nullable(MoneyInput),
    shipping_costs: Type.Array(ShippingCostInput, { maxItems: 100 }),
    dimensions: Nullable(DimensionsInput),
    weight: Nullable(WeightInput),
    expected_delivery: Nullable(ExpectedDeliveryInput),
    linked_shipments: Type.Array(linkedShipment, { maxItems: 100 }),
    payment_type: text(50),
    item_count: Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    packaging_type: text(100),
    note: text(5000),
    shipping_service: text(100),
    description_of_goods: text(1000),
    handling_instructions: text(1000),
    sales_channel: text(100),
    additional_info: CustomFields,
  };
};

const v5Writable = v5WritableWith(AddressInput, LinkedShipmentInput);
const v5Updatable = v5WritableWith(AddressUpdateInput, LinkedShipmentUpdateInput);

/** Fields only the v5.2 shape shows, writable on create and through /v5-2-0/shipment/update/. */
const v52Writable = {
  line_items: Type.Array(LineItemInput, { maxItems: 1000 }),
  parcel_recipient_information: text(1000),
};

/**
 * The fields of the v5 details that an update does not write, accepted and ignored so that the details can be
 * sent back whole (even by an account with strict_fields). `shipment_uuid` is the exception: it must be the
 * shipment's own, as `shipment_id` must.
 */
const v5ReadOnly = {
  shipment_uuid: Type.Optional(Type.String({ format: 'uuid', description: "Read-only: the shipment's own, or a 4030" })),
  carrier: ReadOnly(),
  created_date: ReadOnly(),
  updated_date: ReadOnly(),
  source: ReadOnly(),
  status: ReadOnly(),
  current_phase: ReadOnly(),
  tracking_page_reference: ReadOnly(),
  order: ReadOnly(),
  documents: ReadOnly(),
  all_events: ReadOnly(),
};

/** On update the identifier cannot change; null (as the details type it) is read as left out. */
const updatableShipmentId = Type.Optional(NullableDescribed(Type.String({ maxLength: 50, description: 'Cannot change' })));

/** The v5.2 details' own read-only fields. */
const v52ReadOnly = {
  shipment_type: ReadOnly(),
  returns: ReadOnly(),
  collection_point: ReadOnly(),
  rating: ReadOnly(),
  pod_url: ReadOnly(),
  delivery_prediction: ReadOnly(),
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
  {
    shipment_id: updatableShipmentId,
    ...optional(v5Updatable),
    ...v5ReadOnly,
  },
  { additionalProperties: false },
);

export const ShipmentUpdateBodyV52 = Type.Object(
  {
    shipment_id: updatableShipmentId,
    ...optional(v5Updatable),
    ...optional(v52Writable),
    ...v5ReadOnly,
    ...v52ReadOnly,
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

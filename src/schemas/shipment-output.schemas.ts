import { Type } from '@sinclair/typebox';
import { AddressOutput } from './address.schemas.js';
import { CarrierRecord, Nullable } from './common.js';
import { LineItemOutput } from './line-item.schemas.js';

const S = (options: { description?: string } = {}) => Type.String(options);
const NS = () => Nullable(Type.String());
const NN = () => Nullable(Type.Number());
const Obj = () => Type.Record(Type.String(), Type.Unknown());

export const MoneyOutput = Type.Object({ amount: NN(), currency: NS() });

const Order = Type.Object({
  order_uuid: NS(),
  order_id: NS(),
  order_reference: NS(),
  source_type: NS(),
  source_name: NS(),
  created_date: S(),
  updated_date: S(),
});

const DocumentRef = Type.Object({
  document_uuid: Type.String({ format: 'uuid' }),
  document_id: S(),
  name: S(),
  type: S(),
  file_format: S(),
  created_date: S(),
  additional_info: Obj(),
});

const locationFields = [
  'full',
  'formatted_address',
  'location_type',
  'line1',
  'line2',
  'line3',
  'postal_code',
  'city',
  'state_or_province',
  'region',
  'country',
  'country_code',
  'longitude',
  'latitude',
  'timezone',
] as const;

export const EventLocationV52 = Type.Object({
  place: Type.String(),
  ...Object.fromEntries(locationFields.map((f) => [f, NS()])),
});
export const EVENT_LOCATION_FIELDS = locationFields;

const eventFields = {
  event: S(),
  event_key: NS(),
  phase: NS(),
  phase_key: NS(),
  time: S(),
  timezone: NS(),
  carrier_name: NS(),
  additional_info: Obj(),
};

export const EventV5 = Type.Object({ ...eventFields, location: Nullable(Type.Object({ place: Type.String() })) });
export const EventV52 = Type.Object({ ...eventFields, location: Nullable(EventLocationV52) });

const shipmentV5Fields = {
  shipment_uuid: Type.String({ format: 'uuid' }),
  shipment_id: NS(),
  shipment_reference: NS(),
  additional_reference: NS(),
  tracking_number: NS(),
  carrier_reference: NS(),
  carrier: Nullable(CarrierRecord),
  created_date: S(),
  updated_date: S(),
  source: S(),
  status: S(),
  current_phase: Type.Object({ name: NS(), key: NS() }),
  tags: Type.Array(S()),
  notification_email: Type.Array(S()),
  notification_phone: Type.Array(S()),
  tracking_page_reference: NS(),
  order: Nullable(Order),
  recipient_address: Nullable(AddressOutput),
  sender_address: Nullable(AddressOutput),
  to_address: Nullable(AddressOutput),
  from_address: Nullable(AddressOutput),
  return_address: Nullable(AddressOutput),
  shipment_value: MoneyOutput,
  total_shipping_cost: MoneyOutput,
  shipping_costs: Type.Array(
    Type.Object({ name: S(), reference: NS(), unit_quantity: NN(), unit_cost: MoneyOutput, total_cost: MoneyOutput }),
  ),
  cod_value: MoneyOutput,
  dimensions: Type.Object({ length: NN(), width: NN(), height: NN(), unit: Type.Literal('cm') }),
  weight: Type.Object({ amount: NN(), unit: Type.Literal('g') }),
  linked_shipments: Type.Array(Type.Object({ tracking_number: S(), carrier_reference: S(), carrier: Nullable(CarrierRecord) })),
  expected_delivery: Type.Object({ from: NS(), to: NS() }),
  payment_type: NS(),
  item_count: Nullable(Type.Integer()),
  packaging_type: NS(),
  note: NS(),
  shipping_service: NS(),
  description_of_goods: NS(),
  handling_instructions: NS(),
  sales_channel: NS(),
  documents: Type.Array(DocumentRef),
  additional_info: Obj(),
};

export const ShipmentV5 = Type.Object({ ...shipmentV5Fields, all_events: Type.Array(EventV5) }, { description: 'Shipment, v5 shape' });

/** Operating hours as CollectionPoint and PudoLocation both carry them. */
export const OperatingHours = Type.Object({
  service_name: S(),
  operating_day: S(),
  time_zone: S(),
  first_open_hours: NS(),
  second_open_hours: NS(),
  first_cutoff: NS(),
  second_cutoff: NS(),
});

export const CollectionPoint = Type.Object({
  uuid: S(),
  collection_point_identifier: S(),
  address: Obj(),
  status: Type.Union([Type.Literal('active'), Type.Literal('expired')]),
  lat: Type.Number(),
  lng: Type.Number(),
  operating_hours_calc: Type.Array(OperatingHours),
  additional_info: Obj(),
  updated_date: S(),
});

export const ReturnsInfo = Type.Object({
  order_id: NS(),
  id: S(),
  return_id: NS(),
  return_status: S(),
  total_refund_amount: NS(),
  refund_is_calculated: Type.Boolean(),
  comment: NS(),
  return_proofs: Type.Array(Type.Object({ url: S(), file_name: NS() })),
  requested_date: S(),
  updated_at: S(),
  reject_reason: NS(),
  refund_method: NS(),
  return_method: NS(),
  cost_of_return: NS(),
  cost_is_calculated: Type.Boolean(),
  additional_cost: NS(),
  internal_notes: NS(),
  approver_email: NS(),
  booking_id: NS(),
  shipment_pk: Nullable(Type.Integer()),
});

const DateText = () => Type.String({ format: 'date', description: 'YYYY-MM-DD' });

/** Waybill's predicted first-attempt window (docs/delivery-intelligence.md). */
export const DeliveryPrediction = Type.Object(
  {
    source: Type.Literal('waybill'),
    from: DateText(),
    to: DateText(),
    likely: DateText(),
    confidence: Type.Union([Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')], {
      description: "high: the lane's own history; medium: a coarser cell's; low: the carrier's published promise",
    }),
    issued_at: S(),
    basis: Type.Object({
      level: S({ description: 'lane, lane_region, destination_region, country_pair, service, carrier_default or out_for_delivery' }),
      shipments: Type.Integer({ description: 'Shipments in the history cell the window is based on' }),
    }),
    original: Type.Object({ from: DateText(), to: DateText() }, { description: 'The first window issued, at acceptance' }),
    carrier: Nullable(Type.Object({ from: NS(), to: NS() }, { description: "The carrier's own expected delivery, when it gave one" })),
  },
  { description: 'Predicted delivery window; null before the carrier accepted the parcel' },
);

export const ShipmentV52 = Type.Object(
  {
    ...shipmentV5Fields,
    all_events: Type.Array(EventV52),
    shipment_type: NS(),
    returns: Nullable(ReturnsInfo),
    line_items: Type.Array(LineItemOutput),
    collection_point: Nullable(CollectionPoint),
    rating: Nullable(Type.Object({ id: S(), value: NN(), categories: Type.Array(S()), comment: NS() })),
    parcel_recipient_information: NS(),
    pod_url: NS(),
    delivery_prediction: Nullable(DeliveryPrediction),
  },
  { description: 'Shipment, v5.2 shape' },
);

export const ShipmentCreated = Type.Object({
  shipment_uuid: Type.String({ format: 'uuid' }),
  order_uuid: NS(),
  documents: Type.Array(DocumentRef),
  created_date: S(),
});

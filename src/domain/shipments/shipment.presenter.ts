import type { CarrierRecord } from '../../carriers/carrier.js';
import type { OrderRow } from '../../db/repositories/orders.repository.js';
import type { ShipmentRow, ShownEventRow } from '../../db/repositories/shipments.repository.js';
import { ADDRESS_FIELDS } from '../../schemas/address.schemas.js';
import { LINE_ITEM_FIELDS } from '../../schemas/line-item.schemas.js';
import { EVENT_LOCATION_FIELDS } from '../../schemas/shipment-output.schemas.js';
import { shownExpectedDelivery } from '../delivery/expected-delivery.js';
import { shownCarrier } from './carrier-of-record.js';
import { ParsedTexts } from './parsed-texts.js';

export type ShapeVersion = 'v5' | 'v5.2';

type Json = Record<string, any>;

/** What the presenter needs beyond the rows: names of phases and carriers. */
export interface PresenterLookups {
  phaseName(key: string | null): string | null;
  carrier(carrierId: string | null): CarrierRecord | null;
}

/** Everything shown of one shipment, loaded by the service. */
export interface ShipmentAggregate {
  row: ShipmentRow;
  order: OrderRow | null;
  events: ShownEventRow[];
  documents: Json[];
  /** The ReturnsInfo record, for return shipments. */
  returns: Json | null;
  collectionPoint: Json | null;
  /**
   * `row.body` as the object a create or an update wrote it from: what parsing the text gives back, so that it is
   * not parsed again. Read from `row.body` otherwise.
   */
  body?: Json;
}

const money = (value: Json | null | undefined) => ({ amount: value?.amount ?? null, currency: value?.currency ?? null });

/**
 * A function returning `{ field: source.field ?? fallback, … }` for a fixed list of fields, written as one
 * object literal. Copying many fields by name in a loop makes every object a slow dictionary-like one and
 * costs a lookup per field; shipments have dozens of such fields. The field names come from our schemas.
 */
function fieldCopier(fields: readonly string[], fallbacks: Record<string, string> = {}): (source: Json) => Json {
  const entries = fields.map((field) => `${JSON.stringify(field)}: source[${JSON.stringify(field)}] ?? ${fallbacks[field] ?? 'null'}`);
  return new Function('source', `return { ${entries.join(', ')} };`) as (source: Json) => Json;
}

const copyAddress = fieldCopier(ADDRESS_FIELDS);
const copyLineItem = fieldCopier(LINE_ITEM_FIELDS, { quantity: '1', additional_info: '{}' });
const copyLocation = fieldCopier(['place', ...EVENT_LOCATION_FIELDS], { place: "''" });

export function presentAddress(address: Json | null | undefined): Json | null {
  if (!address) return null;
  const out = copyAddress(address);
  const name = [address.first_name, address.last_name].filter(Boolean).join(' ');
  const street = [address.street_name, address.house_number].filter(Boolean).join(' ');
  const cityLine = [address.postal_code, address.city].filter(Boolean).join(' ');
  out.full = [
    address.company,
    name,
    address.line1,
    address.line2,
    address.line3,
    street,
    cityLine,
    address.state_or_province,
    address.region,
    address.country,
  ]
    .filter((part) => typeof part === 'string' && part.trim() !== '')
    .join(', ');
  return out;
}

function presentLineItem(item: Json): Json {
  return copyLineItem(item);
}

/** Texts kept of each kind: a few thousand hubs and status codes, under 10 MB in all for 500-byte locations. */
const KEPT_TEXTS = 4096;
/** A stored location (JSON text) as each shape shows it; shared by every event with the same text. */
const shownLocations: Record<ShapeVersion, ParsedTexts<Json | null>> = {
  v5: new ParsedTexts(KEPT_TEXTS, (text) => {
    const location = JSON.parse(text) as Json | null;
    return location ? { place: location.place ?? '' } : null;
  }),
  'v5.2': new ParsedTexts(KEPT_TEXTS, (text) => {
    const location = JSON.parse(text) as Json | null;
    return location ? copyLocation(location) : null;
  }),
};
/** A stored additional_info (JSON text) as shown; shared by every event with the same text. */
const shownInfos = new ParsedTexts<Json>(KEPT_TEXTS, (text) => JSON.parse(text) as Json);

/**
 * An event as shown. Its location and additional_info are objects shared with every event shown with the same
 * stored text (`ParsedTexts`): the serializers only read them, and write each such object's JSON once
 * (src/http/shipment-serializers.ts).
 */
function presentEvent(row: ShownEventRow, version: ShapeVersion, lookups: PresenterLookups): Json {
  return {
    event: row.event,
    event_key: row.event_key,
    phase: lookups.phaseName(row.phase_key),
    phase_key: row.phase_key,
    time: row.time_text,
    timezone: row.timezone,
    carrier_name: row.carrier_name,
    location: row.location ? shownLocations[version].get(row.location) : null,
    additional_info: shownInfos.get(row.additional_info),
  };
}

function presentOrder(order: OrderRow | null): Json | null {
  if (!order) return null;
  return {
    order_uuid: order.order_uuid,
    order_id: order.order_id,
    order_reference: order.order_reference,
    source_type: order.source_type,
    source_name: order.source_name,
    created_date: order.created_at,
    updated_date: order.updated_at,
  };
}

/**
 * A shipment in the v5 or v5.2 shape: every field present, null, {} or [] when empty, but v5.2's `pod_url`, a
 * link signed anew for every answer and added to the rendering (`RenderedShipment`). One object literal with
 * the fields of both shapes (v5.2's null in v5, whose serializer does not write them): V8 then gives it every
 * field in the object itself, where adding them in steps grew and copied its backing store over and over. The
 * serializers write the fields in their schema's order, not this one.
 */
export function presentShipment(aggregate: ShipmentAggregate, version: ShapeVersion, lookups: PresenterLookups): Json {
  const { row } = aggregate;
  const body = aggregate.body ?? (JSON.parse(row.body) as Json);
  const full = version === 'v5.2';
  return {
    shipment_uuid: row.shipment_uuid,
    shipment_id: row.shipment_id,
    shipment_reference: body.shipment_reference ?? null,
    additional_reference: body.additional_reference ?? null,
    tracking_number: row.tracking_number,
    carrier_reference: row.carrier_reference,
    carrier: shownCarrier(row.carrier_id, body, lookups.carrier),
    created_date: row.created_at,
    updated_date: row.updated_at,
    source: row.source,
    status: row.status,
    current_phase: { name: lookups.phaseName(row.phase_key), key: row.phase_key },
    tags: body.tags ?? [],
    notification_email: body.notification_email ?? [],
    notification_phone: body.notification_phone ?? [],
    tracking_page_reference: row.tracking_page_reference,
    order: presentOrder(aggregate.order),
    recipient_address: presentAddress(body.recipient_address),
    sender_address: presentAddress(body.sender_address),
    to_address: presentAddress(body.to_address),
    from_address: presentAddress(body.from_address),
    return_address: presentAddress(body.return_address),
    shipment_value: money(body.shipment_value),
    total_shipping_cost: money(body.total_shipping_cost),
    shipping_costs: (body.shipping_costs ?? []).map((cost: Json) => ({
      name: cost.name,
      reference: cost.reference ?? null,
      unit_quantity: cost.unit_quantity ?? null,
      unit_cost: money(cost.unit_cost),
      total_cost: money(cost.total_cost),
    })),
    cod_value: money(body.cod_value),
    dimensions: {
      length: body.dimensions?.length ?? null,
      width: body.dimensions?.width ?? null,
      height: body.dimensions?.height ?? null,
      unit: 'cm',
    },
    weight: { amount: body.weight?.amount ?? null, unit: 'g' },
    linked_shipments: (body.linked_shipments ?? []).map((linked: Json) => ({
      tracking_number: linked.tracking_number,
      carrier_reference: linked.carrier_reference,
      carrier: lookups.carrier(linked.carrier_id ?? null),
    })),
    expected_delivery: shownExpectedDelivery(body, row.phase_key) ?? { from: null, to: null },
    payment_type: body.payment_type ?? null,
    item_count: body.item_count ?? null,
    packaging_type: body.packaging_type ?? null,
    note: body.note ?? null,
    shipping_service: body.shipping_service ?? null,
    description_of_goods: body.description_of_goods ?? null,
    handling_instructions: body.handling_instructions ?? null,
    sales_channel: body.sales_channel ?? null,
    documents: aggregate.documents,
    all_events: aggregate.events.map((event) => presentEvent(event, version, lookups)),
    additional_info: body.additional_info ?? {},
    shipment_type: full ? row.shipment_type : null,
    returns: full ? aggregate.returns : null,
    line_items: full ? (body.line_items ?? []).map(presentLineItem) : null,
    collection_point: full ? aggregate.collectionPoint : null,
    rating: null,
    parcel_recipient_information: full ? (body.parcel_recipient_information ?? null) : null,
    delivery_prediction: full ? (body.delivery_prediction ?? null) : null,
  };
}

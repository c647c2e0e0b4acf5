import type { BookParcel, BookRequest } from '../../carriers/booking.js';
import type { PudoLocationRecord } from '../../core/pudo-location.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { FieldErrorCollector } from '../errors.js';

/** The reference carriers store with a booking: `WB` and 18 hex digits of its uuid, upper case (20 characters). */
export function bookingReference(bookingUuid: string): string {
  return `WB${bookingUuid.replace(/-/g, '').slice(0, 18).toUpperCase()}`;
}

/** Most parcels one booking may list in `carrier_metadata.parcels` (carriers allow fewer: see `maxParcels`). */
export const MAX_PARCELS = 50;

/**
 * What the carrier needs, read from the shipment. Outbound: sender_address (else from_address) to
 * recipient_address (else to_address). Return: from_address (the consumer) to to_address (the merchant).
 */
export function bookRequestFor(
  shipment: ShipmentRow,
  options: {
    pudo: PudoLocationRecord | null;
    /** Without `parcels`, which is the service's own option. */
    carrierMetadata: Record<string, unknown>;
    /** `carrier_metadata.parcels` as sent. */
    rawParcels: unknown;
    now: Date;
    bookingUuid: string;
    errors: FieldErrorCollector;
  },
): BookRequest {
  const body = JSON.parse(shipment.body) as Record<string, any>;
  const isReturn = shipment.shipment_type === 'return';
  const senderField = isReturn
    ? 'from_address'
    : body.sender_address
      ? 'sender_address'
      : body.from_address
        ? 'from_address'
        : 'sender_address';
  const recipientField = isReturn
    ? 'to_address'
    : body.recipient_address
      ? 'recipient_address'
      : body.to_address
        ? 'to_address'
        : 'recipient_address';
  const dimensions = body.dimensions
    ? { length: body.dimensions.length, width: body.dimensions.width, height: body.dimensions.height }
    : null;
  const weight = body.weight?.amount ?? null;
  const value = body.shipment_value;
  return {
    shipment_uuid: shipment.shipment_uuid,
    shipment_id: shipment.shipment_id,
    type_of_shipment: isReturn ? 'return' : 'outbound',
    shipping_service: body.shipping_service ?? null,
    sender: body[senderField] ?? null,
    recipient: body[recipientField] ?? null,
    sender_field: senderField,
    recipient_field: recipientField,
    weight_grams: weight,
    dimensions_cm: dimensions,
    shipment_reference: body.shipment_reference ?? null,
    pudo_location: options.pudo,
    carrier_metadata: options.carrierMetadata,
    date: options.now.toISOString().slice(0, 10),
    parcels: parcelsOf(options.rawParcels, { weight_grams: weight, dimensions_cm: dimensions }, options.errors),
    line_items: Array.isArray(body.line_items) ? body.line_items : [],
    shipment_value:
      value && typeof value.amount === 'number' && typeof value.currency === 'string'
        ? { amount: value.amount, currency: value.currency }
        : null,
    description_of_goods: body.description_of_goods ?? null,
    booking_reference: bookingReference(options.bookingUuid),
  };
}

const isNumber = (value: unknown, min: number): value is number => typeof value === 'number' && Number.isFinite(value) && value >= min;

/**
 * `carrier_metadata.parcels`: `[{weight: {amount, unit: "g"}, dimensions: {length, width, height, unit: "cm"}}]`,
 * the interface's Weight and Dimensions records per parcel. Absent: one parcel, the shipment's.
 */
function parcelsOf(raw: unknown, shipmentParcel: BookParcel, errors: FieldErrorCollector): BookParcel[] {
  if (raw === undefined) return [shipmentParcel];
  const path = ['carrier_metadata', 'parcels'];
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_PARCELS) {
    errors.add(path, `A list of 1 to ${MAX_PARCELS} parcels, each {"weight": {"amount": …, "unit": "g"}, "dimensions": {…}}.`);
    return [shipmentParcel];
  }
  return raw.map((entry: any, index) => {
    const at = [...path, index];
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      errors.add(at, 'A parcel is an object with weight and, optionally, dimensions.');
      return shipmentParcel;
    }
    for (const key of Object.keys(entry))
      if (key !== 'weight' && key !== 'dimensions') errors.add([...at, key], 'Unknown parcel field. Fields: weight, dimensions.');
    const weight = entry.weight;
    if (!weight || !isNumber(weight.amount, 0) || (weight.unit !== undefined && weight.unit !== 'g'))
      errors.add([...at, 'weight'], 'The parcel weight: {"amount": grams above 0, "unit": "g"}.');
    else if (weight.amount <= 0) errors.add([...at, 'weight', 'amount'], 'Ensure this value is greater than 0.');
    const dims = entry.dimensions;
    let dimensions: BookParcel['dimensions_cm'] = null;
    if (dims !== undefined && dims !== null) {
      const sides = ['length', 'width', 'height'] as const;
      const bad = typeof dims !== 'object' || (dims.unit !== undefined && dims.unit !== 'cm') || !sides.every((s) => isNumber(dims[s], 0));
      if (bad) errors.add([...at, 'dimensions'], 'The parcel dimensions: {"length", "width", "height"} in cm, "unit": "cm".');
      else dimensions = { length: dims.length, width: dims.width, height: dims.height };
    }
    return { weight_grams: isNumber(weight?.amount, 0) ? weight.amount : null, dimensions_cm: dimensions };
  });
}

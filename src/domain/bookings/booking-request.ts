import type { BookRequest } from '../../carriers/booking.js';
import type { PudoLocationRecord } from '../../core/pudo-location.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';

/**
 * What the carrier needs, read from the shipment. Outbound: sender_address (else from_address) to
 * recipient_address (else to_address). Return: from_address (the consumer) to to_address (the merchant).
 */
export function bookRequestFor(
  shipment: ShipmentRow,
  options: { pudo: PudoLocationRecord | null; carrierMetadata: Record<string, unknown>; now: Date },
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
  return {
    shipment_uuid: shipment.shipment_uuid,
    shipment_id: shipment.shipment_id,
    type_of_shipment: isReturn ? 'return' : 'outbound',
    shipping_service: body.shipping_service ?? null,
    sender: body[senderField] ?? null,
    recipient: body[recipientField] ?? null,
    sender_field: senderField,
    recipient_field: recipientField,
    weight_grams: body.weight?.amount ?? null,
    dimensions_cm: dimensions,
    shipment_reference: body.shipment_reference ?? null,
    pudo_location: options.pudo,
    carrier_metadata: options.carrierMetadata,
    date: options.now.toISOString().slice(0, 10),
  };
}

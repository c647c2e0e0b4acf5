import type { PudoLocation } from '../../core/pudo-location.js';
import type { BookingRow } from '../../db/repositories/bookings.repository.js';

/** The Booking record of the interface; its documents as the caller shows them (with content or links only). */
export function bookingView<Document>(
  booking: BookingRow,
  shipment: { shipment_uuid: string; shipment_id: string },
  documents: Document[],
  pudo: PudoLocation | null,
) {
  return {
    booking_uuid: booking.booking_uuid,
    shipment_uuid: shipment.shipment_uuid,
    shipment_id: shipment.shipment_id,
    carrier_reference: booking.carrier_reference,
    shipping_service: booking.shipping_service,
    carrier_shipment_identifier: booking.carrier_shipment_identifier,
    tracking_number: booking.tracking_number,
    type_of_shipment: booking.type_of_shipment,
    status: booking.status,
    documents,
    pudo_location_uuid: booking.pudo_location_uuid,
    pudo_locations: pudo ? [pudo] : [],
    carrier_additional_info: JSON.parse(booking.carrier_additional_info) as Record<string, unknown>,
    created_date: booking.created_at,
    updated_date: booking.updated_at,
  };
}

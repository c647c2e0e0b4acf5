import type { BookRequest } from '../../../src/carriers/booking.js';

/** Invented addresses and booking requests for the USPS booking tests (real state codes, invented places). */

export const MERCHANT = {
  company: 'Maple Goods Inc',
  first_name: 'Sam',
  last_name: 'Ortiz',
  line1: '200 Harbor Way',
  city: 'Maple Ridge',
  state_or_province: 'OH',
  postal_code: '43001',
  country_code: 'US',
  phone: '+1 614 555 0101',
  email: 'shipping@maple.example',
};

export const CONSUMER = {
  first_name: 'Lee',
  last_name: 'Park',
  line1: '12 Cedar Lane',
  line2: 'Apt 4',
  city: 'Cedar Vale',
  state_or_province: 'NJ',
  postal_code: '07001-1234',
  country_code: 'US',
  phone: '+1 201-555-0188',
  email: 'lee@example.org',
};

/** A booking request: OH → NJ, USPS Ground Advantage, one 1.25 kg parcel of 30 x 20 x 10 cm; `overrides` replace fields. */
export function bookRequest(overrides: Partial<BookRequest> = {}): BookRequest {
  const parcel = { weight_grams: 1250, dimensions_cm: { length: 30, width: 20, height: 10 } };
  return {
    shipment_uuid: '5c0e2a61-3f5d-4b8e-9c1a-2d7f6e8b9a10',
    shipment_id: 'USPS-1',
    type_of_shipment: 'outbound',
    shipping_service: 'USPS_GROUND_ADVANTAGE',
    sender: { ...MERCHANT },
    recipient: { ...CONSUMER },
    sender_field: 'sender_address',
    recipient_field: 'recipient_address',
    weight_grams: parcel.weight_grams,
    dimensions_cm: parcel.dimensions_cm,
    shipment_reference: 'ORDER-2001',
    pudo_location: null,
    carrier_metadata: {},
    date: '2026-11-23',
    parcels: [parcel],
    line_items: [],
    shipment_value: null,
    description_of_goods: 'Socks',
    booking_reference: 'WB5C0E2A613F5D4B8E9C',
    ...overrides,
  };
}

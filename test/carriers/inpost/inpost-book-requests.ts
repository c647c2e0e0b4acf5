import type { BookRequest } from '../../../src/carriers/booking.js';

/** Invented Polish addresses and booking requests for the InPost booking tests. */

export const MERCHANT_PL = {
  company: 'Sklep Kraków Sp. z o.o.',
  first_name: 'Anna',
  last_name: 'Nowak',
  line1: 'Wielicka 28',
  city: 'Kraków',
  postal_code: '30-552',
  country_code: 'PL',
  phone: '+48 512 345 678',
  email: 'wysylka@sklep.example',
};

export const CONSUMER_PL = {
  first_name: 'Jan',
  last_name: 'Kowalski',
  street_name: 'Długa',
  house_number: '12/4',
  city: 'Warszawa',
  postal_code: '00238',
  country_code: 'PL',
  phone: '+48 600 700 800',
  email: 'jan.kowalski@example.org',
};

/** A booking request: Kraków → Warszawa by courier, one 2 kg parcel; `overrides` replace fields. */
export function bookRequest(overrides: Partial<BookRequest> = {}): BookRequest {
  const parcel = { weight_grams: 2000, dimensions_cm: { length: 40, width: 30, height: 20 } };
  return {
    shipment_uuid: '5a0b6c2d-3e4f-4a5b-9c6d-7e8f9a0b1c2d',
    shipment_id: 'INPOST-1',
    type_of_shipment: 'outbound',
    shipping_service: 'inpost_courier_standard',
    sender: { ...MERCHANT_PL },
    recipient: { ...CONSUMER_PL },
    sender_field: 'sender_address',
    recipient_field: 'recipient_address',
    weight_grams: parcel.weight_grams,
    dimensions_cm: parcel.dimensions_cm,
    shipment_reference: 'ORDER-7781',
    pudo_location: null,
    carrier_metadata: {},
    date: new Date().toISOString().slice(0, 10),
    parcels: [parcel],
    line_items: [],
    shipment_value: null,
    description_of_goods: null,
    booking_reference: 'WB5A0B6C2D3E4F4A5B9C',
    ...overrides,
  };
}

/** A locker booking to KRA010 by `carrier_metadata.target_point`, size B. */
export function lockerRequest(overrides: Partial<BookRequest> = {}): BookRequest {
  return bookRequest({
    shipping_service: 'inpost_locker_standard',
    carrier_metadata: { target_point: 'KRA010', parcel_template: 'medium' },
    ...overrides,
  });
}

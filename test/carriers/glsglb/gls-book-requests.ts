import type { BookRequest } from '../../../src/carriers/booking.js';
import type { PudoLocationRecord } from '../../../src/core/pudo-location.js';

/** Invented addresses and booking requests for the GLS booking tests. */

export const MERCHANT_DE = {
  company: 'Lindenau Versand GmbH',
  first_name: 'Jana',
  last_name: 'Vogt',
  street_name: 'Lagerstraße',
  house_number: '5',
  city: 'Feldbrunn',
  postal_code: '34117',
  country_code: 'DE',
  phone: '+49 561 1234567',
  email: 'versand@lindenau.example',
};

export const CONSUMER_DE = {
  first_name: 'Ada',
  last_name: 'Brandt',
  line1: 'Birkenallee 12',
  line2: '3. OG links',
  city: 'Hamburg',
  postal_code: '20095',
  country_code: 'DE',
  phone: '+49 170 7654321',
  email: 'ada@example.org',
};

export const CONSUMER_AT = {
  first_name: 'Lena',
  last_name: 'Huber',
  street_name: 'Mariahilfer Straße',
  house_number: '88',
  city: 'Wien',
  postal_code: '1070',
  country_code: 'AT',
  email: 'lena@example.at',
};

export const CONSUMER_CH = {
  first_name: 'Urs',
  last_name: 'Meier',
  line1: 'Bahnhofstrasse 10',
  city: 'Zürich',
  postal_code: '8001',
  country_code: 'CH',
};

/** A booking request: DE → DE, PARCEL, one 1.25 kg parcel; `overrides` replace fields. */
export function bookRequest(overrides: Partial<BookRequest> = {}): BookRequest {
  const parcel = { weight_grams: 1250, dimensions_cm: { length: 30, width: 20, height: 10 } };
  return {
    shipment_uuid: '0b6f4f1e-8f4c-4d3e-9a51-7d2c1e0a9b11',
    shipment_id: 'GLS-1',
    type_of_shipment: 'outbound',
    shipping_service: 'PARCEL',
    sender: { ...MERCHANT_DE },
    recipient: { ...CONSUMER_DE },
    sender_field: 'sender_address',
    recipient_field: 'recipient_address',
    weight_grams: parcel.weight_grams,
    dimensions_cm: parcel.dimensions_cm,
    shipment_reference: 'ORDER-1001',
    pudo_location: null,
    carrier_metadata: {},
    date: '2026-11-23',
    parcels: [parcel],
    line_items: [],
    shipment_value: null,
    description_of_goods: 'Socks',
    booking_reference: 'WB0B6F4F1E8F4C4D3E9A',
    ...overrides,
  };
}

/** The first ParcelShop of `parcelshops.json` as a search stores it (only what a booking reads matters). */
export function parcelShop(overrides: Partial<PudoLocationRecord> = {}): PudoLocationRecord {
  return {
    pudo_location_uuid: '0d3c3e0e-1c55-5d1a-9f0e-000000000001',
    uuid: '0d3c3e0e-1c55-5d1a-9f0e-000000000001',
    carrier_id: 'glsglb',
    pudo_location_id: 'GLS_DE-2760418301',
    address: {
      location_types: ['parcel_shop'],
      mapped_location_types: ['parcel_shop'],
      location_type: 'parcel_shop',
      mapped_location_type: 'parcel_shop',
      entity_reference: 'GLS_DE-2760418301',
      address_name: 'Kiosk am Lindenhof',
      full: 'Kiosk am Lindenhof, Lindenhofweg 7, 20095 Hamburg, DE',
      line1: 'Lindenhofweg 7',
      line2: null,
      line3: null,
      street_name: 'Lindenhofweg',
      house_number: '7',
      postal_code: '20095',
      city: 'Hamburg',
      state_or_province: null,
      region: null,
      country: 'DE',
      country_code: 'DE',
      phone: null,
    },
    lat: 53.5531,
    lng: 9.9924,
    operating_hours_calc: [],
    opening_hours: [],
    cutoff_hours: [],
    closing_periods: [],
    validity_period: { from_date: '2026-11-23', to_date: null },
    services: ['drop_off', 'pick_up'],
    additional_info: {},
    updated_date: '2026-11-23T12:00:00.000Z',
    ...overrides,
  };
}

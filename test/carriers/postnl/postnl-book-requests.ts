import type { BookRequest } from '../../../src/carriers/booking.js';
import type { PudoLocationRecord } from '../../../src/core/pudo-location.js';

/** Invented addresses and booking requests for the PostNL booking tests. */

export const MERCHANT_NL = {
  company: 'Tulp Textiel BV',
  first_name: 'Noor',
  last_name: 'de Vries',
  line1: 'Oudegracht 231',
  city: 'Utrecht',
  postal_code: '3511 NK',
  country_code: 'NL',
  phone: '+31 30 2345678',
  email: 'verzending@tulp.example',
};

export const CONSUMER_NL = {
  first_name: 'Daan',
  last_name: 'Jansen',
  street_name: 'Keizersgracht',
  house_number: '12-3',
  city: 'Amsterdam',
  postal_code: '1015 CJ',
  country_code: 'NL',
  phone: '+31 6 12345678',
  email: 'daan@example.org',
};

export const CONSUMER_DE = {
  first_name: 'Lena',
  last_name: 'Krause',
  line1: 'Schillerstraße 8',
  city: 'Köln',
  postal_code: '50667',
  country_code: 'DE',
  email: 'lena@example.de',
};

/** A booking request: NL → NL, standard shipment 3085, one 1.2 kg parcel; `overrides` replace fields. */
export function bookRequest(overrides: Partial<BookRequest> = {}): BookRequest {
  const parcel = { weight_grams: 1200, dimensions_cm: { length: 20, width: 30, height: 10 } };
  return {
    shipment_uuid: '4c7e1d0a-2b3f-4e5a-8c9d-0e1f2a3b4c5d',
    shipment_id: 'PNL-1',
    type_of_shipment: 'outbound',
    shipping_service: '3085',
    sender: { ...MERCHANT_NL },
    recipient: { ...CONSUMER_NL },
    sender_field: 'sender_address',
    recipient_field: 'recipient_address',
    weight_grams: parcel.weight_grams,
    dimensions_cm: parcel.dimensions_cm,
    shipment_reference: 'ORDER-2001',
    pudo_location: null,
    carrier_metadata: {},
    date: '2026-11-29',
    parcels: [parcel],
    line_items: [],
    shipment_value: null,
    description_of_goods: 'Scarves',
    booking_reference: 'WB4C7E1D0A2B3F4E5A8C',
    ...overrides,
  };
}

/** A PostNL point as a search finds it (locations.json, the first location). */
export function postnlPoint(overrides: Partial<PudoLocationRecord> = {}): PudoLocationRecord {
  return {
    pudo_location_uuid: '1d2c3b4a-0000-5000-8000-000000176227',
    uuid: '1d2c3b4a-0000-5000-8000-000000176227',
    carrier_id: 'postnl',
    pudo_location_id: '176227',
    address: {
      location_types: ['postnl_point'],
      mapped_location_types: ['parcel_shop'],
      location_type: 'postnl_point',
      mapped_location_type: 'parcel_shop',
      entity_reference: '176227',
      address_name: 'Boekhandel Het Grachtje',
      full: 'Boekhandel Het Grachtje, Prinsengracht 118, 1015EA Amsterdam, NL',
      line1: 'Prinsengracht 118',
      line2: null,
      line3: null,
      street_name: 'Prinsengracht',
      house_number: '118',
      postal_code: '1015EA',
      city: 'Amsterdam',
      state_or_province: null,
      region: null,
      country: 'NL',
      country_code: 'NL',
      phone: null,
    },
    lat: 52.37652,
    lng: 4.88414,
    operating_hours_calc: [],
    opening_hours: [],
    cutoff_hours: [],
    closing_periods: [],
    validity_period: { from_date: '2026-11-29', to_date: null },
    services: ['pick_up'],
    additional_info: {},
    updated_date: '2026-11-29T09:00:00.000Z',
    ...overrides,
  };
}

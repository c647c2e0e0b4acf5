import type { BookRequest } from '../../../src/carriers/booking.js';
import type { PudoLocationRecord } from '../../../src/core/pudo-location.js';

/** Invented addresses and booking requests for the UPS booking tests. */

export const MERCHANT_DE = {
  company: 'Acme Warehouse',
  first_name: 'Jana',
  last_name: 'Vogt',
  line1: 'Lagerstraße 5',
  city: 'Hamburg',
  postal_code: '20095',
  country_code: 'DE',
  phone: '+49 40 1234567',
  email: 'shipping@acme.example',
};

export const CONSUMER_NL = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  line1: 'Keizersgracht 1',
  city: 'Amsterdam',
  postal_code: '1015 CJ',
  country_code: 'NL',
  phone: '+31 20 7654321',
  email: 'ada@example.org',
};

export const CONSUMER_CH = {
  first_name: 'Urs',
  last_name: 'Meier',
  line1: 'Bahnhofstrasse 10',
  city: 'Zürich',
  postal_code: '8001',
  country_code: 'CH',
  phone: '+41 44 1234567',
  email: 'urs@example.ch',
};

export const MERCHANT_US = {
  company: 'Maple Goods Inc',
  first_name: 'Sam',
  last_name: 'Ortiz',
  line1: '200 Harbor Way',
  city: 'Maple Ridge',
  state_or_province: 'OH',
  postal_code: '43001',
  country_code: 'US',
  phone: '+1 614 555 0101',
};

export const CONSUMER_US = {
  first_name: 'Lee',
  last_name: 'Park',
  line1: '12 Cedar Lane',
  line2: 'Apt 4',
  city: 'Cedar Vale',
  state_or_province: 'NJ',
  postal_code: '07001-1234',
  country_code: 'US',
  phone: '+1 201-555-0188',
};

export const SOCKS = {
  product_name: 'Wool socks',
  customs_description: 'Knitted wool socks',
  product_reference: 'SKU-SOCK-1',
  quantity: 2,
  product_cost: 12.5,
  currency_code: 'EUR',
  hs_code: '6115.95',
  product_origin_country_code: 'PT',
};

/** A booking request: DE → NL, UPS Standard, one 1.25 kg parcel; `overrides` replace fields. */
export function bookRequest(overrides: Partial<BookRequest> = {}): BookRequest {
  const parcel = { weight_grams: 1250, dimensions_cm: { length: 30, width: 20, height: 10 } };
  return {
    shipment_uuid: '0b6f4f1e-8f4c-4d3e-9a51-7d2c1e0a9b11',
    shipment_id: 'UPS-1',
    type_of_shipment: 'outbound',
    shipping_service: '11',
    sender: { ...MERCHANT_DE },
    recipient: { ...CONSUMER_NL },
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

/** A UPS Access Point as a search finds it (see locator.response.json). */
export function accessPoint(overrides: Partial<PudoLocationRecord> = {}): PudoLocationRecord {
  return {
    pudo_location_uuid: '8fbff202-87ff-51c6-a788-f4f9a879a1a4',
    uuid: '8fbff202-87ff-51c6-a788-f4f9a879a1a4',
    carrier_id: 'upsglb',
    pudo_location_id: 'NL0004711',
    address: {
      location_types: ['access_point'],
      mapped_location_types: ['parcel_shop'],
      location_type: 'access_point',
      mapped_location_type: 'parcel_shop',
      entity_reference: '417203',
      address_name: 'Kiosk De Gracht',
      full: 'Kiosk De Gracht, Prinsenstraat 12, 1015DB AMSTERDAM, NH, NL',
      line1: 'Prinsenstraat 12',
      line2: null,
      line3: null,
      street_name: 'Prinsenstraat 12',
      house_number: '',
      postal_code: '1015DB',
      city: 'AMSTERDAM',
      state_or_province: 'NH',
      region: null,
      country: 'NL',
      country_code: 'NL',
      phone: null,
    },
    lat: 52.37402,
    lng: 4.89011,
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

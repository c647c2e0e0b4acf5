import type { BookRequest } from '../../../src/carriers/booking.js';
import type { PudoLocationRecord } from '../../../src/core/pudo-location.js';

/** Invented addresses and booking requests for the FedEx booking tests. */

export const MERCHANT_US = {
  company: 'Riverbend Goods LLC',
  first_name: 'Dana',
  last_name: 'Hale',
  line1: '2200 Levee Rd',
  city: 'Memphis',
  state_or_province: 'TN',
  postal_code: '38118',
  country_code: 'US',
  phone: '+1 901 555 0134',
  email: 'ship@riverbend.example',
};

export const CONSUMER_US = {
  first_name: 'Mo',
  last_name: 'Rivera',
  line1: '48 Orchard St',
  line2: 'Apt 3',
  city: 'Plainfield',
  state_or_province: 'NJ',
  postal_code: '07060-1234',
  country_code: 'US',
  phone: '+1 908-555-0177',
  email: 'mo@example.org',
};

export const CONSUMER_CA = {
  first_name: 'Claire',
  last_name: 'Tremblay',
  line1: '15 Rue des Érables',
  city: 'Montréal',
  state_or_province: 'QC',
  postal_code: 'H2X 1Y4',
  country_code: 'CA',
  phone: '+1 514 555 0160',
  email: 'claire@example.ca',
};

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

export const MUG = {
  product_name: 'Stoneware mug',
  customs_description: 'Glazed stoneware mug',
  product_reference: 'SKU-MUG-2',
  quantity: 3,
  product_cost: 14,
  currency_code: 'USD',
  hs_code: '6912.00',
  product_origin_country_code: 'US',
  line_item_weight: 1.2,
  line_item_weight_unit: 'kg',
};

/** A booking request: US → US, FedEx Ground, one 2.5 kg parcel; `overrides` replace fields. */
export function bookRequest(overrides: Partial<BookRequest> = {}): BookRequest {
  const parcel = { weight_grams: 2500, dimensions_cm: { length: 40, width: 30, height: 20 } };
  return {
    shipment_uuid: '5d1c7a3e-2b4f-4c6d-8e9f-0a1b2c3d4e5f',
    shipment_id: 'FDX-1',
    type_of_shipment: 'outbound',
    shipping_service: 'FEDEX_GROUND',
    sender: { ...MERCHANT_US },
    recipient: { ...CONSUMER_US },
    sender_field: 'sender_address',
    recipient_field: 'recipient_address',
    weight_grams: parcel.weight_grams,
    dimensions_cm: parcel.dimensions_cm,
    shipment_reference: 'ORDER-2001',
    pudo_location: null,
    carrier_metadata: {},
    date: '2026-11-30',
    parcels: [parcel],
    line_items: [],
    shipment_value: null,
    description_of_goods: 'Mugs',
    booking_reference: 'WB5D1C7A3E2B4F4C6D8E',
    ...overrides,
  };
}

/** A FedEx location as a search finds it (see locations.json). */
export function fedexLocation(overrides: Partial<PudoLocationRecord> = {}): PudoLocationRecord {
  return {
    pudo_location_uuid: '00000000-0000-5000-8000-000000000001',
    uuid: '00000000-0000-5000-8000-000000000001',
    carrier_id: 'fdxglb',
    pudo_location_id: 'ATLWB',
    address: {
      location_types: ['fedex_office'],
      mapped_location_types: ['parcel_shop'],
      location_type: 'fedex_office',
      mapped_location_type: 'parcel_shop',
      entity_reference: 'ATLWB',
      address_name: 'FedEx Office Print & Ship Center',
      full: 'FedEx Office Print & Ship Center, 410 Riverbend Ave, 30303 ATLANTA, GA, US',
      line1: '410 Riverbend Ave',
      line2: null,
      line3: null,
      street_name: '410 Riverbend Ave',
      house_number: '',
      postal_code: '30303',
      city: 'ATLANTA',
      state_or_province: 'GA',
      region: null,
      country: 'US',
      country_code: 'US',
      phone: '4045550142',
    },
    lat: 33.758,
    lng: -84.388,
    operating_hours_calc: [],
    opening_hours: [],
    cutoff_hours: [],
    closing_periods: [],
    validity_period: { from_date: '2026-11-30', to_date: null },
    services: ['drop_off', 'pick_up'],
    additional_info: { fedex_location_type: 'FEDEX_OFFICE' },
    updated_date: '2026-11-30T12:00:00.000Z',
    ...overrides,
  };
}

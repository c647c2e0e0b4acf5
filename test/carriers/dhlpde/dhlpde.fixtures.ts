import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BookRequest } from '../../../src/carriers/booking.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'dhlpde');

/** A hand-written DHL answer from test/carriers/fixtures/dhlpde (README there says what each follows). */
export function dhlpdeFixture(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
}

/**
 * Settings of a DHL Parcel DE configuration in these tests, shaped like DHL's public sandbox account (its user
 * name, password and EKP 3333333333 with the procedure of each product); the app's key and secret are made up.
 */
export const SETTINGS = {
  environment: 'sandbox',
  api_key: 'wb-dhl-app-key-51c9e2',
  api_secret: 'wb-dhl-app-secret-77ad40',
  username: 'user-valid',
  password: 'SandboxPasswort2023!',
  billing_numbers: {
    V01PAK: '33333333330102',
    V62KP: '33333333336201',
    V53WPAK: '33333333335301',
    V54EPAK: '33333333335401',
    V66WPI: '33333333336601',
  },
  return_billing_number: '33333333330701',
  return_receiver_id: 'deu',
} as const;

export const SECRETS = [SETTINGS.api_key, SETTINGS.api_secret, SETTINGS.password];

const merchant = {
  company: 'Waybill Versandhandel GmbH',
  first_name: 'Erika',
  last_name: 'Muster',
  street_name: 'Sträßchensweg',
  house_number: '10',
  postal_code: '53113',
  city: 'Bonn',
  country_code: 'DE',
  email: 'versand@waybill.test',
};

const consumer = {
  first_name: 'Max',
  last_name: 'Mustermann',
  line1: 'Kurt-Schumacher-Str. 20',
  postal_code: '53113',
  city: 'Bonn',
  country_code: 'DE',
  email: 'max@example.test',
  phone: '+49 228 1234567',
};

/** A booking request of a domestic DHL Paket parcel, to be varied per test. */
export function outboundRequest(overrides: Partial<BookRequest> = {}): BookRequest {
  return {
    shipment_uuid: '6f1c2d4e-0000-4000-8000-000000000001',
    shipment_id: 'DHLPDE-1',
    type_of_shipment: 'outbound',
    shipping_service: 'V01PAK',
    sender: { ...merchant },
    recipient: { ...consumer },
    sender_field: 'sender_address',
    recipient_field: 'recipient_address',
    weight_grams: 1200,
    dimensions_cm: { length: 30, width: 20, height: 10.5 },
    shipment_reference: 'ORDER-4711',
    pudo_location: null,
    carrier_metadata: {},
    date: '2026-11-24',
    parcels: [{ weight_grams: 1200, dimensions_cm: { length: 30, width: 20, height: 10.5 } }],
    line_items: [],
    shipment_value: null,
    description_of_goods: null,
    booking_reference: 'WB6F1C2D4E0000400080',
    ...overrides,
  };
}

/** A return: the consumer (from_address) sends back to the merchant (to_address). */
export function returnRequest(overrides: Partial<BookRequest> = {}): BookRequest {
  return outboundRequest({
    type_of_shipment: 'return',
    shipping_service: null,
    sender: { ...consumer },
    recipient: { ...merchant },
    sender_field: 'from_address',
    recipient_field: 'to_address',
    ...overrides,
  });
}

/** Line items of a parcel to Switzerland: everything a customs declaration needs. */
export const SWISS_GOODS = [
  {
    product_name: 'Wool scarf',
    customs_description: 'Knitted wool scarf',
    hs_code: '6117.10',
    product_origin_country_code: 'DE',
    quantity: 2,
    product_cost: 24.5,
    product_weight: 150,
    product_weight_unit: 'g',
    currency_code: 'EUR',
  },
  {
    product_name: 'Tea',
    hs_code: '090240',
    product_origin_country_code: 'IN',
    quantity: 1,
    total_price: 9.9,
    line_item_weight: 0.25,
    line_item_weight_unit: 'kg',
    currency_code: 'EUR',
  },
];

export const SWISS_CONSUMER = {
  first_name: 'Heidi',
  last_name: 'Beispiel',
  line1: 'Bahnhofstrasse 1',
  postal_code: '8001',
  city: 'Zürich',
  country_code: 'CH',
  email: 'heidi@example.test',
  phone: '+41 44 1234567',
};

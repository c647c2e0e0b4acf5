import { describe, expect, it } from 'vitest';
import { checkFedexBooking, FEDEX_MAX_PARCELS } from '../../../src/carriers/fdxglb/fdxglb.booking.js';
import { bookRequest, CONSUMER_CA, CONSUMER_NL, CONSUMER_US, fedexLocation, MERCHANT_DE, MERCHANT_US, MUG } from './fedex-book-requests.js';
import { BOOKING_SETTINGS } from './fedex-ship-server.js';

const paths = (errors: Array<{ path: Array<string | number> }>) => errors.map((e) => e.path.join('.'));
const check = (overrides: Parameters<typeof bookRequest>[0] = {}, settings: Record<string, unknown> = BOOKING_SETTINGS) =>
  checkFedexBooking(bookRequest(overrides), settings);

describe('fdxglb checkBooking', () => {
  it('accepts the fixture request, and one to Canada with its goods', () => {
    expect(check()).toEqual([]);
    expect(check({ recipient: { ...CONSUMER_CA }, shipping_service: 'FEDEX_INTERNATIONAL_PRIORITY', line_items: [MUG] })).toEqual([]);
  });

  it('needs the account number of the configuration', () => {
    const errors = check({}, { client_id: 'a', client_secret: 'b' });
    expect(paths(errors)).toEqual(['carrier_reference']);
    expect(errors[0].message).toContain('account_number');
    expect(paths(check({}, { ...BOOKING_SETTINGS, account_number: '12345' }))).toEqual(['carrier_reference']);
    const half = check({}, { ...BOOKING_SETTINGS, ship_client_id: 'ship-key' });
    expect(paths(half)).toEqual(['carrier_reference']);
    expect(half[0].message).toContain('ship_client_secret');
    expect(check({}, { ...BOOKING_SETTINGS, ship_client_id: 'ship-key', ship_client_secret: 'ship-secret' })).toEqual([]);
  });

  it('needs a FedEx service type it books, and one that returns for a return', () => {
    expect(paths(check({ shipping_service: null }))).toEqual(['shipping_service']);
    const unknown = check({ shipping_service: 'OVERNIGHT' });
    expect(paths(unknown)).toEqual(['shipping_service']);
    expect(unknown[0].message).toContain('FEDEX_GROUND (FedEx Ground)');
    const home = check({ type_of_shipment: 'return', shipping_service: 'GROUND_HOME_DELIVERY' });
    expect(paths(home)).toEqual(['shipping_service']);
    expect(home[0].message).toContain('return labels');
  });

  it('names each address field FedEx needs or limits', () => {
    const errors = check({
      sender: { ...MERCHANT_US, phone: '555', state_or_province: '' },
      recipient: { ...CONSUMER_US, first_name: '', last_name: '', line1: '', city: 'x'.repeat(36), postal_code: '07060-1234-5678' },
    });
    expect(paths(errors)).toEqual([
      'sender_address.state_or_province',
      'sender_address.phone',
      'recipient_address.first_name',
      'recipient_address.line1',
      'recipient_address.city',
      'recipient_address.postal_code',
    ]);
    expect(paths(check({ recipient: null }))).toEqual(['recipient_address']);
    expect(paths(check({ recipient: { ...CONSUMER_US, company: 'C'.repeat(36), line2: 'L'.repeat(36) } }))).toEqual([
      'recipient_address.company',
      'recipient_address.line2',
    ]);
  });

  it('checks every parcel: weight, FedEx’s 68 kg, sizes, and at most 40', () => {
    expect(paths(check({ weight_grams: null, parcels: [{ weight_grams: null, dimensions_cm: null }] }))).toEqual(['weight']);
    expect(paths(check({ weight_grams: 70_000, parcels: [{ weight_grams: 70_000, dimensions_cm: null }] }))).toEqual(['weight']);
    const parcels = [
      { weight_grams: 1000, dimensions_cm: { length: 280, width: 10, height: 10 } },
      { weight_grams: 1000, dimensions_cm: { length: 200, width: 60, height: 50 } },
      { weight_grams: 0, dimensions_cm: { length: 10, width: 0, height: 10 } },
    ];
    expect(paths(check({ parcels }))).toEqual([
      'carrier_metadata.parcels.0.dimensions',
      'carrier_metadata.parcels.1.dimensions',
      'carrier_metadata.parcels.2.weight',
      'carrier_metadata.parcels.2.dimensions',
    ]);
    const many = Array.from({ length: FEDEX_MAX_PARCELS + 1 }, () => ({ weight_grams: 500, dimensions_cm: null }));
    expect(paths(check({ parcels: many }))).toEqual(['carrier_metadata.parcels']);
  });

  it('needs the goods of a parcel crossing a customs border, not of one inside the EU', () => {
    const toCanada = { recipient: { ...CONSUMER_CA }, shipping_service: 'FEDEX_INTERNATIONAL_PRIORITY' };
    expect(paths(check(toCanada))).toEqual(['line_items']);
    const item = { product_name: 'Mug', quantity: 1, hs_code: '69', currency_code: 'USD' };
    expect(paths(check({ ...toCanada, line_items: [item] }))).toEqual([
      'line_items.0.hs_code',
      'line_items.0.product_origin_country_code',
      'line_items.0.product_cost',
    ]);
    expect(paths(check({ ...toCanada, line_items: [{ ...MUG, currency_code: undefined }] }))).toEqual(['line_items.0.currency_code']);
    expect(
      paths(check({ ...toCanada, description_of_goods: null, line_items: [{ ...MUG, customs_description: '', product_name: '' }] })),
    ).toEqual(['description_of_goods', 'line_items.0.customs_description']);
    expect(check({ sender: { ...MERCHANT_DE }, recipient: { ...CONSUMER_NL }, shipping_service: 'FEDEX_REGIONAL_ECONOMY' })).toEqual([]);
  });

  it('checks the options and Hold at Location', () => {
    const errors = check({
      carrier_metadata: {
        label_format: 'gif',
        shipment_purpose: 'SALE',
        terms_of_sale: 'XYZ',
        duties_payment: 'BOTH',
        electronic_trade_documents: 'yes',
        colour: 'red',
      },
    });
    expect(paths(errors)).toEqual([
      'carrier_metadata.label_format',
      'carrier_metadata.shipment_purpose',
      'carrier_metadata.terms_of_sale',
      'carrier_metadata.duties_payment',
      'carrier_metadata.electronic_trade_documents',
      'carrier_metadata.colour',
    ]);
    expect(check({ carrier_metadata: { label_format: 'zpl', terms_of_sale: 'DAP', duties_payment: 'RECIPIENT' } })).toEqual([]);
    expect(check({ pudo_location: fedexLocation() })).toEqual([]);
    expect(
      paths(
        check({ pudo_location: fedexLocation(), type_of_shipment: 'return', sender: { ...CONSUMER_US }, recipient: { ...MERCHANT_US } }),
      ),
    ).toEqual(['pudo_location_uuid']);
    expect(paths(check({ pudo_location: fedexLocation(), shipping_service: 'GROUND_HOME_DELIVERY' }))).toEqual(['shipping_service']);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BookRequest } from '../../../src/carriers/booking.js';
import { checkUpsBooking, UPS_PRODUCTS } from '../../../src/carriers/upsglb/upsglb.booking.js';
import { accessPoint, bookRequest, CONSUMER_CH, CONSUMER_US, MERCHANT_US, SOCKS } from './ups-book-requests.js';
import { BOOKING_SETTINGS } from './ups-shipping-server.js';

const check = (overrides: Partial<BookRequest> = {}, settings: Record<string, unknown> = BOOKING_SETTINGS) =>
  checkUpsBooking(bookRequest(overrides), settings);
const paths = (errors: ReturnType<typeof check>) => errors.map((e) => e.path.join('.'));

describe('UPS checkBooking', () => {
  it('accepts a complete booking inside the EU, with and without dimensions', () => {
    expect(check()).toEqual([]);
    expect(check({ parcels: [{ weight_grams: 800, dimensions_cm: null }], weight_grams: 800, dimensions_cm: null })).toEqual([]);
  });

  it('refuses a configuration without an account number, naming carrier_reference and the setting', () => {
    const errors = check({}, { client_id: 'a', client_secret: 'b' });
    expect(errors).toEqual([{ path: ['carrier_reference'], message: expect.stringContaining('settings.account_number') }]);
    expect(paths(check({}, { ...BOOKING_SETTINGS, account_number: 'ABC' }))).toEqual(['carrier_reference']);
  });

  it('needs a UPS service code it books, and one that returns can use', () => {
    expect(paths(check({ shipping_service: null }))).toEqual(['shipping_service']);
    const unknown = check({ shipping_service: 'express' });
    expect(paths(unknown)).toEqual(['shipping_service']);
    expect(unknown[0].message).toContain('11 (UPS Standard)');
    for (const code of ['01', '02', '03', '07', '08', '11', '12', '13', '14', '54', '65'])
      expect(UPS_PRODUCTS.map((p) => p.code)).toContain(code);
    const ret = {
      type_of_shipment: 'return' as const,
      sender: { ...CONSUMER_US },
      recipient: { ...MERCHANT_US },
      sender_field: 'from_address',
      recipient_field: 'to_address',
    };
    expect(paths(check({ ...ret, shipping_service: '13' }))).toEqual(['shipping_service']);
    expect(check({ ...ret, shipping_service: '03' })).toEqual([]);
  });

  it("names every address field outside UPS's limits or missing", () => {
    const errors = check({
      recipient: {
        first_name: 'Ada',
        line1: 'x'.repeat(36),
        city: 'y'.repeat(31),
        postal_code: '1234567890',
        country_code: 'NL',
        email: `${'e'.repeat(45)}@x.org`,
        phone: '+31 20 1234 5678 9012',
      },
      sender: { company: 'C'.repeat(36), line1: 'Street 1', city: 'Hamburg', country_code: 'DE', phone: '+49 40 1' },
    });
    expect(paths(errors).sort()).toEqual(
      [
        'recipient_address.line1',
        'recipient_address.city',
        'recipient_address.postal_code',
        'recipient_address.email',
        'recipient_address.phone',
        'sender_address.company',
      ].sort(),
    );
    expect(paths(check({ recipient: null }))).toEqual(['recipient_address']);
    expect(paths(check({ recipient: { country_code: 'NL' } })).sort()).toEqual(
      ['recipient_address.city', 'recipient_address.first_name', 'recipient_address.line1', 'recipient_address.phone'].sort(),
    );
  });

  it('needs the state and postal code in the US, and phones when the parcel leaves the country', () => {
    const noState = { ...MERCHANT_US, state_or_province: undefined, postal_code: undefined };
    expect(paths(check({ sender: noState, recipient: { ...CONSUMER_US }, shipping_service: '03' })).sort()).toEqual(
      ['sender_address.postal_code', 'sender_address.state_or_province'].sort(),
    );
    expect(
      paths(check({ sender: { ...MERCHANT_US }, recipient: { ...CONSUMER_US, state_or_province: 'New Jersey' }, shipping_service: '03' })),
    ).toEqual(['recipient_address.state_or_province']);
    const { phone: _phone, ...withoutPhone } = CONSUMER_CH;
    expect(paths(check({ recipient: withoutPhone, line_items: [SOCKS] }))).toEqual(['recipient_address.phone']);
  });

  it('needs the weight of every parcel and keeps sizes within what UPS carries', () => {
    expect(paths(check({ weight_grams: null, parcels: [{ weight_grams: null, dimensions_cm: null }] }))).toEqual(['weight']);
    const twoParcels = [
      { weight_grams: 500, dimensions_cm: { length: 280, width: 10, height: 10 } },
      { weight_grams: 500, dimensions_cm: { length: 100, width: 60, height: 60 } },
    ];
    expect(paths(check({ parcels: twoParcels }))).toEqual([
      'carrier_metadata.parcels.0.dimensions',
      'carrier_metadata.parcels.1.dimensions',
    ]);
  });

  it('refuses unknown options and wrong values, naming them', () => {
    const errors = check({
      carrier_metadata: {
        colour: 'brown',
        label_format: 'gif',
        reason_for_export: 'FUN',
        invoice_number: '',
        terms_of_shipment: 'XYZ',
        shipment_indication_type: '01',
      },
    });
    expect(paths(errors).sort()).toEqual(
      [
        'carrier_metadata.colour',
        'carrier_metadata.label_format',
        'carrier_metadata.reason_for_export',
        'carrier_metadata.invoice_number',
        'carrier_metadata.terms_of_shipment',
        'carrier_metadata.shipment_indication_type',
      ].sort(),
    );
    expect(errors.find((e) => e.path[1] === 'colour')?.message).toContain('label_format');
    expect(
      check({ carrier_metadata: { label_format: 'zpl', reason_for_export: 'GIFT', invoice_number: 'INV-9', terms_of_shipment: 'DAP' } }),
    ).toEqual([]);
  });

  it('needs the goods, HS codes, origins and values for a parcel crossing a customs border', () => {
    expect(paths(check({ recipient: { ...CONSUMER_CH } }))).toEqual(['line_items']);
    expect(check({ recipient: { ...CONSUMER_CH }, line_items: [SOCKS] })).toEqual([]);
    const errors = check({
      recipient: { ...CONSUMER_CH },
      description_of_goods: null,
      line_items: [{ product_name: 'Socks', quantity: 1, hs_code: '61', currency_code: 'EUR' }, { ...SOCKS }],
    });
    expect(paths(errors).sort()).toEqual(
      ['line_items.0.hs_code', 'line_items.0.product_cost', 'line_items.0.product_origin_country_code'].sort(),
    );
    // Inside the EU no customs data is needed.
    expect(check({ line_items: [] })).toEqual([]);
  });

  it('books to an Access Point only outbound and with the addressee’s e-mail', () => {
    expect(check({ pudo_location: accessPoint(), carrier_metadata: { shipment_indication_type: '02' } })).toEqual([]);
    const { email: _email, ...noEmail } = bookRequest().recipient as Record<string, unknown>;
    expect(paths(check({ pudo_location: accessPoint(), recipient: noEmail }))).toEqual(['recipient_address.email']);
    const ret = check({
      type_of_shipment: 'return',
      pudo_location: accessPoint(),
      sender_field: 'from_address',
      recipient_field: 'to_address',
    });
    expect(paths(ret)).toContain('pudo_location_uuid');
  });

  it('takes one parcel per return from the US, and needs a description of returned goods', () => {
    const ret = {
      type_of_shipment: 'return' as const,
      sender: { ...CONSUMER_US },
      recipient: { ...MERCHANT_US },
      sender_field: 'from_address',
      recipient_field: 'to_address',
      shipping_service: '03',
      parcels: [
        { weight_grams: 500, dimensions_cm: null },
        { weight_grams: 700, dimensions_cm: null },
      ],
      description_of_goods: null,
    };
    expect(paths(check(ret)).sort()).toEqual(['carrier_metadata.parcels', 'description_of_goods']);
  });

  it('never throws and names only fields of the request, whatever the request holds', () => {
    fc.assert(
      fc.property(
        fc.record({
          sender: fc.oneof(
            fc.constant(null),
            fc.dictionary(
              fc.constantFrom('first_name', 'company', 'line1', 'city', 'country_code', 'phone', 'postal_code'),
              fc.jsonValue(),
            ),
          ),
          recipient: fc.oneof(
            fc.constant(null),
            fc.dictionary(fc.constantFrom('first_name', 'line1', 'city', 'country_code', 'email', 'state_or_province'), fc.jsonValue()),
          ),
          carrier_metadata: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue()),
          line_items: fc.array(fc.dictionary(fc.constantFrom('hs_code', 'product_cost', 'quantity', 'product_name'), fc.jsonValue()), {
            maxLength: 3,
          }),
          shipping_service: fc.oneof(fc.constant(null), fc.string({ maxLength: 3 })),
        }),
        fc.dictionary(fc.constantFrom('account_number', 'label_format', 'negotiated_rates'), fc.jsonValue()),
        (parts, settings) => {
          const request = bookRequest(parts as Partial<BookRequest>);
          const errors = checkUpsBooking(request, settings);
          for (const error of errors) {
            expect(typeof error.message).toBe('string');
            const root = String(error.path[0]);
            expect([
              'carrier_reference',
              'shipping_service',
              'weight',
              'dimensions',
              'description_of_goods',
              'line_items',
              'carrier_metadata',
              'pudo_location_uuid',
              'shipment_uuid',
              request.sender_field,
              request.recipient_field,
            ]).toContain(root);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

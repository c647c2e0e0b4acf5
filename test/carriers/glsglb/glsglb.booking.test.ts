import { afterEach, describe, expect, it } from 'vitest';
import { checkGlsBooking } from '../../../src/carriers/glsglb/glsglb.booking.js';
import { clockOf, mapParcelShops, parcelShopSearch } from '../../../src/carriers/glsglb/glsglb.parcelshops.js';
import { glsWeight } from '../../../src/carriers/glsglb/glsglb.parties.js';
import { fieldErrorsOf, issueErrors, readValidation, refusalOf } from '../../../src/carriers/glsglb/glsglb.refusals.js';
import { readCreatedShipment, shipmentRequest, trackIdsOf } from '../../../src/carriers/glsglb/glsglb.shipit.js';
import type { CarrierResponse } from '../../../src/carriers/sdk/http.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { bookRequest, CONSUMER_AT, CONSUMER_DE, MERCHANT_DE, parcelShop } from './gls-book-requests.js';
import { fixture, glsAdapter, glsServer } from './gls-server.js';
import { SHIPMENT_REQUEST, schemaProblems } from './gls-shipit-schema.js';
import { BOOKING_SETTINGS, CANCEL_PATH, GlsShipitRoutes, refusal, SHIPMENTS_PATH } from './gls-shipit-server.js';

/** A CarrierResponse as the transport hands it to the adapter. */
function answer(status: number, headers: Record<string, string>, body = ''): CarrierResponse {
  const buffer = Buffer.from(body);
  return {
    status,
    headers,
    body: buffer,
    text: () => body,
    json: () => {
      try {
        return JSON.parse(body);
      } catch {
        return undefined;
      }
    },
  };
}

const settings = { ...BOOKING_SETTINGS };

describe('glsglb booking: our checks', () => {
  it('passes a complete request, and names every missing or oversized field on our paths', () => {
    expect(checkGlsBooking(bookRequest(), settings)).toEqual([]);
    const errors = checkGlsBooking(
      bookRequest({
        shipping_service: 'EXPRESS',
        type_of_shipment: 'return',
        sender: { ...MERCHANT_DE, company: 'x'.repeat(41), city: '', postal_code: '' },
        recipient: { ...CONSUMER_DE, line1: '', line3: 'y'.repeat(30), email: `${'a'.repeat(80)}@example.org` },
        parcels: [
          { weight_grams: 0, dimensions_cm: null },
          { weight_grams: 41_000, dimensions_cm: null },
        ],
        shipment_reference: 'R'.repeat(41),
        carrier_metadata: { label_format: 'gif', insurance: true },
      }),
      { ...settings, contact_id: undefined },
    );
    const paths = errors.map((e) => e.path.join('.'));
    expect(paths).toEqual([
      'carrier_reference',
      'shipping_service',
      'sender_address.company',
      'sender_address.city',
      'sender_address.postal_code',
      'recipient_address.line1',
      'recipient_address.line2',
      'recipient_address.email',
      'carrier_metadata.parcels.0.weight',
      'carrier_metadata.parcels.1.weight',
      'carrier_metadata.label_format',
      'carrier_metadata.insurance',
      'shipment_reference',
    ]);
  });

  it('refuses a customs border (customs data is not sent), more than ten parcels, and ParcelShop rules', () => {
    const ch = checkGlsBooking(
      bookRequest({ recipient: { first_name: 'Urs', line1: 'Gasse 1', city: 'Bern', postal_code: '3000', country_code: 'CH' } }),
      settings,
    );
    expect(ch.map((e) => e.path.join('.'))).toEqual(['recipient_address.country_code']);
    const eleven = Array.from({ length: 11 }, () => ({ weight_grams: 500, dimensions_cm: null }));
    expect(checkGlsBooking(bookRequest({ parcels: eleven }), settings).map((e) => e.path.join('.'))).toEqual(['carrier_metadata.parcels']);
    const toShop = checkGlsBooking(
      bookRequest({ pudo_location: parcelShop(), shipping_service: 'EXPRESS', recipient: { ...CONSUMER_DE, email: '', phone: '' } }),
      settings,
    );
    expect(toShop.map((e) => e.path.join('.'))).toEqual(['pudo_location_uuid', 'recipient_address.email']);
    expect(checkGlsBooking(bookRequest({ recipient: { ...CONSUMER_AT } }), settings)).toEqual([]);
  });
});

describe('glsglb booking: the createParcels request', () => {
  it('is what the local GLS’s schema accepts, with GLS’s names, weights in kg and our reference', () => {
    const body = shipmentRequest(
      bookRequest({
        parcels: [
          { weight_grams: 1, dimensions_cm: null },
          { weight_grams: 1234, dimensions_cm: null },
        ],
      }),
      settings,
      'pdf',
    );
    expect(schemaProblems(SHIPMENT_REQUEST, body)).toEqual([]);
    expect(body).toMatchObject({
      Shipment: {
        ShipmentReference: ['WB0B6F4F1E8F4C4D3E9A', 'ORDER-1001'],
        ShippingDate: '2026-11-23',
        Product: 'PARCEL',
        Consignee: {
          Category: 'PRIVATE',
          Address: {
            Name1: 'Ada Brandt',
            Name3: '3. OG links',
            Street: 'Birkenallee 12',
            ZIPCode: '20095',
            City: 'Hamburg',
            CountryCode: 'DE',
            ContactPerson: 'Ada Brandt',
            MobilePhoneNumber: '+491707654321',
          },
        },
        Shipper: { ContactID: '276a45e7ZY', AlternativeShipperAddress: { Name1: 'Lindenau Versand GmbH', Name2: 'Jana Vogt' } },
        ShipmentUnit: [
          { ShipmentUnitReference: ['WB0B6F4F1E8F4C4D3E9A'], Weight: 0.1 },
          { ShipmentUnitReference: ['WB0B6F4F1E8F4C4D3E9A'], Weight: 1.24 },
        ],
      },
      PrintingOptions: { ReturnLabels: { TemplateSet: 'NONE', LabelFormat: 'PDF' } },
    });
    expect(glsWeight(1235)).toBe(1.24);
    expect(glsWeight(40_000)).toBe(40);
    const zpl300 = shipmentRequest(bookRequest(), { ...settings, zpl_resolution: '300' }, 'zpl');
    expect(zpl300.PrintingOptions).toEqual({ ReturnLabels: { TemplateSet: 'ZPL_300', LabelFormat: 'ZEBRA' } });
  });

  it('reads a CreateParcelsResponse, and refuses one without parcels or with broken label data', () => {
    const good = {
      CreatedShipment: {
        ParcelData: [{ TrackID: 'ZW000001', ParcelNumber: '531004000001' }],
        PrintData: [{ Data: Buffer.from('%PDF-1.4').toString('base64'), LabelFormat: 'PDF' }],
        CustomerID: '2764200001',
        PickupLocation: 'DE 202',
      },
    };
    expect(readCreatedShipment(good)).toMatchObject({
      parcels: [{ trackId: 'ZW000001', parcelNumber: '531004000001' }],
      customerId: '2764200001',
    });
    expect(readCreatedShipment({ CreatedShipment: { ParcelData: [] } })).toBeNull();
    expect(
      readCreatedShipment({ CreatedShipment: { ...good.CreatedShipment, PrintData: [{ Data: '%%%', LabelFormat: 'PDF' }] } }),
    ).toBeNull();
    expect(readCreatedShipment({})).toBeNull();
    expect(trackIdsOf('zw000001, ZW000002')).toEqual(['ZW000001', 'ZW000002']);
    expect(trackIdsOf('531004000001')).toBeNull();
  });
});

describe('glsglb booking: GLS’s refusals', () => {
  const request = bookRequest();
  const cases: Array<[string, string, string]> = [
    [
      'INVALID_FIELD_VALUE',
      'Invalid field consignee.zip. Value 2009 is not a valid value. Shipment validation failed',
      'recipient_address.postal_code',
    ],
    [
      'INVALID_FIELD_VALUE',
      'Invalid field Shipment.Consignee.Address.Street. Value x is not a valid value. Value is too long. Maximum is 40',
      'recipient_address.line1',
    ],
    [
      'INVALID_FIELD_VALUE',
      'Invalid field Shipment.Shipper.Address.StreetNumber. Value x is not a valid value.',
      'sender_address.house_number',
    ],
    [
      'INVALID_FIELD_VALUE',
      'Invalid field Shipment.Shipper.ContactID. Value x is not a valid value. Shipper does not exist',
      'carrier_reference',
    ],
    [
      'INVALID_FIELD_VALUE',
      'Invalid field ShipmentRequestData.Shipment.Product. Value PARCEL is not a valid value. No matching product',
      'shipping_service',
    ],
    [
      'INVALID_FIELD_VALUE',
      'Invalid field shipmentunit.weight.toolow. Value -1 is not a valid value. Shipment validation failed',
      'weight',
    ],
    ['INVALID_FIELD_VALUE', 'Invalid field shipper.email.wrong_format. Value x is not a valid value. Shipment', 'sender_address.email'],
    [
      'MANDATORY_PARAMETER_NOT_SET',
      'The Mandatory parameter Shipment.Consignee.Address.CountryCode is not set',
      'recipient_address.country_code',
    ],
    ['NUMBER_EXCEEDS_LENGTH', 'Mobile or telephone number length exceeds 40', 'recipient_address.phone'],
  ];
  for (const [code, message, path] of cases) {
    it(`${code}: ${message.slice(0, 60)} → ${path}`, () => {
      const refused = refusalOf(answer(400, { error: code, message }));
      expect(refused).toEqual({ code, message });
      expect(fieldErrorsOf(refused!, request).map((e) => e.path.join('.'))).toEqual([path]);
    });
  }

  it('reads a JSON body when the headers say nothing, and names no field it cannot place', () => {
    const refused = refusalOf(answer(400, {}, JSON.stringify({ error: 'INVALID_SERVICE_SELECTION', message: 'cannot be combined' })));
    expect(refused).toEqual({ code: 'INVALID_SERVICE_SELECTION', message: 'cannot be combined' });
    expect(fieldErrorsOf(refused!, request)).toEqual([]);
    expect(fieldErrorsOf(refused!, bookRequest({ pudo_location: parcelShop() })).map((e) => e.path)).toEqual([['pudo_location_uuid']]);
    expect(refusalOf(answer(400, {}, 'not json'))).toBeNull();
  });
});

describe('glsglb booking: GLS’s validation', () => {
  it('reads a ValidateParcelsResponse and places its issues on our fields', () => {
    expect(readValidation({ Success: true, ValidationResult: { Issues: [] } })).toEqual({ success: true, issues: [] });
    expect(readValidation({ ValidationResult: {} })).toEqual({ success: true, issues: [] });
    expect(readValidation({ other: 1 })).toBeNull();
    const answer = readValidation({
      Success: false,
      ValidationResult: {
        Issues: [
          { Rule: 'ADDRESS_VALID_ZIPCODE', Location: 'Shipment.Shipper.AlternativeShipperAddress', Parameters: ['3411'] },
          { Rule: 'SHIPMENT_VALID_ROUTING', Location: 'Shipment.Consignee.Address', Parameters: ['no route'] },
          { Rule: 'ARTICLES_PRODUCT_WEIGHT', Location: 'Shipment.ShipmentUnit' },
          { Rule: 'ARTICLES_DESTINATION_EXCLUSIONS', Location: 'Shipment' },
          { Rule: 'SHIPMENT_VALID_INCOTERM_IF_NEEDED', Location: 'Shipment' },
          { Rule: 'ARTICLE_COMBINATIONS', Location: 'Shipment.Service' },
          { Rule: 'COMMON', Location: 'Shipment', Parameters: ['something else'] },
          'not an issue',
        ],
      },
    })!;
    expect(answer.success).toBe(false);
    expect(answer.issues).toHaveLength(7);
    const toShop = bookRequest({ pudo_location: parcelShop() });
    expect(issueErrors(answer.issues, toShop).map((e) => e.path.join('.'))).toEqual([
      'sender_address.postal_code',
      'recipient_address.postal_code',
      'weight',
      'shipping_service',
      'recipient_address.country_code',
      'pudo_location_uuid',
    ]);
    expect(issueErrors(answer.issues, bookRequest())[0].message).toBe(
      'GLS would refuse the booking: ADDRESS_VALID_ZIPCODE (Shipment.Shipper.AlternativeShipperAddress, 3411)',
    );
    expect(readValidation({ Success: true, ValidationResult: { Issues: [{ Rule: 'COMMON', Location: 'x' }] } })?.success).toBe(false);
  });
});

describe('glsglb booking: ParcelShops', () => {
  it('searches by point or by postal code, in whole kilometres', () => {
    expect(parcelShopSearch({ lat: 53.5, lng: 9.9, radius_meters: 2500, limit: 5 })).toEqual({
      path: '/shipit-farm/v1/backend/rs/parcelshop/distance',
      body: { Latitude: '53.5', Longitude: '9.9', Distance: '3', MaxNumberOfShops: '5' },
    });
    expect(parcelShopSearch({ postal_code: '20095', city: 'Hamburg', country_code: 'de', radius_meters: 500, limit: 500 })).toEqual({
      path: '/shipit-farm/v1/backend/rs/parcelshop/address',
      body: { CountryCode: 'DE', ZIPCode: '20095', City: 'Hamburg', Distance: '1', MaxNumberOfShops: '100' },
    });
  });

  it('maps ParcelShops: hours (milliseconds with GLS’s one-hour offset) less breaks, holidays, distance, the time zone', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    const [first, second, ...rest] = mapParcelShops(fixture('parcelshops.json'), 'glsglb', now)!;
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      pudo_location_id: 'GLS_DE-2760418301',
      lat: 53.5531,
      lng: 9.9924,
      distance_meters: 350,
      services: ['drop_off', 'pick_up'],
      closing_periods: [{ from_date: '2026-12-24', to_date: '2026-12-27', reason: 'holidays' }],
      address: { address_name: 'Kiosk am Lindenhof', line1: 'Lindenhofweg 7', postal_code: '20095', phone: '+49 40 5550101' },
    });
    expect(first.opening_hours.filter((h) => h.day_of_week === 'monday')).toEqual([
      { day_of_week: 'monday', open_hour: '08:00', close_hour: '12:00' },
      { day_of_week: 'monday', open_hour: '13:00', close_hour: '18:00' },
    ]);
    expect(first.operating_hours_calc.find((h) => h.operating_day === 'monday' && h.service_name === 'pick_up')).toMatchObject({
      time_zone: 'Europe/Berlin',
      first_open_hours: '08:00-12:00',
      second_open_hours: '13:00-18:00',
    });
    expect(second.opening_hours).toEqual([{ day_of_week: 'wednesday', open_hour: '09:00', close_hour: '19:00' }]);
    expect(clockOf('1970-01-01T08:30:00Z')).toBe('08:30');
    expect(mapParcelShops('nonsense', 'glsglb', now)).toBeNull();
    expect(mapParcelShops({}, 'glsglb', now)).toEqual([]);
  });
});

describe('glsglb booking: calls', () => {
  let server: CarrierServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('cancels every parcel; a scanned one is a non-retryable refusal saying so; an id that is no Track ID is refused unsent', async () => {
    server = await glsServer();
    const gls = GlsShipitRoutes.install(server);
    const { adapter } = glsAdapter(server);
    const two = [
      { weight_grams: 500, dimensions_cm: null },
      { weight_grams: 700, dimensions_cm: null },
    ];
    const booked = await adapter.book(bookRequest({ parcels: two }), settings, { now: new Date() });
    expect(booked.status).toBe('ok');
    if (booked.status !== 'ok') return;
    expect(booked.labels.map((l) => [l.parcel_index, l.tracking_number])).toEqual(gls.created[0].parcelNumbers.map((n, i) => [i, n]));
    gls.created[0].scanned = true;
    const refused = await adapter.cancel(booked.carrier_shipment_identifier, settings);
    expect(refused).toMatchObject({ status: 'error', retryable: false });
    expect(refused.status === 'error' && refused.message).toContain('scanned');
    expect(await adapter.cancel('not-an-id', settings)).toMatchObject({ status: 'error', retryable: false });
    const unknown = await adapter.cancel('ZZ999999', settings);
    expect(unknown).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(CANCEL_PATH).length).toBe(3);
  });

  it('a 502 after sending is outcome_unknown; labels GLS sends in another format are cancelled and refused', async () => {
    server = await glsServer();
    const gls = GlsShipitRoutes.install(server);
    const { adapter } = glsAdapter(server);
    server.once(SHIPMENTS_PATH, { status: 502, body: 'bad gateway' });
    expect(await adapter.book(bookRequest(), settings, { now: new Date() })).toMatchObject({ status: 'error', outcome_unknown: true });
    server.once(SHIPMENTS_PATH, {
      body: {
        CreatedShipment: {
          ParcelData: [{ TrackID: 'ZW123456', ParcelNumber: '531004999999' }],
          PrintData: [{ Data: 'AAAA', LabelFormat: 'INTERMEC' }],
        },
      },
    });
    gls.created.push({
      trackIds: ['ZW123456'],
      parcelNumbers: ['531004999999'],
      references: [],
      labelFormat: 'INTERMEC',
      cancelled: false,
      scanned: false,
      body: null,
    });
    const result = await adapter.book(bookRequest(), settings, { now: new Date() });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(gls.created.at(-1)!.cancelled).toBe(true);
    server.once(SHIPMENTS_PATH, refusal('INVALID_FIELD_VALUE', 'Invalid field Shipment.Shipper.ContactID. Value x is not a valid value.'));
    const refused = await adapter.book(bookRequest(), settings, { now: new Date() });
    expect(refused).toMatchObject({ status: 'error', retryable: false, field_errors: [{ path: ['carrier_reference'] }] });
    expect(JSON.stringify(refused)).not.toContain(BOOKING_SETTINGS.client_secret);
  });
});

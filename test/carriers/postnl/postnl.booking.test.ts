import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PostnlCarrier } from '../../../src/carriers/postnl/postnl.carrier.js';
import { dutchTimestamp, errorsOf, fieldErrorsOf, readLabelAnswer } from '../../../src/carriers/postnl/postnl.labelling.js';
import { bookRequest, CONSUMER_NL, MERCHANT_NL } from './postnl-book-requests.js';
import { API_KEY, type PostnlLocal, postnlAdapter, postnlServer, STATUS_PATH } from './postnl-server.js';
import { BARCODE_PATH, BOOKING_SETTINGS, LABEL_PATH, LOCATIONS_PATH, PostnlShippingRoutes, pdfLabel } from './postnl-shipping-server.js';

const now = () => ({ now: new Date('2026-11-29T09:00:00Z') });

describe('postnl booking at a local PostNL', () => {
  let server: PostnlLocal;
  let postnl: PostnlShippingRoutes;
  let adapter: PostnlCarrier;

  beforeEach(async () => {
    server = await postnlServer();
    postnl = PostnlShippingRoutes.install(server);
    adapter = postnlAdapter(server).adapter;
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends the apikey, asks a 3S barcode of the contract, and confirms in the label call', async () => {
    const result = await adapter.book(bookRequest(), BOOKING_SETTINGS, now());
    expect(result.status).toBe('ok');
    const [barcodeCall] = server.to(BARCODE_PATH);
    expect(barcodeCall.headers.apikey).toBe(API_KEY);
    expect(Object.fromEntries(barcodeCall.query)).toEqual({ CustomerCode: 'DEVC', CustomerNumber: '11223344', Type: '3S' });
    const [labelCall] = server.to(LABEL_PATH);
    expect(labelCall.query.get('confirm')).toBe('true');
    expect(JSON.parse(labelCall.body).Message).toEqual({
      MessageID: '0A2B3F4E5A8C',
      MessageTimeStamp: '29-11-2026 10:00:00',
      Printertype: 'GraphicFile|PDF',
    });
    expect(postnl.faults).toEqual([]);
  });

  it('the barcode range and collection location of the configuration go to PostNL', async () => {
    const settings = { ...BOOKING_SETTINGS, barcode_serie: '100000000-999999999', collection_location: '123456' };
    expect((await adapter.book(bookRequest(), settings, now())).status).toBe('ok');
    expect(server.to(BARCODE_PATH)[0].query.get('Serie')).toBe('100000000-999999999');
    expect(JSON.parse(server.to(LABEL_PATH)[0].body).Customer.CollectionLocation).toBe('123456');
  });

  it('no barcode, no booking: a refused barcode request sends no label call', async () => {
    const result = await adapter.book(bookRequest(), { ...BOOKING_SETTINGS, customer_number: '99999999' }, now());
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.outcome_unknown).toBeFalsy();
    expect(result.status === 'error' && result.message).toContain('13 Customer not found');
    expect(server.to(LABEL_PATH)).toHaveLength(0);
  });

  it('a refusal inside a 200 answer is a refusal; a 500 after sending is outcome_unknown, a refused key is not', async () => {
    server.once(LABEL_PATH, {
      status: 200,
      body: {
        ResponseShipments: [
          { Barcode: '3SDEVC520000001', Errors: [{ Code: '1280202', Description: 'Incorrect address specified in address type Sender' }] },
        ],
      },
    });
    const refused = await adapter.book(bookRequest(), BOOKING_SETTINGS, now());
    expect(refused).toMatchObject({ status: 'error', retryable: false });
    expect(refused.status === 'error' && refused.field_errors).toEqual([
      { path: ['sender_address'], message: 'PostNL: 1280202 Incorrect address specified in address type Sender' },
    ]);
    server.once(LABEL_PATH, { status: 500, body: { Errors: [{ Description: 'Internal error' }] } });
    expect(await adapter.book(bookRequest(), BOOKING_SETTINGS, now())).toMatchObject({ status: 'error', outcome_unknown: true });
    expect(server.to(LABEL_PATH).at(-1)!.query.get('confirm')).toBe('true');
    const calls = server.to(LABEL_PATH).length;
    expect(calls).toBe(2);
    const badKey = await adapter.book(bookRequest(), { ...BOOKING_SETTINGS, api_key: 'wrong-key' }, now());
    expect(badKey).toMatchObject({ status: 'error', retryable: false });
    expect(badKey.status === 'error' && badKey.outcome_unknown).toBeFalsy();
  });

  it('findBooking: not found, found with every parcel’s label rendered again without confirming, or asked again while PostNL lists part', async () => {
    const parcels = [1000, 2000].map((weight_grams) => ({ weight_grams, dimensions_cm: null }));
    const request = bookRequest({ parcels, booking_reference: 'WB00000000000000FIND' });
    expect(await adapter.findBooking(request, BOOKING_SETTINGS, now())).toEqual({ status: 'not_found' });
    const lookup = server.to(/^\/shipment\/v2\/status\/reference\//)[0];
    expect(lookup.path).toBe('/shipment/v2/status/reference/WB00000000000000FIND');
    expect(lookup.query.get('customerCode')).toBe('DEVC');

    const booked = await adapter.book(request, BOOKING_SETTINGS, now());
    if (booked.status !== 'ok') throw new Error(booked.message);
    const found = await adapter.findBooking(request, BOOKING_SETTINGS, now());
    expect(found.status).toBe('found');
    if (found.status !== 'found') return;
    expect(found.result.parcel_tracking_numbers).toEqual(booked.parcel_tracking_numbers);
    expect(found.result.carrier_additional_info).toMatchObject({ recovered: true, main_barcode: booked.tracking_number });
    const labels = found.result.labels.map((l) => (l.kind === 'file' ? Buffer.from(l.bytes) : null));
    expect(labels).toEqual(booked.parcel_tracking_numbers!.map((b) => pdfLabel(b)));
    expect(postnl.labelCalls(true)).toHaveLength(1);
    expect(postnl.labelCalls(false)).toHaveLength(1);

    postnl.confirmed.pop();
    const partial = await adapter.findBooking(request, BOOKING_SETTINGS, now());
    expect(partial).toMatchObject({ status: 'error', retryable: true });
  });

  it('validateBooking: PostNL’s warnings, a refusal on our field, an unreadable answer to be asked again; never a confirming call', async () => {
    server.once(LABEL_PATH, {
      status: 200,
      body: {
        ResponseShipments: [{ Barcode: '3SDEVC520000001', Labels: [], Warnings: [{ Code: '6001', Description: 'Street corrected' }] }],
      },
    });
    expect(await adapter.validateBooking(bookRequest(), BOOKING_SETTINGS, now())).toEqual({
      status: 'ok',
      warnings: ['6001 Street corrected'],
    });
    const refused = await adapter.validateBooking(
      bookRequest({ recipient: { ...CONSUMER_NL, postal_code: '9999ZZ' } }),
      BOOKING_SETTINGS,
      now(),
    );
    expect(refused.status === 'error' && refused.field_errors?.map((e) => e.path)).toEqual([['recipient_address', 'postal_code']]);
    server.once(LABEL_PATH, { status: 200, body: {} });
    expect(await adapter.validateBooking(bookRequest(), BOOKING_SETTINGS, now())).toMatchObject({ status: 'error', retryable: true });
    expect(postnl.labelCalls(true)).toHaveLength(0);
    expect(postnl.confirmed).toHaveLength(0);
  });

  it('cancel: released while PostNL only has the pre-announcement or nothing; refused once PostNL has the parcel; never a call for what is no barcode', async () => {
    const booked = await adapter.book(bookRequest(), BOOKING_SETTINGS, now());
    if (booked.status !== 'ok') throw new Error(booked.message);
    expect(await adapter.cancel(booked.carrier_shipment_identifier, BOOKING_SETTINGS)).toEqual({ status: 'ok' });
    expect(await adapter.cancel('3SDEVC419999999', BOOKING_SETTINGS)).toEqual({ status: 'ok' });
    postnl.receive(booked.tracking_number);
    const refused = await adapter.cancel(booked.carrier_shipment_identifier, BOOKING_SETTINGS);
    expect(refused).toMatchObject({ status: 'error', retryable: false });
    expect(refused.status === 'error' && refused.message).toContain('status 3');
    const calls = server.to(STATUS_PATH).length;
    expect(await adapter.cancel('not a barcode!', BOOKING_SETTINGS)).toMatchObject({ status: 'error', retryable: false });
    server.once(STATUS_PATH, { status: 200, body: { unexpected: true } });
    expect(await adapter.cancel(booked.carrier_shipment_identifier, BOOKING_SETTINGS)).toMatchObject({ status: 'error', retryable: true });
    expect(server.to(STATUS_PATH).length).toBe(calls + 1);
  });

  it('cancel of a multi-collo shipment: refused when PostNL has any of its parcels', async () => {
    const parcels = [1000, 2000].map((weight_grams) => ({ weight_grams, dimensions_cm: null }));
    const booked = await adapter.book(bookRequest({ parcels }), BOOKING_SETTINGS, now());
    if (booked.status !== 'ok') throw new Error(booked.message);
    const second = booked.parcel_tracking_numbers![1];
    postnl.receive(second);
    const refused = await adapter.cancel(booked.carrier_shipment_identifier, BOOKING_SETTINGS);
    expect(refused).toMatchObject({ status: 'error', retryable: false });
    expect(refused.status === 'error' && refused.message).toContain(`PostNL already has parcel ${second}`);
  });

  it('searches PostNL points: hours, distance, lockers; refuses what PostNL cannot search without calling', async () => {
    const found = await adapter.searchPudo(
      { postal_code: '1015cj', country_code: 'NL', radius_meters: 2000, limit: 10 },
      BOOKING_SETTINGS,
      now(),
    );
    if (found.status !== 'ok') throw new Error(found.message);
    const [shop, locker] = found.locations;
    expect(shop).toMatchObject({
      pudo_location_id: '176227',
      distance_meters: 412,
      lat: 52.37652,
      services: ['pick_up'],
      address: {
        address_name: 'Boekhandel Het Grachtje',
        line1: 'Prinsengracht 118',
        line2: 'Balie achterin de winkel',
        mapped_location_type: 'parcel_shop',
      },
      additional_info: { location_code: '176227', delivery_options: ['DO', 'PG', 'RETA', 'UL'] },
    });
    expect(shop.opening_hours.filter((h) => h.day_of_week === 'wednesday')).toEqual([
      { day_of_week: 'wednesday', open_hour: '09:00', close_hour: '12:30' },
      { day_of_week: 'wednesday', open_hour: '13:30', close_hour: '18:00' },
    ]);
    expect(shop.operating_hours_calc.find((h) => h.operating_day === 'wednesday')).toMatchObject({
      time_zone: 'Europe/Amsterdam',
      first_open_hours: '09:00-12:30',
      second_open_hours: '13:30-18:00',
    });
    expect(shop.opening_hours.some((h) => h.day_of_week === 'sunday')).toBe(false);
    expect(locker.address).toMatchObject({ mapped_location_type: 'parcel_locker', house_number: '7 A' });
    expect(found.locations).toHaveLength(2);
    const asked = server.to(LOCATIONS_PATH)[0].query;
    expect(Object.fromEntries(asked)).toEqual({
      CountryCode: 'NL',
      DeliveryOptions: 'PG',
      DeliveryDate: '29-11-2026',
      PostalCode: '1015CJ',
    });

    expect(
      await adapter.searchPudo({ postal_code: '9999', country_code: 'NL', radius_meters: 2000, limit: 10 }, BOOKING_SETTINGS, now()),
    ).toEqual({
      status: 'ok',
      locations: [],
    });
    const calls = server.to(LOCATIONS_PATH).length;
    expect(
      await adapter.searchPudo({ postal_code: '50667', country_code: 'DE', radius_meters: 2000, limit: 10 }, BOOKING_SETTINGS, now()),
    ).toMatchObject({
      status: 'error',
      retryable: false,
    });
    expect(
      await adapter.searchPudo({ postal_code: 'SW1A', country_code: 'NL', radius_meters: 2000, limit: 10 }, BOOKING_SETTINGS, now()),
    ).toMatchObject({
      status: 'error',
    });
    expect(
      await adapter.searchPudo({ lat: 52.37, lng: 4.89, radius_meters: 2000, limit: 10, services: ['drop_off'] }, BOOKING_SETTINGS, now()),
    ).toEqual({ status: 'ok', locations: [] });
    expect(server.to(LOCATIONS_PATH).length).toBe(calls);
  });
});

describe('postnl labelling answers', () => {
  it('reads labels and customs papers; an answer without shipments or barcodes is none', () => {
    const answer = readLabelAnswer({
      ResponseShipments: [
        {
          Barcode: '3SDEVC520000001',
          ProductCodeDelivery: '4944',
          Labels: [
            { Content: Buffer.from('%PDF-label').toString('base64'), Labeltype: 'Label', OutputType: 'PDF' },
            { Content: Buffer.from('%PDF-cn23').toString('base64'), Labeltype: 'CN23', OutputType: 'PDF' },
            { Content: 'not base64 at all!', Labeltype: 'Label', OutputType: 'PDF' },
          ],
          Warnings: [{ Code: 'W1', Description: 'House number added' }],
        },
      ],
    });
    expect(answer?.[0]).toMatchObject({ barcode: '3SDEVC520000001', productCode: '4944', warnings: ['W1 House number added'], errors: [] });
    expect(answer?.[0].labels.map((l) => [l.labelType, l.format, Buffer.from(l.bytes).toString()])).toEqual([
      ['Label', 'pdf', '%PDF-label'],
      ['CN23', 'pdf', '%PDF-cn23'],
    ]);
    expect(readLabelAnswer({})).toBeNull();
    expect(readLabelAnswer({ ResponseShipments: [{ Labels: [] }] })).toBeNull();
    expect(readLabelAnswer('<html>')).toBeNull();
  });

  it('reads every error shape PostNL documents: Labelling, Barcode, shipment errors and the gateway’s fault', () => {
    expect(errorsOf({ Errors: [{ Error: 'Validation failed', Code: '1', Description: 'Bad' }] })).toEqual([
      { code: '1', message: 'Validation failed: Bad' },
    ]);
    expect(errorsOf({ errors: [{ ErrorMsg: 'Too many numbers in series', ErrorNumber: '8' }] })).toEqual([
      { code: '8', message: 'Too many numbers in series' },
    ]);
    expect(errorsOf({ fault: { faultstring: 'Invalid ApiKey' } })).toEqual([{ code: null, message: 'Invalid ApiKey' }]);
    expect(errorsOf(undefined)).toEqual([]);
  });

  it('maps refusals to our fields by the party and field PostNL names', () => {
    const request = bookRequest({ parcels: [1, 2].map(() => ({ weight_grams: 800, dimensions_cm: null })) });
    const errors = fieldErrorsOf(
      [
        { code: '1', message: 'Invalid zipcode for address type Receiver' },
        { code: '2', message: 'Sender city is missing' },
        { code: '3', message: 'Validation failed for shipment: 3SDEVC520000002: weight exceeds the maximum' },
        { code: '4', message: 'Invalid ProductCodeDelivery' },
        { code: '5', message: 'Something else' },
        { code: '6', message: 'House number unknown for AddressType 01' },
      ],
      request,
      ['3SDEVC520000001', '3SDEVC520000002'],
    );
    expect(errors.map((e) => e.path)).toEqual([
      ['recipient_address', 'postal_code'],
      ['sender_address', 'city'],
      ['carrier_metadata', 'parcels', 1, 'weight'],
      ['shipping_service'],
      ['carrier_reference'],
      ['recipient_address', 'house_number'],
    ]);
    const returning = bookRequest({
      type_of_shipment: 'return',
      shipping_service: '2285',
      sender: { ...CONSUMER_NL },
      recipient: { ...MERCHANT_NL },
    });
    expect(fieldErrorsOf([{ code: '1', message: 'Invalid zipcode for address type Receiver' }], returning, [])[0].path).toEqual([
      'sender_address',
      'postal_code',
    ]);
  });

  it('writes the message time in Dutch time, summer and winter', () => {
    expect(dutchTimestamp(new Date('2026-07-01T10:00:05Z'))).toBe('01-07-2026 12:00:05');
    expect(dutchTimestamp(new Date('2026-12-31T23:30:00Z'))).toBe('01-01-2027 00:30:00');
  });
});

import { PNG } from 'pngjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookedLabel, BookRequest, BookResult } from '../../../src/carriers/booking.js';
import { UpsCarrier } from '../../../src/carriers/upsglb/upsglb.carrier.js';
import { localToolkit, requestsFor } from '../support/kit.js';
import { bookRequest, CONSUMER_CH, CONSUMER_US, MERCHANT_US, SOCKS } from './ups-book-requests.js';
import { gifLabel, gifPixels, zplLabel } from './ups-labels.js';
import { NUMBERS, SETTINGS, TOKEN_PATH, TRACK_PATH, UpsServer, upsAdapter } from './ups-server.js';
import {
  BOOKING_SETTINGS,
  LOCATOR_PATH,
  RECOVERY_PATH,
  SHIP_PATH,
  SHIPPER_NUMBER,
  UpsShippingRoutes,
  VOID_PATH,
} from './ups-shipping-server.js';

let server: UpsServer;
let ups: UpsShippingRoutes;
beforeEach(async () => {
  server = await UpsServer.create();
  ups = UpsShippingRoutes.install(server);
});
afterEach(async () => {
  expect(ups.faults).toEqual([]);
  await server.close();
});

const now = () => ({ now: new Date() });
const book = (adapter: UpsCarrier, request: BookRequest, settings: Record<string, unknown> = BOOKING_SETTINGS) =>
  adapter.book(request, settings, now());
const bytesOf = (label: BookedLabel) => Buffer.from((label as { bytes: Uint8Array }).bytes);

function booked(result: BookResult) {
  if (result.status !== 'ok') throw new Error(`not booked: ${result.message}`);
  return result;
}

describe('UPS booking against a local UPS', () => {
  it('books with the tracking token and UPS’s headers; the GIF label becomes a PDF; the booking reference goes with it', async () => {
    const adapter = upsAdapter(server);
    await adapter.track(requestsFor(NUMBERS.delivered), SETTINGS, now());
    const request = bookRequest();
    const result = booked(await book(adapter, request));
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    const [call] = ups.shipCalls();
    expect(call.headers.authorization).toBe(server.to(TRACK_PATH)[0].headers.authorization);
    expect(call.headers.transid).toMatch(/^[0-9a-f]{32}$/);
    expect(call.headers.transactionsrc).toBe('waybill');
    const [atUps] = ups.booked;
    expect(atUps.references).toEqual([request.booking_reference, 'ORDER-1001']);
    expect(result).toMatchObject({
      tracking_number: atUps.shipmentId,
      carrier_shipment_identifier: atUps.shipmentId,
      shipping_service: '11',
      parcel_tracking_numbers: [atUps.shipmentId],
      carrier_additional_info: {
        shipment_identification_number: atUps.shipmentId,
        booking_reference: request.booking_reference,
        label_format: 'pdf',
        total_charges: { amount: 18.4, currency: 'EUR' },
      },
    });
    expect(result.tracking_number).toMatch(new RegExp(`^1Z${SHIPPER_NUMBER}`));
    const [label] = result.labels;
    expect(label).toMatchObject({
      kind: 'file',
      format: 'pdf',
      document_type: 'label',
      parcel_index: 0,
      tracking_number: result.tracking_number,
    });
    expect(bytesOf(label).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('PNG when asked: the GIF UPS sent, pixel for pixel; ZPL from the configuration: UPS’s bytes as they came', async () => {
    const adapter = upsAdapter(server);
    const png = booked(await book(adapter, bookRequest({ carrier_metadata: { label_format: 'png' } })));
    const decoded = PNG.sync.read(bytesOf(png.labels[0]));
    expect(Buffer.from(decoded.data).equals(Buffer.from(gifPixels(gifLabel(png.tracking_number)).rgba))).toBe(true);
    const zpl = booked(await book(adapter, bookRequest(), { ...BOOKING_SETTINGS, label_format: 'zpl' }));
    expect(zpl.labels[0].format).toBe('zpl');
    expect(bytesOf(zpl.labels[0]).toString()).toBe(zplLabel(zpl.tracking_number));
    expect(JSON.parse(ups.shipCalls()[1].body).ShipmentRequest.LabelSpecification.LabelImageFormat.Code).toBe('ZPL');
  });

  it('three parcels: one shipment, one label and tracking number per parcel, in order', async () => {
    const parcels = [
      { weight_grams: 1000, dimensions_cm: { length: 30, width: 20, height: 10 } },
      { weight_grams: 2500, dimensions_cm: null },
      { weight_grams: 400, dimensions_cm: { length: 15, width: 15, height: 5 } },
    ];
    const result = booked(await book(upsAdapter(server), bookRequest({ parcels })));
    const [atUps] = ups.booked;
    expect(atUps.packages).toHaveLength(3);
    expect(result.parcel_tracking_numbers).toEqual(atUps.packages);
    expect(result.labels.map((l) => [l.parcel_index, l.tracking_number])).toEqual(atUps.packages.map((n, i) => [i, n]));
    expect(JSON.parse(ups.shipCalls()[0].body).ShipmentRequest.Shipment.Package.map((p: any) => p.PackageWeight.Weight)).toEqual([
      '1',
      '2.5',
      '0.4',
    ]);
  });

  it('a return label (Print Return Label) from Switzerland with its partial invoice; an outbound parcel to Switzerland with its invoice', async () => {
    const adapter = upsAdapter(server);
    const back = booked(
      await book(
        adapter,
        bookRequest({
          type_of_shipment: 'return',
          sender: { ...CONSUMER_CH },
          recipient: bookRequest().sender,
          sender_field: 'from_address',
          recipient_field: 'to_address',
          line_items: [SOCKS],
        }),
      ),
    );
    expect(back.labels.map((l) => l.document_type)).toEqual(['label', 'customs_declaration']);
    expect(JSON.parse(ups.shipCalls()[0].body).ShipmentRequest.Shipment.ReturnService.Code).toBe('9');
    const out = booked(await book(adapter, bookRequest({ recipient: { ...CONSUMER_CH }, line_items: [SOCKS] })));
    const invoice = out.labels.find((l) => l.document_type === 'customs_declaration');
    expect(invoice?.format).toBe('pdf');
    expect(bytesOf(invoice!).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('negotiated rates when the configuration asks for them', async () => {
    const result = booked(await book(upsAdapter(server), bookRequest(), { ...BOOKING_SETTINGS, negotiated_rates: true }));
    expect(result.carrier_additional_info.negotiated_charges).toEqual({ amount: 14.9, currency: 'EUR' });
  });

  it('a refusal in UPS’s shape is final and names our field; nothing is booked', async () => {
    const result = await book(
      upsAdapter(server),
      bookRequest({ sender: { ...MERCHANT_US }, recipient: { ...CONSUMER_US, postal_code: '0700' }, shipping_service: '03' }),
    );
    expect(result).toMatchObject({
      status: 'error',
      retryable: false,
      field_errors: [{ path: ['recipient_address', 'postal_code'], message: expect.stringContaining('120207') }],
    });
    expect(result.status === 'error' && result.outcome_unknown).toBeFalsy();
    expect(ups.booked).toEqual([]);
    const account = await book(upsAdapter(server), bookRequest(), { ...BOOKING_SETTINGS, account_number: 'ZZ9999' });
    expect(account).toMatchObject({ status: 'error', retryable: false, field_errors: [{ path: ['carrier_reference'] }] });
  });
});

describe('UPS booking: answers lost after sending', () => {
  it('an answer broken mid-way is outcome_unknown after exactly one ship call; findBooking then finds the booking and its labels', async () => {
    const adapter = upsAdapter(server);
    const request = bookRequest({
      parcels: [
        { weight_grams: 800, dimensions_cm: null },
        { weight_grams: 900, dimensions_cm: null },
      ],
    });
    ups.loseNextShipAnswer = true;
    const result = await book(adapter, request);
    expect(result).toMatchObject({ status: 'error', retryable: true, outcome_unknown: true });
    expect(ups.shipCalls()).toHaveLength(1);
    const found = await adapter.findBooking(request, BOOKING_SETTINGS, now());
    expect(found.status).toBe('found');
    if (found.status !== 'found') return;
    const [atUps] = ups.booked;
    expect(found.result).toMatchObject({
      tracking_number: atUps.shipmentId,
      carrier_shipment_identifier: atUps.shipmentId,
      parcel_tracking_numbers: atUps.packages,
      carrier_additional_info: { recovered: true, booking_reference: request.booking_reference },
    });
    expect(found.result.labels.map((l) => [l.format, l.parcel_index])).toEqual([
      ['pdf', 0],
      ['pdf', 1],
    ]);
    const [recovery] = server.to(RECOVERY_PATH);
    expect(JSON.parse(recovery.body).LabelRecoveryRequest.ReferenceValues).toEqual({
      ReferenceNumber: { Value: request.booking_reference },
      ShipperNumber: SHIPPER_NUMBER,
    });
    expect(ups.shipCalls()).toHaveLength(1);
  });

  it('when UPS answers a reference with candidates, their labels are asked by tracking number', async () => {
    const adapter = upsAdapter(server);
    const request = bookRequest();
    ups.loseNextShipAnswer = true;
    await book(adapter, request);
    ups.recoveryMode = 'candidates';
    const found = await adapter.findBooking(request, BOOKING_SETTINGS, now());
    expect(found.status === 'found' && found.result.tracking_number).toBe(ups.booked[0].shipmentId);
    expect(server.to(RECOVERY_PATH).map((r) => Object.keys(JSON.parse(r.body).LabelRecoveryRequest).sort())).toEqual([
      ['LabelSpecification', 'ReferenceValues', 'Request'],
      ['LabelSpecification', 'Request', 'TrackingNumber'],
    ]);
  });

  it('a booking UPS never made is not_found', async () => {
    expect(await upsAdapter(server).findBooking(bookRequest(), BOOKING_SETTINGS, now())).toEqual({ status: 'not_found' });
  });

  it('a hanging ship call abandoned at the deadline is outcome_unknown, sent once', async () => {
    server.once(SHIP_PATH, { hang: true });
    const result = await upsAdapter(server).book(bookRequest(), BOOKING_SETTINGS, { now: new Date(), signal: AbortSignal.timeout(400) });
    expect(result).toMatchObject({ status: 'error', retryable: true, outcome_unknown: true });
    expect(ups.shipCalls()).toHaveLength(1);
  });

  it('a 502 or 504 may come after UPS booked: outcome_unknown, not retried; a 503 is no booking, not retried either', async () => {
    const adapter = upsAdapter(server);
    server.once(SHIP_PATH, { status: 502, body: 'Bad Gateway' });
    expect(await book(adapter, bookRequest())).toMatchObject({ status: 'error', outcome_unknown: true });
    server.once(SHIP_PATH, { status: 503, body: { response: { errors: [{ code: '503', message: 'Service Unavailable' }] } } });
    const unavailable = await book(adapter, bookRequest());
    expect(unavailable).toMatchObject({ status: 'error', retryable: true });
    expect(unavailable.status === 'error' && unavailable.outcome_unknown).toBeFalsy();
    expect(ups.shipCalls()).toHaveLength(2);
  });

  it('a refused connection sent nothing: a passing error, not outcome_unknown', async () => {
    const adapter = upsAdapter(server);
    await adapter.track(requestsFor(NUMBERS.delivered), SETTINGS, now());
    await server.close();
    const result = await book(adapter, bookRequest());
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(result.status === 'error' && result.outcome_unknown).toBeFalsy();
    server = await UpsServer.create();
    ups = UpsShippingRoutes.install(server);
  });

  it('a 200 that is not a ShipmentResponse may hide a booking: outcome_unknown', async () => {
    server.once(SHIP_PATH, { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>maintenance</html>' });
    expect(await book(upsAdapter(server), bookRequest())).toMatchObject({ status: 'error', outcome_unknown: true });
  });
});

describe('UPS void and settings', () => {
  it('voids a booking; voiding it again is a final error quoting UPS', async () => {
    const adapter = upsAdapter(server);
    const result = booked(await book(adapter, bookRequest()));
    expect(await adapter.cancel(result.carrier_shipment_identifier, BOOKING_SETTINGS)).toEqual({ status: 'ok' });
    expect(server.to(VOID_PATH)[0].path).toBe(`/api/shipments/v2409/void/cancel/${result.carrier_shipment_identifier}`);
    expect(server.to(VOID_PATH)[0].method).toBe('DELETE');
    const again = await adapter.cancel(result.carrier_shipment_identifier, BOOKING_SETTINGS);
    expect(again).toEqual({
      status: 'error',
      retryable: false,
      message: expect.stringContaining('190102: No shipment found within the allowed void period'),
    });
    expect(await adapter.cancel('not-a-ups-number', BOOKING_SETTINGS)).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(VOID_PATH)).toHaveLength(2);
  });

  it('the account number may come from the operator; without one a booking is refused before any call', () => {
    const request = bookRequest();
    const withOperator = new UpsCarrier(localToolkit('upsglb', server.url, { WAYBILL_CARRIER_UPSGLB_ACCOUNT_NUMBER: SHIPPER_NUMBER }));
    expect(withOperator.checkBooking(request, SETTINGS)).toEqual([]);
    expect(
      upsAdapter(server)
        .checkBooking(request, SETTINGS)
        .map((e) => e.path),
    ).toEqual([['carrier_reference']]);
    expect(server.requests).toHaveLength(0);
  });

  it('no secret or token appears in a result, even when UPS echoes them', async () => {
    const adapter = upsAdapter(server);
    await adapter.track(requestsFor(NUMBERS.delivered), SETTINGS, now());
    server.once(SHIP_PATH, {
      status: 400,
      body: { response: { errors: [{ code: '120100', message: `bad ${SETTINGS.client_secret} wb-access-token-1` }] } },
    });
    const result = await book(adapter, bookRequest());
    expect(JSON.stringify(result)).not.toMatch(new RegExp(`${SETTINGS.client_secret}|wb-access-token-1`));
    expect(result).toMatchObject({ status: 'error', field_errors: [{ path: ['carrier_reference'] }] });
  });
});

describe('UPS Access Point search against a local UPS', () => {
  it('by point and by postal code: Access Points with their hours, through the Locator with the same token', async () => {
    const adapter = upsAdapter(server);
    await adapter.track(requestsFor(NUMBERS.delivered), SETTINGS, now());
    const byPoint = await adapter.searchPudo(
      { lat: 52.3731, lng: 4.8924, radius_meters: 3_000, limit: 20, services: ['pick_up'] },
      SETTINGS,
      now(),
    );
    expect(byPoint.status).toBe('ok');
    if (byPoint.status !== 'ok') return;
    expect(byPoint.locations.map((l) => [l.pudo_location_id, l.address.mapped_location_type, l.distance_meters])).toEqual([
      ['NL0004711', 'parcel_shop', 200],
      ['NL0009152', 'parcel_locker', 1100],
    ]);
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    const [call] = server.to(LOCATOR_PATH);
    expect(call.query.get('Locale')).toBe('en_US');
    expect(JSON.parse(call.body).LocatorRequest.LocationSearchCriteria.AccessPointSearch.IncludeCriteria).toEqual({
      ServiceOfferingList: { ServiceOffering: [{ Code: '005', Description: 'Pickup' }] },
    });
    const byPostal = await adapter.searchPudo(
      { postal_code: '1015 CJ', country_code: 'NL', radius_meters: 5_000, limit: 5 },
      SETTINGS,
      now(),
    );
    expect(byPostal.status === 'ok' && byPostal.locations).toHaveLength(2);
  });

  it('no Access Point near the place is an empty answer; a refusal of another kind is an error quoting UPS', async () => {
    const adapter = upsAdapter(server);
    expect(await adapter.searchPudo({ lat: 40.7128, lng: -74.006, radius_meters: 5_000, limit: 5 }, SETTINGS, now())).toEqual({
      status: 'ok',
      locations: [],
    });
    server.once(LOCATOR_PATH, { status: 400, body: { response: { errors: [{ code: '350999', message: 'Invalid search radius' }] } } });
    expect(await adapter.searchPudo({ lat: 52.37, lng: 4.89, radius_meters: 5_000, limit: 5 }, SETTINGS, now())).toMatchObject({
      status: 'error',
      retryable: false,
      message: expect.stringContaining('350999: Invalid search radius'),
    });
  });
});

describe('UPS booking: the token call is not the booking call', () => {
  it('a token answer lost mid-way sends no booking: a passing error, not outcome_unknown', async () => {
    server.once(TOKEN_PATH, { status: 200, headers: { 'content-type': 'application/json', 'content-length': 'broken' }, body: '{}' });
    const result = await book(upsAdapter(server), bookRequest());
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(result.status === 'error' && result.outcome_unknown).toBeFalsy();
    expect(ups.shipCalls()).toHaveLength(0);
  });
});

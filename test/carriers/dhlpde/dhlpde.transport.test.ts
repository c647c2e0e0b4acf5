import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookResult } from '../../../src/carriers/booking.js';
import { DhlParcelDeCarrier } from '../../../src/carriers/dhlpde/dhlpde.carrier.js';
import { mapLocations } from '../../../src/carriers/dhlpde/dhlpde.locations.js';
import { localToolkit, requestsFor } from '../support/kit.js';
import { DhlParcelServer, LOCATIONS_PATH, ORDERS_PATH, RETURNS_PATH, TOKEN_PATH, TRACK_PATH } from './dhl-parcel-server.js';
import { dhlpdeFixture, outboundRequest, returnRequest, SECRETS, SETTINGS, SWISS_CONSUMER, SWISS_GOODS } from './dhlpde.fixtures.js';

const NOW = { now: new Date('2026-11-24T09:00:00Z') };

function labelBytes(result: BookResult, index = 0): Buffer {
  if (result.status !== 'ok') throw new Error(`not booked: ${result.message}`);
  const label = result.labels[index];
  if (label.kind !== 'file') throw new Error('not a file');
  return Buffer.from(label.bytes);
}

function noSecrets(value: unknown): void {
  const text = JSON.stringify(value);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe('dhlpde transport: a local DHL Parcel DE', () => {
  let server: DhlParcelServer;
  let adapter: DhlParcelDeCarrier;

  beforeEach(async () => {
    server = await DhlParcelServer.create();
    adapter = new DhlParcelDeCarrier(localToolkit('dhlpde', server.url));
  });
  afterEach(async () => {
    await server.close();
  });

  it('books with a password-grant token it reuses, sending exactly what DHL’s schema allows, and keeps DHL’s label bytes', async () => {
    const first = await adapter.book(outboundRequest(), SETTINGS, NOW);
    const second = await adapter.book(outboundRequest({ booking_reference: 'WB00000000000000002A' }), SETTINGS, NOW);
    expect(first.status).toBe('ok');
    expect(second.status).toBe('ok');
    expect(server.faults).toEqual([]);
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    const [token] = server.to(TOKEN_PATH);
    expect(Object.fromEntries(new URLSearchParams(token.body))).toEqual({
      grant_type: 'password',
      username: 'user-valid',
      password: 'SandboxPasswort2023!',
      client_id: SETTINGS.api_key,
      client_secret: SETTINGS.api_secret,
    });
    const orders = server.to(ORDERS_PATH);
    expect(orders).toHaveLength(2);
    expect(orders[0].headers.authorization).toBe('Bearer wb-dhl-token-1');
    expect(orders[1].headers.authorization).toBe('Bearer wb-dhl-token-1');
    expect(orders[0].query.get('docFormat')).toBe('PDF');
    expect(JSON.parse(orders[0].body).shipments[0].refNo).toBe('WB6F1C2D4E0000400080');
    if (first.status !== 'ok') return;
    const created = server.created.get(first.tracking_number)!;
    expect(labelBytes(first).equals(created.label)).toBe(true);
    expect(labelBytes(first).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('books several parcels in one order and voids them all with one DELETE', async () => {
    const result = await adapter.book(
      outboundRequest({
        parcels: [
          { weight_grams: 900, dimensions_cm: null },
          { weight_grams: 2100, dimensions_cm: { length: 50, width: 40, height: 30 } },
          { weight_grams: 300, dimensions_cm: null },
        ],
      }),
      SETTINGS,
      NOW,
    );
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.parcel_tracking_numbers).toHaveLength(3);
    expect(result.labels.map((l) => l.parcel_index)).toEqual([0, 1, 2]);
    expect(server.to(ORDERS_PATH)).toHaveLength(1);
    expect(await adapter.cancel(result.carrier_shipment_identifier, SETTINGS)).toEqual({ status: 'ok' });
    const [deletion] = server.to(ORDERS_PATH).filter((r) => r.method === 'DELETE');
    expect(deletion.query.get('profile')).toBe('STANDARD_GRUPPENPROFIL');
    expect(deletion.query.getAll('shipment')).toEqual(result.parcel_tracking_numbers);
    expect([...server.created.values()].every((s) => s.cancelled)).toBe(true);
    // A second void: DHL no longer knows the shipments as voidable.
    const again = await adapter.cancel(result.carrier_shipment_identifier, SETTINGS);
    expect(again).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('Unknown shipment number') });
  });

  it('a parcel to Switzerland comes with DHL’s CN23 as a customs declaration; ZPL labels on request', async () => {
    const result = await adapter.book(
      outboundRequest({
        shipping_service: null,
        recipient: { ...SWISS_CONSUMER },
        line_items: SWISS_GOODS,
        carrier_metadata: { label_format: 'zpl' },
      }),
      SETTINGS,
      NOW,
    );
    expect(server.faults).toEqual([]);
    expect(result).toMatchObject({ status: 'ok', shipping_service: 'V53WPAK' });
    if (result.status !== 'ok') return;
    const created = server.created.get(result.tracking_number)!;
    expect(result.labels.map((l) => [l.document_type, l.format])).toEqual([
      ['label', 'zpl'],
      ['customs_declaration', 'pdf'],
    ]);
    expect(labelBytes(result, 0).equals(created.label)).toBe(true);
    expect(labelBytes(result, 1).equals(created.customsDoc!)).toBe(true);
    expect(server.to(ORDERS_PATH)[0].query.get('docFormat')).toBe('ZPL2');
  });

  it('undoes a partly booked order: the parcels DHL created are voided, the refused one is named', async () => {
    server.maxWeightGrams = 10_000;
    const result = await adapter.book(
      outboundRequest({
        parcels: [
          { weight_grams: 900, dimensions_cm: null },
          { weight_grams: 12_000, dimensions_cm: null },
        ],
      }),
      SETTINGS,
      NOW,
    );
    expect(result).toMatchObject({
      status: 'error',
      retryable: false,
      message: expect.stringContaining('were voided'),
      field_errors: [
        { path: ['carrier_metadata', 'parcels', 1, 'weight'], message: 'DHL: The weight is too high for the chosen product.' },
      ],
    });
    expect([...server.created.values()].map((s) => s.cancelled)).toEqual([true]);
  });

  it('a validation error of DHL’s backend comes back on our field; nothing is retried', async () => {
    const result = await adapter.book(
      outboundRequest({ recipient: { ...outboundRequest().recipient, city: 'Köln' } }),
      { ...SETTINGS, must_encode: true },
      NOW,
    );
    expect(result).toEqual({
      status: 'error',
      retryable: false,
      message: 'DHL refused the booking (HTTP 400): Bad Request: 0 of 1 shipments successfully created.',
      field_errors: [
        {
          path: ['recipient_address', 'postal_code'],
          message: 'DHL: The city entered does not match the postcode. The shipment is not codeable.',
        },
      ],
    });
    expect(server.to(ORDERS_PATH)).toHaveLength(1);
    // Without mustEncode DHL prints the label and warns.
    const warned = await adapter.book(outboundRequest({ recipient: { ...outboundRequest().recipient, city: 'Köln' } }), SETTINGS, NOW);
    expect(warned).toMatchObject({
      status: 'ok',
      carrier_additional_info: { warnings: [expect.stringContaining('does not match the postcode')] },
    });
  });

  it('DHL’s validate mode checks an order without creating anything', async () => {
    const ok = await adapter.validateBooking(
      outboundRequest({ recipient: { ...outboundRequest().recipient, city: 'Köln' } }),
      SETTINGS,
      NOW,
    );
    expect(ok).toEqual({ status: 'ok', warnings: ['The city entered does not match the postcode. The shipment is not codeable.'] });
    const refused = await adapter.validateBooking(
      outboundRequest({ recipient: { ...outboundRequest().recipient, city: 'Köln' } }),
      { ...SETTINGS, must_encode: true },
      NOW,
    );
    expect(refused).toMatchObject({ status: 'error', retryable: false, field_errors: [{ path: ['recipient_address', 'postal_code'] }] });
    expect(server.to(ORDERS_PATH).map((r) => r.query.get('validate'))).toEqual(['true', 'true']);
    expect(server.created.size).toBe(0);
    expect(server.faults).toEqual([]);
    expect(await adapter.validateBooking(returnRequest(), SETTINGS, NOW)).toMatchObject({
      status: 'ok',
      warnings: [expect.stringContaining('cannot be checked')],
    });
    expect(
      await adapter.validateBooking(
        outboundRequest({ weight_grams: null, parcels: [{ weight_grams: null, dimensions_cm: null }] }),
        SETTINGS,
        NOW,
      ),
    ).toMatchObject({
      status: 'error',
      field_errors: [{ path: ['weight'] }],
    });
  });

  it('5xx: a retryable failure, sent once; a gateway timeout (504) may have booked', async () => {
    server.once(ORDERS_PATH, { status: 503, body: { title: 'Service Unavailable', status: 503 } });
    const unavailable = await adapter.book(outboundRequest(), SETTINGS, NOW);
    expect(unavailable).toMatchObject({ status: 'error', retryable: true });
    expect(unavailable).not.toHaveProperty('outcome_unknown');
    expect(server.to(ORDERS_PATH)).toHaveLength(1);
    server.once(ORDERS_PATH, { status: 504, body: { title: 'Gateway Timeout' } });
    expect(await adapter.book(outboundRequest(), SETTINGS, NOW)).toMatchObject({ status: 'error', outcome_unknown: true });
    expect(server.to(ORDERS_PATH)).toHaveLength(2);
  });

  it('a booking sent without an answer is outcome_unknown and DHL received it exactly once', async () => {
    server.once(ORDERS_PATH, { hang: true });
    const result = await adapter.book(outboundRequest(), SETTINGS, { ...NOW, signal: AbortSignal.timeout(500) });
    expect(result).toMatchObject({ status: 'error', retryable: true, outcome_unknown: true });
    expect(server.to(ORDERS_PATH)).toHaveLength(1);
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
  });

  it('nothing sent is not unknown: a refused password, a DHL that cannot be reached', async () => {
    const wrong = await adapter.book(outboundRequest(), { ...SETTINGS, password: 'not-the-password' }, NOW);
    expect(wrong).toMatchObject({
      status: 'error',
      retryable: false,
      message: expect.stringContaining('refused the credentials (HTTP 401)'),
    });
    expect(wrong).not.toHaveProperty('outcome_unknown');
    expect(server.to(ORDERS_PATH)).toHaveLength(0);
    noSecrets(wrong);
    await server.close();
    const down = await adapter.book(outboundRequest(), SETTINGS, NOW);
    expect(down).toMatchObject({ status: 'error', retryable: true });
    expect(down).not.toHaveProperty('outcome_unknown');
    server = await DhlParcelServer.create();
  });

  it('a token DHL no longer accepts is renewed once, and the booking goes through', async () => {
    expect((await adapter.book(outboundRequest(), SETTINGS, NOW)).status).toBe('ok');
    server.validTokens.clear();
    expect((await adapter.book(outboundRequest(), SETTINGS, NOW)).status).toBe('ok');
    expect(server.to(TOKEN_PATH)).toHaveLength(2);
    expect(server.to(ORDERS_PATH).map((r) => r.headers.authorization)).toEqual([
      'Bearer wb-dhl-token-1',
      'Bearer wb-dhl-token-1',
      'Bearer wb-dhl-token-2',
    ]);
  });

  it('books a DHL Retoure label through the Returns API; voiding it asks DHL nothing', async () => {
    const result = await adapter.book(returnRequest(), SETTINGS, NOW);
    expect(server.faults).toEqual([]);
    expect(result).toMatchObject({
      status: 'ok',
      shipping_service: 'V07PAK',
      carrier_shipment_identifier: expect.stringMatching(/^retoure:/),
    });
    const [request] = server.to(RETURNS_PATH);
    expect(request.query.get('labelType')).toBe('SHIPMENT_LABEL');
    expect(request.headers.authorization).toBe('Bearer wb-dhl-token-1');
    if (result.status !== 'ok') return;
    expect(labelBytes(result).equals(server.created.get(result.tracking_number)!.label)).toBe(true);
    expect(await adapter.cancel(result.carrier_shipment_identifier, SETTINGS)).toEqual({ status: 'ok' });
    expect(server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
    const unknownReceiver = await adapter.book(returnRequest(), { ...SETTINGS, return_receiver_id: 'nld' }, NOW);
    expect(unknownReceiver).toMatchObject({ status: 'error', retryable: false, field_errors: [{ path: ['carrier_reference'] }] });
  });

  it('searches pick-up points by point and by postal code, within DHL’s radius and limit', async () => {
    const byPoint = await adapter.searchPudo({ lat: 50.7341, lng: 7.0982, radius_meters: 50_000, limit: 80 }, SETTINGS, NOW);
    expect(byPoint).toEqual({ status: 'ok', locations: mapLocations(dhlpdeFixture('locations-bonn'), 'dhlpde', NOW.now) });
    const byPostalCode = await adapter.searchPudo(
      { postal_code: '53111', country_code: 'de', city: 'Bonn', radius_meters: 2000, limit: 10 },
      SETTINGS,
      NOW,
    );
    expect(byPostalCode.status).toBe('ok');
    const [geo, address] = server.to(LOCATIONS_PATH);
    expect(geo.path).toBe('/location-finder/v1/find-by-geo');
    expect(Object.fromEntries(geo.query)).toEqual({
      providerType: 'parcel',
      latitude: '50.7341',
      longitude: '7.0982',
      radius: '25000',
      limit: '50',
    });
    expect(geo.headers['dhl-api-key']).toBe(SETTINGS.api_key);
    expect(Object.fromEntries(address.query)).toEqual({
      providerType: 'parcel',
      countryCode: 'DE',
      postalCode: '53111',
      addressLocality: 'Bonn',
      radius: '2000',
      limit: '10',
    });
    expect(await adapter.searchPudo({ postal_code: '99999', country_code: 'DE', radius_meters: 2000, limit: 10 }, SETTINGS, NOW)).toEqual({
      status: 'ok',
      locations: [],
    });
    const refused = await adapter.searchPudo(
      { lat: 50.7, lng: 7.1, radius_meters: 2000, limit: 10 },
      { ...SETTINGS, api_key: 'someone-elses-key' },
      NOW,
    );
    expect(refused).toMatchObject({ status: 'error', retryable: false });
    expect(server.faults).toEqual([]);
    expect(adapter.supportsPudo(SETTINGS)).toBe(true);
  });

  it('tracks a booked DHL Paket number through Unified Tracking (service parcel-de) with the configuration’s key', async () => {
    const booked = await adapter.book(outboundRequest(), SETTINGS, NOW);
    if (booked.status !== 'ok') throw new Error(booked.message);
    const [result] = await adapter.track(requestsFor(booked.tracking_number), SETTINGS, { now: new Date() });
    expect(result).toMatchObject({ status: 'ok', tracking_number: booked.tracking_number, events: [{ event_key: expect.any(String) }] });
    const [call] = server.to(TRACK_PATH);
    expect(call.query.get('service')).toBe('parcel-de');
    expect(call.headers['dhl-api-key']).toBe(SETTINGS.api_key);
    expect(adapter.callsLeftToday(SETTINGS)).toBe(adapter.limits.daily_quota! - 1);
    const [incomplete] = await adapter.track(requestsFor(booked.tracking_number), { api_key: SETTINGS.api_key }, { now: new Date() });
    expect(incomplete).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('incomplete') });
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InpostCarrier } from '../../../src/carriers/inpost/inpost.carrier.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { bookRequest, lockerRequest } from './inpost-book-requests.js';
import { API_TOKEN, inpostAdapter, inpostServer } from './inpost-server.js';
import { BOOKING_SETTINGS, CREATE_PATH, LABEL_PATH, POINTS_PATH, ShipxRoutes, UNKNOWN_POST_CODE, zplLabel } from './shipx-server.js';

/**
 * The adapter's booking calls against the local ShipX: the create call, waiting for the offer to be bought,
 * the label, a refusal mapped to our fields, a shipment not bought in time, the lookup by reference,
 * cancellation, and the Points search.
 */
describe('inpost booking against a local ShipX', () => {
  let server: CarrierServer;
  let shipx: ShipxRoutes;
  let adapter: InpostCarrier;

  beforeEach(async () => {
    server = await inpostServer();
    shipx = ShipxRoutes.install(server);
    adapter = inpostAdapter(server).adapter;
  });
  afterEach(async () => {
    await server.close();
  });

  const book = (request = bookRequest(), signal?: AbortSignal) =>
    adapter.book(request, { ...BOOKING_SETTINGS }, { now: new Date(), ...(signal ? { signal } : {}) });

  it('creates the shipment once with its service, waits until it is bought, and downloads a PDF label', async () => {
    const result = await book();
    expect(result.status, JSON.stringify(result)).toBe('ok');
    if (result.status !== 'ok') return;
    const [call] = shipx.createCalls();
    expect(call.headers.authorization).toBe(`Bearer ${API_TOKEN}`);
    const sent = JSON.parse(call.body);
    expect(sent).toMatchObject({
      service: 'inpost_courier_standard',
      reference: 'ORDER-7781 / WB5A0B6C2D3E4F4A5B9C',
      receiver: {
        first_name: 'Jan',
        last_name: 'Kowalski',
        phone: '600700800',
        address: { street: 'Długa', building_number: '12/4', post_code: '00-238', city: 'Warszawa', country_code: 'PL' },
      },
      sender: { company_name: 'Sklep Kraków Sp. z o.o.', phone: '512345678', address: { street: 'Wielicka', building_number: '28' } },
      parcels: [{ dimensions: { length: 400, width: 300, height: 200, unit: 'mm' }, weight: { amount: 2, unit: 'kg' } }],
    });
    expect(sent.is_return).toBeUndefined();
    const atShipx = shipx.shipments[0];
    expect(result).toMatchObject({
      tracking_number: atShipx.tracking_number,
      carrier_shipment_identifier: String(atShipx.id),
      shipping_service: 'inpost_courier_standard',
      carrier_additional_info: { shipx_shipment_id: String(atShipx.id), label_format: 'pdf', label_type: 'A6' },
    });
    const label = result.labels[0];
    expect(label.kind === 'file' && Buffer.from(label.bytes).toString('latin1').startsWith('%PDF-')).toBe(true);
    expect(server.to(LABEL_PATH)[0].url).toContain('format=Pdf&type=A6');
    expect(shipx.faults).toEqual([]);
  });

  it('ZPL when asked; a locker shipment names its locker and size', async () => {
    const result = await book(
      lockerRequest({ carrier_metadata: { target_point: 'kra010', parcel_template: 'small', label_format: 'zpl' } }),
    );
    expect(result.status, JSON.stringify(result)).toBe('ok');
    if (result.status !== 'ok') return;
    const label = result.labels[0];
    expect(label.format).toBe('zpl');
    expect(label.kind === 'file' && Buffer.from(label.bytes).toString()).toBe(zplLabel(result.tracking_number));
    const sent = JSON.parse(shipx.createCalls()[0].body);
    expect(sent).toMatchObject({
      service: 'inpost_locker_standard',
      custom_attributes: { target_point: 'KRA010' },
      parcels: [{ template: 'small' }],
    });
    expect(sent.receiver).toMatchObject({ phone: '600700800', email: 'jan.kowalski@example.org' });
    expect(result.carrier_additional_info.target_point).toBe('KRA010');
  });

  it('several courier parcels: ids in the request, one label file, every parcel’s number', async () => {
    const parcels = [1000, 2500, 4000].map((weight_grams) => ({ weight_grams, dimensions_cm: { length: 30, width: 20, height: 10 } }));
    const result = await book(bookRequest({ parcels }));
    expect(result.status, JSON.stringify(result)).toBe('ok');
    if (result.status !== 'ok') return;
    expect(JSON.parse(shipx.createCalls()[0].body).parcels.map((p: { id: string }) => p.id)).toEqual(['1', '2', '3']);
    expect(result.labels).toHaveLength(1);
    expect(result.parcel_tracking_numbers).toEqual(shipx.shipments[0].parcels.map((p) => p.tracking_number));
    expect(result.tracking_number).toBe(result.parcel_tracking_numbers?.[0]);
  });

  it('a return is created as a return shipment from the consumer to the merchant', async () => {
    const request = bookRequest({
      type_of_shipment: 'return',
      sender: bookRequest().recipient,
      recipient: bookRequest().sender,
      sender_field: 'from_address',
      recipient_field: 'to_address',
    });
    expect(adapter.checkBooking(request, { ...BOOKING_SETTINGS })).toEqual([]);
    const result = await book(request);
    expect(result.status, JSON.stringify(result)).toBe('ok');
    const sent = JSON.parse(shipx.createCalls()[0].body);
    expect(sent).toMatchObject({
      is_return: true,
      sender: { last_name: 'Kowalski' },
      receiver: { company_name: 'Sklep Kraków Sp. z o.o.' },
    });
  });

  it('ShipX’s validation_failed names our fields; nothing is booked', async () => {
    const refusedPoint = await book(lockerRequest({ carrier_metadata: { target_point: 'KRA999', parcel_template: 'small' } }));
    expect(refusedPoint).toMatchObject({
      status: 'error',
      retryable: false,
      field_errors: [{ path: ['carrier_metadata', 'target_point'], message: expect.stringContaining('does_not_exist') }],
    });
    const refusedCode = await book(bookRequest({ recipient: { ...bookRequest().recipient, postal_code: UNKNOWN_POST_CODE } }));
    expect(refusedCode).toMatchObject({ field_errors: [{ path: ['recipient_address', 'postal_code'] }] });
    expect(refusedCode.status === 'error' && refusedCode.message).toContain('receiver.address.post_code: invalid');
    expect(shipx.shipments).toHaveLength(0);
  });

  it('a wrong token is refused without field errors and without the token in the message', async () => {
    const result = await adapter.book(bookRequest(), { ...BOOKING_SETTINGS, api_token: 'wrong-token-123' }, { now: new Date() });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(JSON.stringify(result)).not.toContain('wrong-token-123');
    expect(result.status === 'error' && result.message).toContain('settings.api_token');
  });

  it('an offer ShipX cannot buy: the shipment is cancelled and the booking refused with InPost’s reason', async () => {
    shipx.failNextOffer = 'insufficient_funds';
    const result = await book();
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('insufficient_funds');
    expect(shipx.shipments[0].status).toBe('canceled');
  });

  it('a shipment not bought within the booking is outcome_unknown; findBooking waits for it, then finds it with its label', async () => {
    shipx.confirmAfterReads = Number.POSITIVE_INFINITY;
    const request = bookRequest();
    const result = await book(request, AbortSignal.timeout(1_000));
    expect(result).toMatchObject({ status: 'error', outcome_unknown: true });
    expect(shipx.createCalls()).toHaveLength(1);
    const waiting = await adapter.findBooking(request, { ...BOOKING_SETTINGS }, { now: new Date(), signal: AbortSignal.timeout(1_000) });
    expect(waiting).toMatchObject({ status: 'error', retryable: true });
    shipx.confirm(shipx.shipments[0]);
    const found = await adapter.findBooking(request, { ...BOOKING_SETTINGS }, { now: new Date() });
    expect(found.status, JSON.stringify(found)).toBe('found');
    if (found.status !== 'found') return;
    expect(found.result).toMatchObject({
      carrier_shipment_identifier: String(shipx.shipments[0].id),
      tracking_number: shipx.shipments[0].tracking_number,
      carrier_additional_info: { recovered: true },
    });
    expect(shipx.createCalls()).toHaveLength(1);
    expect(shipx.faults).toEqual([]);
  });

  it('a lost locker booking to a ParcelPoint is found under the service ShipX changed it to', async () => {
    shipx.loseNextCreateAnswer = true;
    const request = lockerRequest({ carrier_metadata: { target_point: 'POP-KRA45', parcel_template: 'medium' } });
    expect(await book(request)).toMatchObject({ status: 'error', outcome_unknown: true });
    const found = await adapter.findBooking(request, { ...BOOKING_SETTINGS }, { now: new Date() });
    expect(found.status, JSON.stringify(found)).toBe('found');
    expect(found.status === 'found' && found.result.shipping_service).toBe('inpost_locker_customer_service_point');
    const listed = server.requests.filter((r) => r.method === 'GET' && r.path === CREATE_PATH).at(-1)!;
    expect(listed.query.get('service')).toBe('inpost_locker_standard,inpost_locker_customer_service_point');
  });

  it('findBooking: not found when no shipment carries the reference (another booking’s does not count)', async () => {
    expect((await book()).status).toBe('ok');
    const other = bookRequest({ booking_reference: 'WB000000000000000001' });
    expect(await adapter.findBooking(other, { ...BOOKING_SETTINGS }, { now: new Date() })).toEqual({ status: 'not_found' });
  });

  it('cancels a shipment not yet bought; a bought one is refused, saying why', async () => {
    shipx.confirmAfterReads = Number.POSITIVE_INFINITY;
    await book(bookRequest(), AbortSignal.timeout(600));
    const pending = shipx.shipments[0];
    expect(await adapter.cancel(String(pending.id), { ...BOOKING_SETTINGS })).toEqual({ status: 'ok' });
    expect(pending.status).toBe('canceled');

    shipx.confirmAfterReads = 1;
    const booked = await book();
    expect(booked.status).toBe('ok');
    if (booked.status !== 'ok') return;
    const refused = await adapter.cancel(booked.carrier_shipment_identifier, { ...BOOKING_SETTINGS });
    expect(refused).toMatchObject({ status: 'error', retryable: false });
    expect(refused.status === 'error' && refused.message).toMatch(/only before it is bought .*is confirmed.*Parcel Manager/);
    expect(await adapter.cancel('not-an-id', { ...BOOKING_SETTINGS })).toMatchObject({ status: 'error', retryable: false });
  });

  it('searches parcel lockers near a point and by postal code, without a token', async () => {
    const near = await adapter.searchPudo(
      { lat: 50.0617, lng: 19.9373, radius_meters: 2_000, limit: 10 },
      { environment: 'sandbox' },
      { now: new Date() },
    );
    expect(near.status).toBe('ok');
    if (near.status !== 'ok') return;
    expect(near.locations.map((l) => l.pudo_location_id)).toEqual(['KRA010', 'KRA22M', 'POP-KRA45']);
    expect(near.locations[0]).toMatchObject({
      carrier_id: 'inpost',
      lat: 50.0625,
      services: ['drop_off', 'pick_up'],
      address: { mapped_location_type: 'parcel_locker', postal_code: '31-019', city: 'Kraków', country_code: 'PL', line1: 'Floriańska 14' },
    });
    expect(near.locations[0].operating_hours_calc).toHaveLength(14);
    expect(near.locations[2].address.mapped_location_type).toBe('parcel_shop');
    expect(near.locations[0].distance_meters).toBeGreaterThan(0);
    const asked = server.to(POINTS_PATH)[0];
    expect(asked.query.get('relative_point')).toBe('50.0617,19.9373');
    expect(asked.query.get('max_distance')).toBe('2000');
    expect(asked.headers.authorization).toBeUndefined();

    const byCode = await adapter.searchPudo(
      { postal_code: '31042', country_code: 'PL', radius_meters: 1_000, limit: 5 },
      { environment: 'sandbox' },
      { now: new Date() },
    );
    expect(byCode.status === 'ok' && byCode.locations.map((l) => l.pudo_location_id)).toEqual(['KRA010', 'KRA22M']);
    expect(server.to(POINTS_PATH)[1].query.get('relative_post_code')).toBe('31-042');
    const elsewhere = await adapter.searchPudo(
      { postal_code: '10115', country_code: 'DE', radius_meters: 1_000, limit: 5 },
      {},
      { now: new Date() },
    );
    expect(elsewhere).toEqual({ status: 'ok', locations: [] });
    expect(server.to(POINTS_PATH)).toHaveLength(2);
  });

  it('never a second create after a create without an answer', async () => {
    server.once(CREATE_PATH, { hang: true });
    const result = await book(bookRequest(), AbortSignal.timeout(400));
    expect(result).toMatchObject({ status: 'error', outcome_unknown: true });
    expect(server.to(CREATE_PATH)).toHaveLength(1);
  });
});

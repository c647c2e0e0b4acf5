import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { bookableShipment, createShipment } from './fixtures.js';

describe('POST /v5/booking/: what bad input gets', () => {
  let t: TestApp;
  let acct: TestAccount;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({
      features: ['booking'],
      carriers: [
        { carrier_reference: 'sb', booking: ['outbound'] },
        { carrier_reference: 'sb-track-only', booking: [] },
        { carrier_reference: 'sb-returns', booking: ['return'] },
      ],
    });
    // Unknown fields are refused only for accounts that ask for it (test/http/unknown-fields.test.ts).
    await t.admin('PATCH', `/admin/v1/accounts/${acct.accountUuid}/`, { strict_fields: true });
  });
  afterAll(() => t.close());

  const book = (body: Record<string, unknown>, token = acct.token) => t.call(token, 'POST', '/v5/booking/', body);
  const countBookings = async () => (await t.context.database.db.selectFrom('bookings').select('id').execute()).length;
  const newShipment = (extra: Record<string, unknown> = {}) => createShipment(t, acct.token, bookableShipment(`BE-${++n}`, extra));

  function expectBookingError(res: { statusCode: number; json(): any; body: string }, field: string[]): string {
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body.api_response).toBe('4030');
    expect(body.message).toBe('Validation error');
    expect(Object.keys(body.data).sort()).toEqual(['errors', 'shipment_id', 'shipment_uuid']);
    let node = body.data.errors;
    for (const key of field) node = node?.[key];
    expect(Array.isArray(node), res.body).toBe(true);
    expect(node[0]).toEqual({ api_response: '4030', standard_error_message: expect.any(String) });
    return node[0].standard_error_message;
  }

  it('needs the booking feature', async () => {
    const plain = await t.account({ carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
    const uuid = await createShipment(t, plain.token, bookableShipment('NF-1'));
    const res = await book({ shipment_uuid: uuid, carrier_reference: 'sb' }, plain.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ api_response: '4033', message: 'Feature not enabled: booking' });
    // Before the body is read: such an account learns that first, whatever it sends.
    for (const url of ['/v5/booking/', '/v5/booking/validate/', '/v5/booking/cancel/']) {
      const refused = await t.call(plain.token, 'POST', url, { shipment_uuid: 5, carrier_reference: ['sb'] });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toEqual({ api_response: '4033', message: 'Feature not enabled: booking' });
    }
  });

  it('reports an undefined carrier_reference under carrier_reference, with the shipment ids', async () => {
    const uuid = await newShipment();
    const res = await book({ shipment_uuid: uuid, carrier_reference: 'nope' });
    expect(expectBookingError(res, ['carrier_reference'])).toMatch(/not defined/);
    expect(res.json().data.shipment_uuid).toBe(uuid);
    expect(res.json().data.shipment_id).toBeNull();
  });

  it.each([
    ['empty carrier_reference', { carrier_reference: '' }, ['carrier_reference']],
    ['null carrier_reference', { carrier_reference: null }, ['carrier_reference']],
    ['carrier_reference over 50', { carrier_reference: 'c'.repeat(51) }, ['carrier_reference']],
    ['unknown field (strict account)', { colour: 'red' }, ['colour']],
    ['malformed pudo uuid', { pudo_location_uuid: 'x' }, ['pudo_location_uuid']],
    ['unknown pudo location', { pudo_location_uuid: '00000000-0000-4000-8000-000000000000' }, ['pudo_location_uuid']],
    ['unknown carrier option', { carrier_metadata: { insurance: 5 } }, ['carrier_metadata', 'insurance']],
    ['bad label format', { carrier_metadata: { label_format: 'bmp' } }, ['carrier_metadata', 'label_format']],
  ])('refuses %s and books nothing', async (_name, extra, path) => {
    const uuid = await newShipment();
    const before = await countBookings();
    expectBookingError(await book({ shipment_uuid: uuid, carrier_reference: 'sb', ...extra }), path as string[]);
    expect(await countBookings()).toBe(before);
  });

  it('needs an identifier, and refuses an unknown shipment', async () => {
    expectBookingError(await book({ carrier_reference: 'sb' }), ['shipment_uuid']);
    expectBookingError(await book({ shipment_id: 'ghost', carrier_reference: 'sb' }), ['shipment_id']);
  });

  it('refuses a carrier not enabled for this kind of booking', async () => {
    const uuid = await newShipment();
    expect(expectBookingError(await book({ shipment_uuid: uuid, carrier_reference: 'sb-track-only' }), ['carrier_reference'])).toMatch(
      /not enabled for outbound/,
    );
    expect(expectBookingError(await book({ shipment_uuid: uuid, carrier_reference: 'sb-returns' }), ['carrier_reference'])).toMatch(
      /not enabled for outbound/,
    );
  });

  it("refuses a carrier_reference that conflicts with the shipment's own", async () => {
    const uuid = await newShipment({ carrier_reference: 'sb-returns' });
    expect(expectBookingError(await book({ shipment_uuid: uuid, carrier_reference: 'sb' }), ['carrier_reference'])).toMatch(/sb-returns/);
  });

  it('asks for the data the carrier needs, by field', async () => {
    const uuid = await createShipment(t, acct.token, {
      shipment_id: `BE-${++n}`,
      recipient_address: { city: 'Paris', country_code: 'FR' },
    });
    const res = await book({ shipment_uuid: uuid, carrier_reference: 'sb' });
    expectBookingError(res, ['weight']);
    expectBookingError(res, ['sender_address']);
    expectBookingError(res, ['recipient_address', 'postal_code']);
    expectBookingError(res, ['recipient_address', 'line1']);
  });

  it('refuses a second booking of the same shipment, also when both arrive at once', async () => {
    const uuid = await newShipment();
    const results = await Promise.all([0, 1, 2].map(() => book({ shipment_uuid: uuid, carrier_reference: 'sb' })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const res of results.filter((r) => r.statusCode !== 200)) expectBookingError(res, ['shipment_uuid']);
    expect(expectBookingError(await book({ shipment_uuid: uuid, carrier_reference: 'sb' }), ['shipment_uuid'])).toMatch(/already booked/);
  });

  it('refuses a shipment that is no longer open', async () => {
    const uuid = await newShipment();
    await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_uuid: uuid,
      events: [{ event: 'Delivered', event_key: 'delivered', time: '2026-01-01' }],
    });
    expect(expectBookingError(await book({ shipment_uuid: uuid, carrier_reference: 'sb' }), ['shipment_uuid'])).toMatch(/delivered/);
  });

  it('leaves nothing half-booked when the carrier refuses, and returns its error as data', async () => {
    const uuid = await newShipment();
    const before = await countBookings();
    const refused = await book({ shipment_uuid: uuid, carrier_reference: 'sb', carrier_metadata: { simulate: 'carrier_rejects' } });
    expect(expectBookingError(refused, ['carrier_metadata', 'simulate'])).toMatch(/refused/);
    expect(await countBookings()).toBe(before);
    const details = (await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBeNull();
    expect(details.documents).toEqual([]);
    expect((await book({ shipment_uuid: uuid, carrier_reference: 'sb' })).statusCode).toBe(200);
  });

  it('answers 503 and books nothing when the carrier does not answer', async () => {
    const uuid = await newShipment();
    const before = await countBookings();
    const res = await book({ shipment_uuid: uuid, carrier_reference: 'sb', carrier_metadata: { simulate: 'carrier_unavailable' } });
    expect(res.statusCode).toBe(503);
    expect(res.json().api_response).toBe('500');
    expect(await countBookings()).toBe(before);
  });

  it("never books or shows another account's shipment or documents", async () => {
    const uuid = await newShipment();
    const label = (await book({ shipment_uuid: uuid, carrier_reference: 'sb' })).json().data.documents[0];
    const other = await t.account({ features: ['booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
    expectBookingError(await book({ shipment_uuid: uuid, carrier_reference: 'sb' }, other.token), ['shipment_uuid']);
    expect((await t.call(other.token, 'GET', `/v5/shipments/documents/${label.document_uuid}/`)).statusCode).toBe(404);
    expect((await t.call(other.token, 'GET', '/v5/shipments/documents/', undefined, { shipment_uuid: uuid })).statusCode).toBe(404);
    expect((await t.call(other.token, 'GET', '/v5/shipments/documents/labels/', undefined, { shipment_uuid: uuid })).statusCode).toBe(404);
  });
});

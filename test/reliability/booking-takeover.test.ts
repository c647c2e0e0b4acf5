import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookableShipment, createShipment } from '../booking/fixtures.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/**
 * A process killed in the middle of a booking leaves its reservation (status `booking`) behind. Found by the
 * crash test: the refusal "being booked right now" was stored under the client's Idempotency-Key, so the
 * client's retries got that refusal for 24 hours, long after the shipment was free again.
 */
describe('a booking left half-done by a crash', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_BOOKING_LEASE_SECONDS: '120' } });
    acct = await t.account({ features: ['booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
  });
  afterAll(() => t.close());

  const book = (key: string, uuid: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v5/booking/',
      headers: { authorization: `Bearer ${acct.token}`, 'idempotency-key': key },
      payload: { shipment_uuid: uuid, carrier_reference: 'sb' },
    });

  it('is refused with Retry-After until it goes stale, and a retry with the same key then books', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('HALF-1'));
    const shipment = await t.context.repos.shipments.findByUuid((await t.context.repos.accounts.findByUuid(acct.accountUuid))!.id, uuid);
    // What a killed process leaves: the reservation, and nothing after it.
    const now = t.clock.now().toISOString();
    await t.context.repos.bookings.insertIfNone({
      account_id: shipment!.account_id,
      booking_uuid: randomUUID(),
      shipment_row_id: shipment!.id,
      carrier_reference: 'sb',
      carrier_id: 'sandbx',
      status: 'booking',
      type_of_shipment: 'outbound',
      pudo_location_uuid: null,
      carrier_additional_info: '{}',
      created_at: now,
      updated_at: now,
    });

    const busy = await book('book-half-1', uuid);
    expect(busy.statusCode).toBe(400);
    expect(JSON.stringify(busy.json())).toContain('The shipment is being booked right now.');
    expect(busy.headers['retry-after']).toBe('120');

    t.clock.advance(60_000);
    const stillBusy = await book('book-half-1', uuid);
    expect(stillBusy.statusCode).toBe(400);
    expect(stillBusy.headers['idempotent-replayed']).toBeUndefined();
    expect(stillBusy.headers['retry-after']).toBe('60');

    t.clock.advance(61_000);
    const booked = await book('book-half-1', uuid);
    expect(booked.statusCode, booked.body).toBe(200);
    expect(booked.json().data.status).toBe('booked');

    const replayed = await book('book-half-1', uuid);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toEqual(booked.json());
  });

  it('a finished booking is refused for good, and that refusal is kept under its key', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('HALF-2'));
    expect((await book('book-half-2a', uuid)).statusCode).toBe(200);
    const again = await book('book-half-2b', uuid);
    expect(again.statusCode).toBe(400);
    expect(JSON.stringify(again.json())).toContain('The shipment is already booked.');
    expect(again.headers['retry-after']).toBeUndefined();
    expect((await book('book-half-2b', uuid)).headers['idempotent-replayed']).toBe('true');
  });
});

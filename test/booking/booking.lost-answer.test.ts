import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { bookableShipment, createShipment } from './fixtures.js';

/**
 * A booking call sent without an answer must never be sent again blindly: the carrier may have booked. The
 * sandbox simulates both cases (`answer_lost`: booked; `answer_lost_not_booked`: not).
 */
describe('POST /v5/booking/: a carrier that booked but whose answer was lost', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
  });
  afterAll(() => t.close());

  const book = (body: Record<string, unknown>) => t.as(acct)('POST', '/v5/booking/', body);
  const bookingRow = (shipmentUuid: string) =>
    t.context.repos.db
      .selectFrom('bookings')
      .innerJoin('shipments', 'shipments.id', 'bookings.shipment_row_id')
      .select(['bookings.status', 'bookings.booking_uuid'])
      .where('shipments.shipment_uuid', '=', shipmentUuid)
      .executeTakeFirst();

  it('completes the booking the carrier finds under our reference, with its label', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('LA-1'));
    const res = await book({ shipment_uuid: uuid, carrier_reference: 'sb', carrier_metadata: { simulate: 'answer_lost' } });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ status: 'booked', shipment_uuid: uuid });
    expect(data.carrier_shipment_identifier).toMatch(/^SBX-WB[0-9A-F]{18}$/);
    expect(Buffer.from(data.documents[0].base64_content, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('keeps the shipment reserved until the carrier says it did not book, then lets it be booked again', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('LA-2'));
    const lost = await book({ shipment_uuid: uuid, carrier_reference: 'sb', carrier_metadata: { simulate: 'answer_lost_not_booked' } });
    expect(lost.statusCode).toBe(503);
    expect(lost.json()).toMatchObject({ api_response: '500' });
    expect(lost.json().message).toMatch(/may have booked/);
    expect(lost.headers['retry-after']).toBe('60');
    expect(await bookingRow(uuid)).toMatchObject({ status: 'unknown' });

    // Booking again now could book twice: refused while the carrier is asked.
    const early = await book({ shipment_uuid: uuid, carrier_reference: 'sb' });
    expect(early.statusCode).toBe(400);
    expect(early.json().data.errors.shipment_uuid[0].standard_error_message).toMatch(/asking the carrier/);
    expect(early.headers['retry-after']).toBe('60');

    // Not before the minute is up.
    t.clock.advance(30_000);
    await t.context.worker.drain();
    expect(await bookingRow(uuid)).toMatchObject({ status: 'unknown' });

    t.clock.advance(31_000);
    await t.context.worker.drain();
    expect(await bookingRow(uuid)).toBeUndefined();
    const again = await book({ shipment_uuid: uuid, carrier_reference: 'sb' });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('lets the merchant release a booking whose outcome is unknown', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('LA-3'));
    await book({ shipment_uuid: uuid, carrier_reference: 'sb', carrier_metadata: { simulate: 'answer_lost_not_booked' } });
    const released = await t.as(acct)('POST', '/v5/booking/cancel/', { shipment_uuid: uuid });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().data).toMatchObject({ status: 'cancelled', tracking_number: null });
    // The job finds nothing to do.
    t.clock.advance(61_000);
    await t.context.worker.drain();
    expect((await book({ shipment_uuid: uuid, carrier_reference: 'sb' })).statusCode).toBe(200);
  });
});

describe('POST /v5/booking/: several parcels', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
  });
  afterAll(() => t.close());

  const parcel = (grams: number) => ({
    weight: { amount: grams, unit: 'g' },
    dimensions: { length: 30, width: 20, height: 10, unit: 'cm' },
  });

  it('books one label per parcel, each with its own tracking number, all listed', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('MP-1'));
    const res = await t.as(acct)('POST', '/v5/booking/', {
      shipment_uuid: uuid,
      carrier_reference: 'sb',
      carrier_metadata: { parcels: [parcel(1000), parcel(2000), parcel(500)] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const numbers = data.carrier_additional_info.parcel_tracking_numbers;
    expect(numbers).toHaveLength(3);
    expect(new Set(numbers).size).toBe(3);
    expect(data.tracking_number).toBe(numbers[0]);
    expect(data.documents.map((d: any) => d.name)).toEqual([
      'Shipping label MP-1 (parcel 1 of 3)',
      'Shipping label MP-1 (parcel 2 of 3)',
      'Shipping label MP-1 (parcel 3 of 3)',
    ]);
    expect(data.documents.map((d: any) => d.additional_info.tracking_number)).toEqual(numbers);
    const labels = await t.as(acct)('GET', '/v5/shipments/documents/labels/', undefined, { shipment_uuid: uuid });
    expect(labels.json().data).toHaveLength(3);
  });

  it('refuses a bad parcel list with 4030 at the parcel position, and books nothing', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('MP-2'));
    const res = await t.as(acct)('POST', '/v5/booking/', {
      shipment_uuid: uuid,
      carrier_reference: 'sb',
      carrier_metadata: { parcels: [parcel(1000), { weight: { amount: -1 } }, { weight: { amount: 5 }, colour: 'red' }] },
    });
    expect(res.statusCode).toBe(400);
    const errors = res.json().data.errors.carrier_metadata.parcels;
    expect(Object.keys(errors).sort()).toEqual(['1', '2']);
    expect(errors['1'].weight[0].standard_error_message).toMatch(/grams/);
    expect(errors['2'].colour[0].standard_error_message).toMatch(/Unknown parcel field/);

    const many = await t.as(acct)('POST', '/v5/booking/', {
      shipment_uuid: uuid,
      carrier_reference: 'sb',
      carrier_metadata: { parcels: Array.from({ length: 11 }, () => parcel(100)) },
    });
    expect(many.statusCode).toBe(400);
    expect(many.json().data.errors.carrier_metadata.parcels[0].standard_error_message).toMatch(/at most 10 parcels/);
    const fine = await t.as(acct)('POST', '/v5/booking/', { shipment_uuid: uuid, carrier_reference: 'sb' });
    expect(fine.statusCode).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { Receiver } from '../webhooks/receiver.js';
import { bookableShipment, createShipment } from './fixtures.js';

describe('POST /v5/booking/cancel/', () => {
  let t: TestApp;
  let acct: TestAccount;
  let other: TestAccount;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    receiver = await new Receiver().start();
    const carriers = [{ carrier_reference: 'sb', booking: ['outbound', 'return'] as Array<'outbound' | 'return'> }];
    acct = await t.account({ features: ['booking', 'returns'], carriers });
    other = await t.account({ features: ['booking', 'returns'], carriers });
    const hook = await t.as(acct)('POST', '/v5/webhooks/', { url: receiver.url, events: ['booking.cancelled'] });
    expect(hook.statusCode, hook.body).toBe(201);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const book = (body: Record<string, unknown>, who = acct) => t.as(who)('POST', '/v5/booking/', body);
  const cancel = (body: Record<string, unknown>, who = acct) => t.as(who)('POST', '/v5/booking/cancel/', body);

  it('voids the booking, removes its label, clears the tracking number, and lets the shipment be booked again', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('CX-1'));
    const booked = (await book({ shipment_uuid: uuid, carrier_reference: 'sb' })).json().data;
    const label = booked.documents[0];

    const res = await cancel({ booking_uuid: booked.booking_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      api_response: '200',
      data: {
        booking_uuid: booked.booking_uuid,
        shipment_uuid: uuid,
        status: 'cancelled',
        documents: [],
        tracking_number: booked.tracking_number,
      },
    });
    const document = await t.as(acct)('GET', `/v5/shipments/documents/${label.document_uuid}/`);
    expect(document.statusCode).toBe(404);
    const details = (await t.as(acct)('GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBeNull();

    const again = await book({ shipment_uuid: uuid, carrier_reference: 'sb' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.booking_uuid).not.toBe(booked.booking_uuid);
    expect(again.json().data.tracking_number).not.toBe(booked.tracking_number);
  });

  it('answers a repeated cancellation with the same cancelled booking, and refuses a shipment that has no booking', async () => {
    const bookedUuid = await createShipment(t, acct.token, bookableShipment('CX-2'));
    const booked = (await book({ shipment_id: 'CX-2', carrier_reference: 'sb' })).json().data;
    const first = await cancel({ shipment_id: 'CX-2' });
    expect(first.statusCode, first.body).toBe(200);
    for (const again of [{ booking_uuid: booked.booking_uuid }, { shipment_uuid: bookedUuid }]) {
      const second = await cancel(again);
      expect(second.statusCode).toBe(200);
      expect(second.json().data).toMatchObject({ booking_uuid: booked.booking_uuid, status: 'cancelled' });
    }

    const uuid = await createShipment(t, acct.token, bookableShipment('CX-2B'));

    const none = await cancel({ shipment_uuid: uuid });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ api_response: '4030' });
    expect(none.json().data.errors.shipment_uuid[0].standard_error_message).toMatch(/no booking/);
  });

  it("refuses a booking_uuid beside another shipment's identifier, and cancels nothing; cancels when they agree", async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('CX-PAIR-A'));
    const otherUuid = await createShipment(t, acct.token, bookableShipment('CX-PAIR-B'));
    const booked = (await book({ shipment_uuid: uuid, carrier_reference: 'sb' })).json().data;
    for (const [field, named] of [
      ['shipment_uuid', otherUuid],
      ['shipment_id', 'CX-PAIR-B'],
    ] as const) {
      const res = await cancel({ booking_uuid: booked.booking_uuid, [field]: named });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().api_response).toBe('4030');
      expect(Object.keys(res.json().data.errors)).toEqual([field]);
      expect(res.json().data.errors[field][0].standard_error_message).toBe(`booking_uuid and ${field} name different shipments.`);
    }
    const details = (await t.as(acct)('GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBe(booked.tracking_number);

    const agreed = await cancel({ booking_uuid: booked.booking_uuid, shipment_uuid: uuid.toUpperCase(), shipment_id: 'CX-PAIR-A' });
    expect(agreed.statusCode, agreed.body).toBe(200);
    expect(agreed.json().data).toMatchObject({ booking_uuid: booked.booking_uuid, shipment_uuid: uuid, status: 'cancelled' });
  });

  it('answers two cancellations sent at once alike, and archives the booking once', async () => {
    await createShipment(t, acct.token, bookableShipment('CX-RACE'));
    const booked = (await book({ shipment_id: 'CX-RACE', carrier_reference: 'sb' })).json().data;
    const both = await Promise.all([cancel({ booking_uuid: booked.booking_uuid }), cancel({ shipment_id: 'CX-RACE' })]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(both.map((r) => r.json().data.status)).toEqual(['cancelled', 'cancelled']);
    const archived = await t.context.repos.db
      .selectFrom('booking_cancellations')
      .select('outcome')
      .where('booking_uuid', '=', booked.booking_uuid)
      .execute();
    expect(archived).toEqual([{ outcome: 'voided' }]);
  });

  it("never finds another account's booking", async () => {
    await createShipment(t, acct.token, bookableShipment('CX-3'));
    const booked = (await book({ shipment_id: 'CX-3', carrier_reference: 'sb' })).json().data;
    const res = await cancel({ booking_uuid: booked.booking_uuid }, other);
    expect(res.statusCode).toBe(400);
    expect(res.json().data.errors.booking_uuid[0].standard_error_message).toMatch(/No booking/);
    const still = await t.as(acct)('GET', `/v5/shipments/documents/${booked.documents[0].document_uuid}/`);
    expect(still.statusCode).toBe(200);
  });

  it('refuses unknown fields and a missing identifier with 4030, naming the field', async () => {
    const unknown = await cancel({ booking_uuid: '00000000-0000-4000-8000-000000000000', reason: 'x' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().api_response).toBe('4030');
    const missing = await cancel({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().data.errors).toHaveProperty('shipment_uuid');
  });

  it("puts a return's ticket back to approved and announces booking.cancelled", async () => {
    const created = await t.as(acct)('POST', '/v5/return/', {
      return_ticket: { return_id: 'RMA-CX' },
      shipment: {
        shipment_id: 'RET-CX',
        line_items: [{ product_name: 'Shirt', quantity: 1 }],
        weight: { amount: 400, unit: 'g' },
        from_address: { first_name: 'Grace', line1: '1 Rue de Rivoli', city: 'Paris', postal_code: '75001', country_code: 'FR' },
        to_address: { company: 'Acme Returns', line1: 'Lagerstraße 5', city: 'Hamburg', postal_code: '20095', country_code: 'DE' },
      },
    });
    const shipmentUuid = created.json().data.shipment.shipment_uuid;
    await t.as(acct)('POST', '/v5/return/update/', { return_id: 'RMA-CX', return_status: 'approved' });
    const booked = (await book({ shipment_uuid: shipmentUuid, carrier_reference: 'sb' })).json().data;
    const res = await cancel({ booking_uuid: booked.booking_uuid });
    expect(res.statusCode, res.body).toBe(200);
    const details = (await t.as(acct)('GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid: shipmentUuid })).json().data;
    expect(details.returns).toMatchObject({ return_status: 'approved', booking_id: null });

    for (let i = 0; i < 3; i++) {
      await t.context.worker.drain();
      t.clock.advance(1_000);
    }
    const announced = receiver.ofType('booking.cancelled').map((m) => m.json);
    expect(announced.find((m) => m.booking.booking_uuid === booked.booking_uuid)).toMatchObject({
      booking: { status: 'cancelled', documents: [] },
      data: { shipment_uuid: shipmentUuid },
    });
  });
});

describe('POST /v5/booking/validate/', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
  });
  afterAll(() => t.close());

  it('answers whether a booking would be accepted, and books and reserves nothing', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('VA-1'));
    const ok = await t.as(acct)('POST', '/v5/booking/validate/', { shipment_uuid: uuid, carrier_reference: 'sb' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ api_response: '200', data: { valid: true, carrier_checked: false, warnings: [] } });

    const bad = await t.as(acct)('POST', '/v5/booking/validate/', {
      shipment_uuid: uuid,
      carrier_reference: 'sb',
      carrier_metadata: { label_format: 'gif' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.errors.carrier_metadata.label_format[0].standard_error_message).toMatch(/pdf, zpl, png/);

    const booked = await t.as(acct)('POST', '/v5/booking/', { shipment_uuid: uuid, carrier_reference: 'sb' });
    expect(booked.statusCode, booked.body).toBe(200);
  });
});

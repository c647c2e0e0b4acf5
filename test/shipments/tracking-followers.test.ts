import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from '../returns/fixtures.js';

describe('what follows a tracking change of a return shipment', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    acct = await t.account({ features: ['returns'] });
    const endpoint = await t.call(acct.token, 'POST', '/v5/webhooks/', { url: 'http://127.0.0.1:9/in' });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
  });
  afterAll(() => t.close());

  const ticketStatus = async (shipmentId: string) => {
    const res = await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId });
    return res.json().data.returns.return_status as string;
  };
  const eventTypes = async (shipmentId: string) =>
    (
      await t.context.database.db
        .selectFrom('webhook_events')
        .innerJoin('shipments', 'shipments.id', 'webhook_events.shipment_row_id')
        .select('webhook_events.type')
        .where('shipments.shipment_id', '=', shipmentId)
        .orderBy('webhook_events.sequence')
        .execute()
    ).map((row) => row.type);
  const addEvent = (shipmentId: string, event: string, eventKey: string, time: string) =>
    t.call(acct.token, 'POST', '/v5/events/create/', { shipment_id: shipmentId, events: [{ event, event_key: eventKey, time }] });

  it('moves the ticket to shipping, then completed, and announces each change and the delivery', async () => {
    const created = await t.call(acct.token, 'POST', '/v5/return/', standardReturn('FOLLOW-1'));
    expect(created.statusCode, created.body).toBe(200);
    expect(await ticketStatus('FOLLOW-1')).toBe('pending approval');

    expect((await addEvent('FOLLOW-1', 'Left the hub', 'departed_facility', '2026-03-29T10:15:00Z')).statusCode).toBe(200);
    expect(await ticketStatus('FOLLOW-1')).toBe('shipping');
    expect(await eventTypes('FOLLOW-1')).toEqual(['shipment.created', 'return.created', 'return.updated', 'shipment.updated']);

    expect((await addEvent('FOLLOW-1', 'Delivered', 'delivered', '2026-03-30T09:00:00Z')).statusCode).toBe(200);
    expect(await ticketStatus('FOLLOW-1')).toBe('completed');
    expect(await eventTypes('FOLLOW-1')).toEqual([
      'shipment.created',
      'return.created',
      'return.updated',
      'shipment.updated',
      'return.updated',
      'shipment.updated',
      'shipment.delivered',
    ]);
  });

  it('announces a change that moves neither status nor phase without touching the ticket', async () => {
    await t.call(acct.token, 'POST', '/v5/return/', standardReturn('FOLLOW-2'));
    await addEvent('FOLLOW-2', 'Left the hub', 'departed_facility', '2026-03-29T10:15:00Z');
    const before = await eventTypes('FOLLOW-2');
    expect((await addEvent('FOLLOW-2', 'Arrived at the hub', 'departed_facility', '2026-03-29T18:00:00Z')).statusCode).toBe(200);
    expect(await ticketStatus('FOLLOW-2')).toBe('shipping');
    expect(await eventTypes('FOLLOW-2')).toEqual([...before, 'shipment.updated']);
  });
});

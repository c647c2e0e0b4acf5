import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { Receiver } from '../webhooks/receiver.js';
import { standardReturn } from './fixtures.js';

/** ReturnsInfo of shipment details v5.2, field for field as the interface lists it. */
const RETURNS_INFO_FIELDS = [
  'order_id',
  'id',
  'return_id',
  'return_status',
  'total_refund_amount',
  'refund_is_calculated',
  'comment',
  'return_proofs',
  'requested_date',
  'updated_at',
  'reject_reason',
  'refund_method',
  'return_method',
  'cost_of_return',
  'cost_is_calculated',
  'additional_cost',
  'internal_notes',
  'approver_email',
  'booking_id',
  'shipment_pk',
].sort();

/** Recording a return's refund through POST /v5/return/update/: once, in a refundable state, announced by webhook. */
describe('POST /v5/return/update/: the refund', () => {
  let t: TestApp;
  let acct: TestAccount;
  let receiver: Receiver;
  let n = 0;
  beforeAll(async () => {
    receiver = await new Receiver().start();
    t = await createTestApp({
      clock: new ManualClock(new Date('2026-11-24T09:30:00Z')),
      env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' },
    });
    acct = await t.account({ features: ['returns'] });
    const hook = await t.as(acct)('POST', '/v5/webhooks/', { url: receiver.url, events: ['return.updated'] });
    expect(hook.statusCode, hook.body).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  async function newReturn(...path: string[]): Promise<{ return_uuid: string; return_id: string; shipment_id: string }> {
    const shipmentId = `RF-${++n}`;
    const res = await t.as(acct)('POST', '/v5/return/', standardReturn(shipmentId));
    expect(res.statusCode, res.body).toBe(200);
    const ticket = res.json().data.return_ticket;
    for (const status of path) {
      const moved = await update({ return_uuid: ticket.return_uuid, return_status: status, reject_reason: 'Worn' });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    return { ...ticket, shipment_id: shipmentId };
  }
  const update = (body: Record<string, unknown>) => t.as(acct)('POST', '/v5/return/update/', body);
  const details = async (shipmentId: string) =>
    (await t.as(acct)('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId })).json().data.returns;
  /** The ticket as stored: what a refused update must leave as it was. */
  const stored = (returnUuid: string) =>
    t.context.database.db
      .selectFrom('returns')
      .select(['status', 'details', 'updated_at'])
      .where('return_uuid', '=', returnUuid)
      .executeTakeFirstOrThrow();
  const ticketEvents = async (returnUuid: string) => {
    for (let i = 0; i < 3; i++) await t.context.worker.drain();
    return receiver.ofType('return.updated').filter((m) => m.json.return_ticket?.return_uuid === returnUuid);
  };

  it('records the refund of an approved return once: when, how much, in the answer and the return.updated webhook', async () => {
    const ticket = await newReturn('approved');
    const before = await ticketEvents(ticket.return_uuid);
    t.clock.advance(60_000);
    const res = await update({ return_uuid: ticket.return_uuid, refund_issued: true });
    expect(res.statusCode, res.body).toBe(200);
    const at = t.clock.now().toISOString();
    expect(res.json().data).toMatchObject({
      return_status: 'approved',
      total_refund_amount: '45.50',
      refund_issued_at: at,
      refunded_amount: '45.50',
      updated_date: at,
    });
    const events = await ticketEvents(ticket.return_uuid);
    expect(events).toHaveLength(before.length + 1);
    expect(events.at(-1)?.json.return_ticket).toMatchObject({ refund_issued_at: at, refunded_amount: '45.50' });

    // Twice is refused, naming the field, and changes nothing.
    t.clock.advance(60_000);
    const again = await update({ return_uuid: ticket.return_uuid, refund_issued: true, refunded_amount: 10, comment: 'Again' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ api_response: '4030', errors: { refund_issued: [expect.stringMatching(/already recorded/)] } });
    const row = await stored(ticket.return_uuid);
    expect(row.updated_at).toBe(at);
    expect(JSON.parse(row.details)).toMatchObject({ refund_issued_at: at, refunded_amount: '45.50', comment: 'Too small' });
  });

  it('records the amount said, also when the return is approved by the same update', async () => {
    const ticket = await newReturn();
    const res = await update({ return_id: ticket.return_id, return_status: 'approved', refund_issued: true, refunded_amount: '30.5' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ return_status: 'approved', total_refund_amount: '45.50', refunded_amount: '30.50' });
  });

  it('takes the refund expected after the same update’s change of it', async () => {
    const ticket = await newReturn('approved');
    const res = await update({ return_uuid: ticket.return_uuid, total_refund_amount: 40, refund_issued: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ total_refund_amount: '40.00', refunded_amount: '40.00' });
  });

  it.each([
    [[], 'pending approval'],
    [['rejected'], 'rejected'],
    [['cancelled'], 'cancelled'],
    [['rejected', 'archived'], 'archived'],
  ])('refuses a refund of a return moved through %o ("%s"), naming the field, and changes nothing', async (path, status) => {
    const ticket = await newReturn(...(path as string[]));
    const before = await stored(ticket.return_uuid);
    const events = (await ticketEvents(ticket.return_uuid)).length;
    t.clock.advance(60_000);
    const res = await update({ return_uuid: ticket.return_uuid, refund_issued: true, comment: 'Refunded' });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors).toEqual({ refund_issued: [expect.stringContaining(`this return is "${status}"`)] });
    expect(await stored(ticket.return_uuid)).toEqual(before);
    expect(await ticketEvents(ticket.return_uuid)).toHaveLength(events);
  });

  it('refuses a refund recorded with a cancellation, an amount without it or of 0, and false', async () => {
    const ticket = await newReturn();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ return_status: 'cancelled', refund_issued: true }, 'refund_issued'],
      [{ refunded_amount: 10 }, 'refunded_amount'],
      [{ return_status: 'approved', refund_issued: true, refunded_amount: 0 }, 'refunded_amount'],
      [{ refund_issued: false }, 'refund_issued'],
    ];
    for (const [body, field] of cases) {
      const res = await update({ return_uuid: ticket.return_uuid, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().errors), JSON.stringify(body)).toEqual([field]);
    }
    const schema = await update({ return_uuid: ticket.return_uuid, refund_issued: true, refunded_amount: -1 });
    expect(schema.statusCode).toBe(400);
    const row = await stored(ticket.return_uuid);
    expect(row.status).toBe('pending approval');
    expect(JSON.parse(row.details)).not.toHaveProperty('refund_issued_at');
  });

  it('keeps a refunded return from being cancelled', async () => {
    const ticket = await newReturn('approved');
    expect((await update({ return_uuid: ticket.return_uuid, refund_issued: true })).statusCode).toBe(200);
    const res = await update({ return_uuid: ticket.return_uuid, return_status: 'cancelled' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.return_status).toEqual([expect.stringMatching(/refund .* was recorded/)]);
  });

  it('leaves ReturnsInfo of shipment details v5.2 as the interface lists it, the refund in the update’s answer only', async () => {
    const ticket = await newReturn('approved');
    expect((await update({ return_uuid: ticket.return_uuid, refund_issued: true })).statusCode).toBe(200);
    const info = await details(ticket.shipment_id);
    expect(Object.keys(info).sort()).toEqual(RETURNS_INFO_FIELDS);
    expect(info).toMatchObject({ return_status: 'approved', total_refund_amount: '45.50' });
  });
});

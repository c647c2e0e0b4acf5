import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from './fixtures.js';

describe('POST /v5/return/update/', () => {
  let t: TestApp;
  let acct: TestAccount;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['returns'] });
  });
  afterAll(() => t.close());

  async function newReturn(): Promise<{ return_uuid: string; return_id: string }> {
    const res = await t.call(acct.token, 'POST', '/v5/return/', standardReturn(`UPD-${++n}`));
    return res.json().data.return_ticket;
  }
  const update = (body: Record<string, unknown>) => t.call(acct.token, 'POST', '/v5/return/update/', body);

  async function moveTo(ticket: { return_uuid: string }, path: string[]): Promise<void> {
    for (const status of path) {
      const res = await update({
        return_uuid: ticket.return_uuid,
        return_status: status,
        ...(status === 'rejected' ? { reject_reason: 'Worn' } : {}),
      });
      expect(res.statusCode, `${status}: ${res.body}`).toBe(200);
    }
  }

  it.each([
    [[], 'approved'],
    [[], 'rejected'],
    [[], 'cancelled'],
    [['approved'], 'cancelled'],
    [['rejected'], 'archived'],
    [['cancelled'], 'archived'],
  ])('allows %o → %s', async (path, next) => {
    const ticket = await newReturn();
    await moveTo(ticket, path as string[]);
    const res = await update({ return_uuid: ticket.return_uuid, return_status: next, reject_reason: 'Worn' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.return_status).toBe(next);
  });

  it.each([
    [[], 'completed'],
    [[], 'shipping'],
    [[], 'archived'],
    [['approved'], 'pending approval'],
    [['approved'], 'rejected'],
    [['rejected'], 'approved'],
    [['cancelled'], 'approved'],
    [['cancelled', 'archived'], 'pending approval'],
  ])('refuses %o → %s naming the allowed states', async (path, next) => {
    const ticket = await newReturn();
    await moveTo(ticket, path as string[]);
    const res = await update({ return_uuid: ticket.return_uuid, return_status: next });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors.return_status[0]).toMatch(/Allowed next states/);
  });

  it('needs a reason to reject', async () => {
    const ticket = await newReturn();
    const res = await update({ return_uuid: ticket.return_uuid, return_status: 'rejected' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.reject_reason).toBeDefined();
  });

  it('takes a given refund and cost as given, and calculates them when cleared', async () => {
    const ticket = await newReturn();
    const given = (
      await update({ return_id: ticket.return_id, total_refund_amount: '30', cost_of_return: 4.5, additional_cost: '1.2' })
    ).json().data;
    expect(given).toMatchObject({
      total_refund_amount: '30.00',
      refund_is_calculated: false,
      cost_of_return: '4.50',
      cost_is_calculated: false,
      additional_cost: '1.20',
    });
    const cleared = (await update({ return_id: ticket.return_id, total_refund_amount: null, cost_of_return: null })).json().data;
    expect(cleared).toMatchObject({
      total_refund_amount: '45.50',
      refund_is_calculated: true,
      cost_of_return: null,
      cost_is_calculated: true,
    });
  });

  it('updates notes, approver, methods and proofs, and shows them in shipment details v5.2', async () => {
    const ticket = await newReturn();
    const res = await update({
      return_uuid: ticket.return_uuid,
      return_status: 'approved',
      internal_notes: 'Check the seams',
      approver_email: 'lead@example.com',
      refund_method: 'store_credit',
      return_proofs: [{ url: 'https://example.com/photo.jpg', file_name: 'photo.jpg' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const details = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: `UPD-${n}` })).json().data;
    expect(details.returns).toMatchObject({
      return_status: 'approved',
      internal_notes: 'Check the seams',
      approver_email: 'lead@example.com',
      refund_method: 'store_credit',
      return_proofs: [{ url: 'https://example.com/photo.jpg', file_name: 'photo.jpg' }],
    });
  });

  it('refuses bad input, an unknown return and another account’s return', async () => {
    const ticket = await newReturn();
    expect((await update({ return_uuid: ticket.return_uuid, approver_email: 'nope' })).json().errors.approver_email).toBeDefined();
    expect((await update({ return_uuid: ticket.return_uuid, return_status: 'lost' })).json().errors.return_status).toBeDefined();
    expect((await update({ return_uuid: ticket.return_uuid, total_refund_amount: -1 })).statusCode).toBe(400);
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:image/png;base64,iVBORw0KGgo=', 'ftp://example.com/p.jpg']) {
      const proof = await update({ return_uuid: ticket.return_uuid, return_proofs: [{ url: 'https://example.com/a.jpg' }, { url }] });
      expect(proof.statusCode, url).toBe(400);
      expect(proof.json().errors, url).toEqual({ return_proofs: { '1': { url: ['Enter a valid http or https URL.'] } } });
    }
    const proofs = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: `UPD-${n}` })).json();
    expect(proofs.data.returns.return_proofs).toEqual([]);
    expect((await update({ comment: 'x' })).json().errors.return_uuid).toBeDefined();
    expect((await update({ return_id: 'RMA-none' })).statusCode).toBe(404);
    const other = await t.account({ features: ['returns'] });
    const theirs = await t.call(other.token, 'POST', '/v5/return/update/', { return_uuid: ticket.return_uuid, return_status: 'approved' });
    expect(theirs.statusCode).toBe(404);
  });
});

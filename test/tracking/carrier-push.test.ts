import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxTransport } from '../../src/carriers/sandbox/sandbox.transport.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('POST /carrier-hooks/{carrier_id}/', () => {
  let t: TestApp;
  let acct: TestAccount;
  let pushToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account();
    const created = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'sb',
      carrier_id: 'sandbx',
    });
    expect(created.statusCode).toBe(201);
    pushToken = created.json().push_token;
    expect(pushToken).toMatch(/^wbpush_/);
    expect(created.json().push_url).toBe('https://waybill.test/carrier-hooks/sandbx/');
    expect((await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`)).body).not.toContain(pushToken);
  });
  afterAll(() => t.close());

  /** What the sandbox carrier's own API says about a number: the body it would push. */
  async function carrierPayload(trackingNumber: string) {
    const response = await new SandboxTransport().fetchScans({
      trackingNumber,
      firstPolledAt: t.clock.now(),
      attempt: 0,
      now: t.clock.now(),
      stepSeconds: 60,
    });
    if (response.outcome !== 'response') throw new Error('no payload');
    return response.body;
  }

  const push = (body: unknown, token = pushToken, carrier = 'sandbx') =>
    t.app.inject({
      method: 'POST',
      url: `/carrier-hooks/${carrier}/`,
      headers: { authorization: `Bearer ${token}` },
      payload: body as object,
    });

  it('acknowledges a push at once as a stored job, then applies it through the same normalization as a poll, without duplicates', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'PUSH-1', tracking_number: 'WB4000300', carrier_reference: 'sb' });
    const body = await carrierPayload('WB4000300');
    const res = await push(body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ updates: 1, queued: true });
    const queued = await t.context.database.db.selectFrom('jobs').selectAll().where('kind', '=', 'carrier.push').execute();
    expect(queued.map((j) => j.status)).toEqual(['queued']);
    expect((await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'PUSH-1' })).json().data.status).toBe(
      'pending',
    );
    await t.context.worker.runOnce();
    const details = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'PUSH-1' })).json().data;
    expect(details.status).toBe('delivered');
    const count = details.all_events.length;
    expect(count).toBeGreaterThan(2);
    await push({ shipments: [body] });
    await t.context.worker.runOnce();
    const again = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'PUSH-1' })).json().data;
    expect(again.all_events).toHaveLength(count);
  });

  it('refuses a wrong or missing token, and another carrier’s path', async () => {
    const body = await carrierPayload('WB2000301');
    expect((await push(body, 'wbpush_wrong')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/carrier-hooks/sandbx/', payload: body as object })).statusCode).toBe(403);
    expect((await push(body, pushToken, 'nopexx')).statusCode).toBe(403);
  });

  it('refuses a body it cannot read, and stores nothing', async () => {
    const res = await push({ trackingNumber: 'WB2000302', scans: [{ code: 1 }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4000');
    expect((await push({ shipments: [] })).statusCode).toBe(400);
  });

  it("never touches another account's shipment with the same number", async () => {
    const other = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
    await t.call(other.token, 'POST', '/v5/shipment/', { shipment_id: 'PUSH-X', tracking_number: 'WB4000303', carrier_reference: 'sb' });
    // Their shipment is not due for a poll: only the push job could change it.
    await t.context.database.db.updateTable('shipments').set({ next_poll_at: null }).where('shipment_id', '=', 'PUSH-X').execute();
    const res = await push(await carrierPayload('WB4000303'));
    expect(res.statusCode).toBe(200);
    await t.context.worker.runOnce();
    const jobs = await t.context.database.db.selectFrom('jobs').select('status').where('kind', '=', 'carrier.push').execute();
    expect(jobs.every((j) => j.status === 'done')).toBe(true);
    const theirs = (await t.call(other.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: 'PUSH-X' })).json().data;
    expect(theirs.all_events).toEqual([]);
  });
});

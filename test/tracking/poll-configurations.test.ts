import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/**
 * The poller finds due polls configuration by configuration (a walk over the index of each configuration's
 * next polls): every account's every configuration is found, the longest due first, and a configuration
 * removed since its shipments were scheduled is found too, so that their tracking ends.
 */
describe('due polls are found configuration by configuration, across accounts', () => {
  let t: TestApp;
  const accounts: TestAccount[] = [];
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp({ clock: new ManualClock(new Date('2026-11-23T08:00:00Z')) });
    accounts.push(await t.account({ carriers: [{ carrier_reference: 'a' }, { carrier_reference: 'b' }] }));
    accounts.push(await t.account({ carriers: [{ carrier_reference: 'a' }] }));
    accounts.push(await t.account({ carriers: [{ carrier_reference: 'zz' }, { carrier_reference: 'b' }] }));
  });
  afterAll(() => t.close());

  async function track(account: TestAccount, carrierReference: string): Promise<string> {
    const shipmentId = `cfg-${++n}`;
    const res = await t.as(account)('POST', '/v5/shipment/', {
      shipment_id: shipmentId,
      tracking_number: `WB2${String(100_000 + n)}`,
      carrier_reference: carrierReference,
    });
    expect(res.statusCode, res.body).toBe(200);
    return shipmentId;
  }
  const details = async (account: TestAccount, shipmentId: string) =>
    (await t.as(account)('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId })).json().data;
  const row = (shipmentId: string) =>
    t.context.database.db.selectFrom('shipments').selectAll().where('shipment_id', '=', shipmentId).executeTakeFirstOrThrow();

  it('one round polls the shipments of every configuration of every account', async () => {
    const tracked: Array<[TestAccount, string]> = [];
    for (const [account, references] of [
      [accounts[0], ['a', 'b', 'a']],
      [accounts[1], ['a']],
      [accounts[2], ['zz', 'b', 'zz']],
    ] as const) {
      for (const reference of references) tracked.push([account, await track(account, reference)]);
    }
    for (const [account, id] of tracked) expect((await details(account, id)).status).toBe('pending');
    expect(await t.context.worker.runOnce()).toBeGreaterThanOrEqual(tracked.length);
    for (const [account, id] of tracked) {
      const data = await details(account, id);
      expect(data.status, id).toBe('active');
      expect(data.current_phase.key, id).toBe('in_transit');
    }
  });

  it('lists the configurations with polls due, the longest due first, at most as many as asked for', async () => {
    const ids = [
      await track(accounts[2], 'b'),
      await track(accounts[0], 'b'),
      await track(accounts[1], 'a'),
      await track(accounts[0], 'a'),
    ];
    const now = t.clock.now().getTime();
    // Due 4, 3 and 2 minutes ago; the fourth in a minute.
    for (const [i, id] of ids.entries()) {
      await t.context.database.db
        .updateTable('shipments')
        .set({ next_poll_at: new Date(now - (4 - i) * 60_000).toISOString() })
        .where('shipment_id', '=', id)
        .execute();
    }
    const accountIds = await Promise.all(ids.map(async (id) => (await row(id)).account_id));
    const walk = await t.context.repos.shipments.dueConfigurations(new Date(now).toISOString(), 10);
    const due = walk.due;
    // Three accounts: a and b, a, zz and b.
    expect(walk.walked).toBe(5);
    expect(due).toEqual([
      { account_id: accountIds[0], carrier_reference: 'b', due_at: new Date(now - 4 * 60_000).toISOString() },
      { account_id: accountIds[1], carrier_reference: 'b', due_at: new Date(now - 3 * 60_000).toISOString() },
      { account_id: accountIds[2], carrier_reference: 'a', due_at: new Date(now - 2 * 60_000).toISOString() },
      { account_id: accountIds[3], carrier_reference: 'a', due_at: new Date(now - 60_000).toISOString() },
    ]);
    expect((await t.context.repos.shipments.dueConfigurations(new Date(now - 150_000).toISOString(), 10)).due).toEqual(due.slice(0, 2));
    expect((await t.context.repos.shipments.dueConfigurations(new Date(now).toISOString(), 1)).due).toEqual(due.slice(0, 1));
    await t.context.worker.runOnce();
    expect(await t.context.repos.shipments.dueConfigurations(new Date(now).toISOString(), 10)).toEqual({ due: [], walked: 5 });
  });

  it('a removed configuration is still found: its shipments stop being tracked, the account’s others are polled on', async () => {
    const gone = await track(accounts[0], 'b');
    const kept = await track(accounts[0], 'a');
    const removed = await t.admin('DELETE', `/admin/v1/accounts/${accounts[0].accountUuid}/carrier-configs/b/`);
    expect(removed.statusCode).toBe(204);
    expect((await row(gone)).next_poll_at).not.toBeNull();
    await t.context.worker.runOnce();
    expect((await row(gone)).next_poll_at).toBeNull();
    expect((await details(accounts[0], gone)).status).toBe('pending');
    expect((await details(accounts[0], kept)).status).toBe('active');
    // The other accounts' configurations named "b" are untouched.
    const other = await track(accounts[2], 'b');
    await t.context.worker.runOnce();
    expect((await details(accounts[2], other)).status).toBe('active');
  });
});

import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CarrierAdapter } from '../../src/carriers/carrier.js';
import { ManualClock } from '../../src/clock.js';
import { TrackingPoller } from '../../src/jobs/tracking-poller.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

const LEASE_MS = 60_000;

/**
 * A worker polls a carrier configuration while it holds the configuration's lease: the due shipments are read,
 * not written, so the lease is what keeps two workers from polling the same numbers. A worker that died
 * holding one leaves the configuration to the others when the lease ends; a round gives its leases back when
 * it is done; answers that cannot be applied are not asked for again before the lease would have ended.
 */
describe('carrier configurations are polled by one worker at a time, under a lease', () => {
  let t: TestApp;
  let account: TestAccount;
  let accountId: number;
  let n = 0;
  const shipmentIdOf = new Map<string, string>();
  /** Every number the sandbox carrier was asked for, in order. */
  const asked: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ clock: new ManualClock(new Date('2026-11-23T08:00:00Z')) });
    account = await t.account({ carriers: [{ carrier_reference: 'a' }, { carrier_reference: 'b' }] });
    accountId = (
      await t.context.database.db
        .selectFrom('accounts')
        .select('id')
        .where('account_uuid', '=', account.accountUuid)
        .executeTakeFirstOrThrow()
    ).id;
    const adapter = t.context.carriers.get('sandbx') as CarrierAdapter;
    const track = adapter.track.bind(adapter);
    adapter.track = async (requests, settings, options) => {
      for (const request of requests) asked.push(request.tracking_number);
      return track(requests, settings, options);
    };
  });
  afterAll(() => t.close());
  beforeEach(() => {
    asked.length = 0;
  });

  const poller = () =>
    new TrackingPoller(
      t.context.repos,
      t.context.carriers,
      t.context.carrierConfigs,
      t.context.tracking,
      t.clock,
      pino({ level: 'silent' }),
      {
        leaseMs: LEASE_MS,
        carrierBatchSize: 5,
      },
    );

  async function track(carrierReference: string, count: number): Promise<string[]> {
    const numbers: string[] = [];
    for (let i = 0; i < count; i++) {
      const number = `WB2${String(200_000 + ++n)}`;
      const res = await t.as(account)('POST', '/v5/shipment/', {
        shipment_id: `lease-${n}`,
        tracking_number: number,
        carrier_reference: carrierReference,
      });
      expect(res.statusCode, res.body).toBe(200);
      shipmentIdOf.set(number, `lease-${n}`);
      numbers.push(number);
    }
    return numbers;
  }
  const status = async (number: string) =>
    (await t.as(account)('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentIdOf.get(number) ?? '' })).json().data
      .status;
  const leases = () => t.context.database.db.selectFrom('poll_leases').selectAll().execute();
  const nextPollOf = async (number: string) =>
    (
      await t.context.database.db
        .selectFrom('shipments')
        .select('next_poll_at')
        .where('tracking_number', '=', number)
        .executeTakeFirstOrThrow()
    ).next_poll_at;

  /** Runs `work` with these writes of the tracking service failing, as a database that refuses writes makes them fail. */
  async function withFailing(writes: Array<'applyBatch' | 'holdBack'>, work: () => Promise<unknown>): Promise<void> {
    const failing = async () => {
      throw new Error('the database is read-only');
    };
    const { tracking } = t.context;
    Object.assign(tracking, Object.fromEntries(writes.map((name) => [name, failing])));
    try {
      await work();
    } finally {
      // The service's own methods again.
      for (const name of writes) Reflect.deleteProperty(tracking, name);
    }
  }

  it('two workers polling at once ask the carrier for each due number once, and give their leases back', async () => {
    const numbers = [...(await track('a', 12)), ...(await track('b', 12))];
    const [first, second] = [poller(), poller()];
    const done = await Promise.all([first.runOnce(), second.runOnce()]);
    expect(done[0] + done[1]).toBe(numbers.length);
    expect([...asked].sort()).toEqual([...numbers].sort());
    for (const number of numbers) expect(await status(number), number).toBe('active');
    expect(await leases()).toEqual([]);
  });

  it('a configuration held by a worker that died waits for the end of its lease; the others are polled meanwhile', async () => {
    const held = await track('a', 3);
    const free = await track('b', 3);
    const now = t.clock.now().getTime();
    await t.context.database.db
      .insertInto('poll_leases')
      .values({
        account_id: accountId,
        carrier_reference: 'a',
        holder: 'a worker that died',
        leased_until: new Date(now + 30_000).toISOString(),
      })
      .execute();
    await poller().runOnce();
    expect([...asked].sort()).toEqual([...free].sort());
    for (const number of held) expect(await status(number), number).toBe('pending');
    t.clock.advance(30_000);
    asked.length = 0;
    await poller().runOnce();
    expect([...asked].sort()).toEqual([...held].sort());
    for (const number of held) expect(await status(number), number).toBe('active');
    expect(await leases()).toEqual([]);
  });

  it('answers that cannot be applied are asked for again when the lease would have ended, not at the next round', async () => {
    const numbers = await track('a', 3);
    const worker = poller();
    await withFailing(['applyBatch'], () => worker.runOnce());
    expect([...asked].sort()).toEqual([...numbers].sort());
    const leaseEnd = new Date(t.clock.now().getTime() + LEASE_MS).toISOString();
    for (const number of numbers) expect(await nextPollOf(number), number).toBe(leaseEnd);
    expect(await leases()).toEqual([]);
    asked.length = 0;
    await worker.runOnce();
    expect(asked).toEqual([]);
    t.clock.advance(LEASE_MS);
    await worker.runOnce();
    expect([...asked].sort()).toEqual([...numbers].sort());
    for (const number of numbers) expect(await status(number), number).toBe('active');
  });

  it('when not even the next poll can be written, the configuration stays leased until the lease ends', async () => {
    const numbers = await track('b', 2);
    await withFailing(['applyBatch', 'holdBack'], () => poller().runOnce());
    expect([...asked].sort()).toEqual([...numbers].sort());
    const leaseEnd = new Date(t.clock.now().getTime() + LEASE_MS).toISOString();
    expect(await leases()).toMatchObject([{ account_id: accountId, carrier_reference: 'b', leased_until: leaseEnd }]);
    // Still due, but another worker leaves them to the lease's end.
    asked.length = 0;
    await poller().runOnce();
    expect(asked).toEqual([]);
    t.clock.advance(LEASE_MS);
    await poller().runOnce();
    expect([...asked].sort()).toEqual([...numbers].sort());
    expect(await leases()).toEqual([]);
  });

  it('the worker that kept a configuration leased does not poll it again before the lease ends either', async () => {
    const numbers = await track('b', 2);
    const worker = poller();
    await withFailing(['applyBatch', 'holdBack'], () => worker.runOnce());
    expect([...asked].sort()).toEqual([...numbers].sort());
    // Its own lease would let it in again: it leaves them to the lease's end as any other worker does.
    asked.length = 0;
    t.clock.advance(LEASE_MS - 1_000);
    await worker.runOnce();
    expect(asked).toEqual([]);
    t.clock.advance(1_000);
    await worker.runOnce();
    expect([...asked].sort()).toEqual([...numbers].sort());
    for (const number of numbers) expect(await status(number), number).toBe('active');
    expect(await leases()).toEqual([]);
  });
});

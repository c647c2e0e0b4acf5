import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { DeliveryLearningTask } from '../../src/jobs/delivery-learning.task.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/**
 * A tracking change queues its shipment for delivery intelligence in its own transaction; the worker's learning
 * task counts the queue in batches (SQLite, or PostgreSQL with DATABASE_URL).
 */
describe('delivery learning from the queue', () => {
  let t: TestApp;
  let acct: TestAccount;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp({ clock: new ManualClock(new Date('2026-11-23T09:00:00Z')) });
    acct = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
  });
  afterAll(() => t.close());

  /** A shipment of one lane accepted Monday 16 November and first attempted Tuesday. */
  async function delivered(): Promise<string> {
    const id = `l-${++n}`;
    const created = await t.call(acct.token, 'POST', '/v5/shipment/', {
      shipment_id: id,
      tracking_number: `WB6${String(n).padStart(6, '0')}`,
      carrier_reference: 'sandbox',
      sender_address: { country_code: 'DE', postal_code: '80331' },
      recipient_address: { country_code: 'DE', postal_code: '10115' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const res = await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: id,
      events: [
        { event: 'picked_up', event_key: 'picked_up', time: '2026-11-16T18:00:00', timezone: 'Europe/Berlin' },
        { event: 'delivered', event_key: 'delivered', time: '2026-11-17T11:00:00', timezone: 'Europe/Berlin' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    return id;
  }

  const db = () => t.context.database.db;
  const sampled = async () =>
    Number(
      (
        await db()
          .selectFrom('transit_histograms')
          .select((eb) => eb.fn.sum<number>('shipments').as('n'))
          .where('level', '=', 4)
          .executeTakeFirstOrThrow()
      ).n ?? 0,
    );
  const counted = async () =>
    Number(
      (
        await db()
          .selectFrom('delivery_daily')
          .select((eb) => eb.fn.sum<number>('first_attempts').as('n'))
          .executeTakeFirstOrThrow()
      ).n ?? 0,
    );
  const performance = async () => {
    const res = await t.call(acct.token, 'GET', '/v5/analytics/delivery-performance/', undefined, {
      from: '2026-11-01',
      to: '2026-11-30',
      group_by: 'carrier',
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.rows as Array<Record<string, any>>;
  };

  it('counts a first attempt when the task runs, not in the event write, and once however often it runs', async () => {
    const before = await sampled();
    await delivered();
    // The window shows with the write; the counts wait for the task.
    expect(await t.context.repos.deliveryLearning.size()).toBe(1);
    expect(await sampled()).toBe(before);
    expect(await performance()).toEqual([]);
    expect(await t.context.deliveryLearning.runOnce()).toBe(1);
    expect(await sampled()).toBe(before + 1);
    expect(await t.context.repos.deliveryLearning.size()).toBe(0);
    expect(await performance()).toMatchObject([{ key: 'sandbox', shipments: 1, first_attempts: 1 }]);
    // Nothing queued: running again, or draining, changes nothing.
    expect(await t.context.deliveryLearning.drain()).toBe(0);
    expect(await sampled()).toBe(before + 1);
  });

  it('several learners counting at once count each shipment once', async () => {
    const before = { sampled: await sampled(), counted: await counted() };
    for (let i = 0; i < 30; i++) await delivered();
    expect(await t.context.repos.deliveryLearning.size()).toBe(30);
    const learners = [0, 1, 2].map(() => new DeliveryLearningTask(t.context.repos, t.context.deliveryLearner, { batchSize: 4 }));
    const taken = await Promise.all(learners.map((learner) => learner.drain()));
    expect(taken.reduce((a, b) => a + b, 0)).toBe(30);
    expect(await t.context.repos.deliveryLearning.size()).toBe(0);
    expect(await sampled()).toBe(before.sampled + 30);
    expect(await counted()).toBe(before.counted + 30);
  });

  it('counts a full batch of shipments spread over many days and lanes in one transaction', async () => {
    const fresh = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
    const count = 500;
    for (let i = 0; i < count; i++) {
      const id = `spread-${i}`;
      // A Monday-to-Thursday pick-up in one of 50 weeks of 2025, to one of 90 postal regions: about 1,400 rollup rows with transits.
      const day = new Date(Date.UTC(2025, 0, 6) + ((i % 50) * 7 + (i % 4)) * 86_400_000).toISOString().slice(0, 10);
      const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const created = await t.call(fresh.token, 'POST', '/v5/shipment/', {
        shipment_id: id,
        tracking_number: `WB5${String(i).padStart(6, '0')}`,
        carrier_reference: 'sandbox',
        sender_address: { country_code: 'DE', postal_code: '80331' },
        recipient_address: { country_code: 'DE', postal_code: `${10 + (i % 90)}115` },
      });
      expect(created.statusCode, created.body).toBe(200);
      const res = await t.call(fresh.token, 'POST', '/v5/events/create/', {
        shipment_id: id,
        events: [
          { event: 'picked_up', event_key: 'picked_up', time: `${day}T18:00:00`, timezone: 'Europe/Berlin' },
          { event: 'delivered', event_key: 'delivered', time: `${next}T11:00:00`, timezone: 'Europe/Berlin' },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const learner = new DeliveryLearningTask(t.context.repos, t.context.deliveryLearner, { batchSize: 500 });
    expect(await learner.runOnce()).toBeGreaterThanOrEqual(count);
    expect(await t.context.repos.deliveryLearning.size()).toBe(0);
    for (const groupBy of ['carrier', 'lane', 'week']) {
      const res = await t.call(fresh.token, 'GET', '/v5/analytics/delivery-performance/', undefined, {
        from: '2025-01-01',
        to: '2025-12-31',
        group_by: groupBy,
      });
      expect(res.statusCode, res.body).toBe(200);
      const rows = res.json().data.rows as Array<{ shipments: number; first_attempts: number }>;
      expect(
        rows.reduce((sum, row) => sum + row.shipments, 0),
        groupBy,
      ).toBe(count);
      expect(
        rows.reduce((sum, row) => sum + row.first_attempts, 0),
        groupBy,
      ).toBe(count);
    }
  }, 60_000);

  it('a shipment changed again after it was counted is counted again, as the difference it makes', async () => {
    const id = await delivered();
    await t.context.deliveryLearning.drain();
    const before = { sampled: await sampled(), counted: await counted() };
    // Sent back to the sender after its attempt: no longer a transit sample, still a first attempt.
    const res = await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: id,
      events: [{ event: 'returned_to_sender', event_key: 'returned_to_sender', time: '2026-11-19T12:00:00', timezone: 'Europe/Berlin' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await t.context.deliveryLearning.drain()).toBe(1);
    expect(await sampled()).toBe(before.sampled - 1);
    expect(await counted()).toBe(before.counted);
  });

  it('an event written while a learner holds its shipment in the queue waits for that learner, without a deadlock', async () => {
    const id = await delivered();
    // A learner claims the queued shipment and holds it while the event's transaction locks the shipment and
    // queues it again; the learner then writes the shipment's facts (which refer to the shipment row).
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let claimed!: () => void;
    const held = new Promise<void>((resolve) => {
      claimed = resolve;
    });
    const learning = t.context.repos.transaction(async (trx) => {
      const ids = await trx.deliveryLearning.claim(500);
      claimed();
      await gate;
      return t.context.deliveryLearner.learn(trx, ids);
    });
    await held;
    const event = t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: id,
      events: [{ event: 'Scanned again at the depot', time: '2026-11-17T12:00:00', timezone: 'Europe/Berlin' }],
    });
    if (t.context.database.dialect === 'postgres') {
      // The event's transaction holds the shipment and waits for the learner's queue row.
      const waiting = async () =>
        (
          await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and query ilike '%insert into "delivery_learning"%'`.execute(db())
        ).rows[0].n;
      await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
    } else {
      // SQLite: the event waits for the connection the learner holds.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    release();
    expect(await learning).toBe(1);
    const res = await event;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.events_created).toBe(1);
    // Queued again after the learner: taken again, and a scan after the attempt changes no count.
    expect(await t.context.repos.deliveryLearning.size()).toBe(1);
    const before = { sampled: await sampled(), counted: await counted() };
    expect(await t.context.deliveryLearning.drain()).toBe(1);
    expect({ sampled: await sampled(), counted: await counted() }).toEqual(before);
  });
});

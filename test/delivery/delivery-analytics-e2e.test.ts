import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/**
 * Delivery analytics end to end: manual events through the API, then the sums, rates and transit summaries the
 * analytics API answers, worked out by hand from those events (SQLite, or PostgreSQL with DATABASE_URL).
 *
 * The sandbox carrier delivers Monday to Friday; 7 to 18 September 2026 has no public holiday in DE or AT.
 * Acceptance is the `picked_up` date; transit is counted in working days after it up to the first attempt.
 */

const MUNICH = { country_code: 'DE', postal_code: '80331', city: 'München' };
const BERLIN = { country_code: 'DE', postal_code: '10115', city: 'Berlin' };
const HAMBURG = { country_code: 'DE', postal_code: '20095', city: 'Hamburg' };
const VIENNA = { country_code: 'AT', postal_code: '1010', city: 'Wien' };

const LANE_DE_10 = '["sandbox","sandbx","","DE","DE","10"]';
const LANE_DE_20 = '["sandbox","sandbx","","DE","DE","20"]';
const LANE_AT_10 = '["sandbox","sandbx","","DE","AT","10"]';
const LANE_B_DE_10 = '["sandbox-b","sandbx","","DE","DE","10"]';

interface Plan {
  id: string;
  carrier: 'sandbox' | 'sandbox-b';
  to: Record<string, string>;
  events: Array<{ event_key: string; time: string }>;
  /** The first attempt's local date, when there is one (on time is judged against the original window). */
  attempt: string | null;
}

const PLANS: Plan[] = [
  // Transit 1, delivered at the first attempt.
  {
    id: 'a',
    carrier: 'sandbox',
    to: BERLIN,
    events: [
      { event_key: 'picked_up', time: '2026-09-07T18:00:00' },
      { event_key: 'delivered', time: '2026-09-08T11:00:00' },
    ],
    attempt: '2026-09-08',
  },
  // Transit 2: a failed attempt on Wednesday, delivered Thursday.
  {
    id: 'b',
    carrier: 'sandbox',
    to: BERLIN,
    events: [
      { event_key: 'picked_up', time: '2026-09-07T18:00:00' },
      { event_key: 'delivery_attempt_failed', time: '2026-09-09T10:00:00' },
      { event_key: 'delivered', time: '2026-09-10T12:00:00' },
    ],
    attempt: '2026-09-09',
  },
  // Transit 4: taken to a pickup point on Friday, not collected yet.
  {
    id: 'c',
    carrier: 'sandbox',
    to: BERLIN,
    events: [
      { event_key: 'picked_up', time: '2026-09-07T18:00:00' },
      { event_key: 'available_for_pickup', time: '2026-09-11T09:00:00' },
    ],
    attempt: '2026-09-11',
  },
  // Returned to sender without an attempt: counted as a shipment and a return, never as a transit.
  {
    id: 'd',
    carrier: 'sandbox',
    to: BERLIN,
    events: [
      { event_key: 'picked_up', time: '2026-09-07T18:00:00' },
      { event_key: 'returned_to_sender', time: '2026-09-10T09:00:00' },
    ],
    attempt: null,
  },
  // An exception, then delivered at 22:30 UTC on Wednesday, which is 00:30 on Thursday in Berlin: transit 3.
  {
    id: 'e',
    carrier: 'sandbox',
    to: BERLIN,
    events: [
      { event_key: 'picked_up', time: '2026-09-07T18:00:00' },
      { event_key: 'address_issue', time: '2026-09-08T15:00:00' },
      { event_key: 'delivered', time: '2026-09-09T22:30:00Z' },
    ],
    attempt: '2026-09-10',
  },
  // To Austria, accepted Tuesday, delivered the next Monday: Wednesday, Thursday, Friday, Monday = transit 4.
  {
    id: 'f',
    carrier: 'sandbox',
    to: VIENNA,
    events: [
      { event_key: 'picked_up', time: '2026-09-08T17:00:00' },
      { event_key: 'delivered', time: '2026-09-14T10:00:00' },
    ],
    attempt: '2026-09-14',
  },
  // The second configuration: transit 1 in the first week, transit 1 in the second, and one not accepted yet.
  {
    id: 'g',
    carrier: 'sandbox-b',
    to: BERLIN,
    events: [
      { event_key: 'picked_up', time: '2026-09-09T17:00:00' },
      { event_key: 'delivered', time: '2026-09-10T10:00:00' },
    ],
    attempt: '2026-09-10',
  },
  {
    id: 'h',
    carrier: 'sandbox-b',
    to: BERLIN,
    events: [
      { event_key: 'picked_up', time: '2026-09-15T17:00:00' },
      { event_key: 'delivered', time: '2026-09-16T10:00:00' },
    ],
    attempt: '2026-09-16',
  },
  {
    id: 'i',
    carrier: 'sandbox-b',
    to: BERLIN,
    events: [{ event_key: 'label_created', time: '2026-09-07T08:00:00' }],
    attempt: null,
  },
];

async function post(t: TestApp, acct: TestAccount, id: string, list: Array<{ event_key: string; time: string }>) {
  const res = await t.call(acct.token, 'POST', '/v5/events/create/', {
    shipment_id: id,
    events: list.map((e) => ({ event: e.event_key, ...e, timezone: 'Europe/Berlin' })),
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Counts what tracking changes queued, as a worker's learning task does every few seconds. */
const learned = (t: TestApp) => t.context.deliveryLearning.drain();

async function performance(t: TestApp, acct: TestAccount, groupBy: string, from = '2026-09-01', to = '2026-09-30') {
  await learned(t);
  const res = await t.call(acct.token, 'GET', '/v5/analytics/delivery-performance/', undefined, { from, to, group_by: groupBy });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.rows as Array<Record<string, any>>;
}

function rowOf(rows: Array<Record<string, any>>, key: string): Record<string, any> {
  const row = rows.find((r) => r.key === key);
  expect(row, `no row ${key} in ${JSON.stringify(rows)}`).toBeDefined();
  return row as Record<string, any>;
}

async function tableSums(t: TestApp): Promise<Record<string, number>> {
  await learned(t);
  const db = t.context.database.db;
  const sum = async (table: 'transit_histograms' | 'delivery_daily' | 'delivery_daily_transits', column: string) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.sum<number>(column as never).as('n'))
          .executeTakeFirstOrThrow()
      ).n ?? 0,
    );
  const transitRows = Number(
    (
      await db
        .selectFrom('transit_histograms')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('shipments', '!=', 0)
        .executeTakeFirstOrThrow()
    ).n,
  );
  return {
    transit_histograms: await sum('transit_histograms', 'shipments'),
    transit_histogram_cells: transitRows,
    delivery_daily: await sum('delivery_daily', 'shipments'),
    delivery_daily_first_attempts: await sum('delivery_daily', 'first_attempts'),
    delivery_daily_transits: await sum('delivery_daily_transits', 'shipments'),
    delivery_facts: Number(
      (
        await db
          .selectFrom('delivery_facts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  };
}

describe('delivery analytics through the API', () => {
  let t: TestApp;
  let acct: TestAccount;
  /** Each attempted shipment's first attempt against its original window: on time when not after its `to`. */
  const onTime = new Map<string, boolean>();

  beforeAll(async () => {
    // Monday 21 September 2026, 09:00 in Berlin: every event below is in the past.
    t = await createTestApp({ clock: new ManualClock(new Date('2026-09-21T07:00:00Z')) });
    acct = await t.account({
      carriers: [{ carrier_reference: 'sandbox' }, { carrier_reference: 'sandbox-b' }],
    });
    for (const [n, plan] of PLANS.entries()) {
      const res = await t.call(acct.token, 'POST', '/v5/shipment/', {
        shipment_id: plan.id,
        tracking_number: `WB9${String(n).padStart(6, '0')}`,
        carrier_reference: plan.carrier,
        sender_address: MUNICH,
        recipient_address: plan.to,
      });
      expect(res.statusCode, res.body).toBe(200);
      await post(t, acct, plan.id, plan.events);
      const details = await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: plan.id });
      const prediction = details.json().data.delivery_prediction;
      if (plan.events[0].event_key === 'label_created') expect(prediction).toBeNull();
      else expect(prediction.original.to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (plan.attempt !== null) onTime.set(plan.id, plan.attempt <= prediction.original.to);
    }
  });
  afterAll(() => t.close());

  const onTimeOf = (ids: string[]) => ids.filter((id) => onTime.get(id)).length;

  it('by carrier configuration: counts, first-attempt and on-time rates, transit median, p90 and mean', async () => {
    const rows = await performance(t, acct, 'carrier');
    expect(rows.map((r) => r.key)).toEqual(['sandbox', 'sandbox-b']);
    // a..f: six shipments, all accepted; first attempts a, b, c, e, f of which a, e, f delivered;
    // delivered a, b, e, f; the exception of e; the return of d. Transits 1, 2, 4, 3, 4 → sorted 1 2 3 4 4:
    // median the 3rd (3), p90 the 5th (4), mean 14 / 5.
    expect(rowOf(rows, 'sandbox')).toEqual({
      key: 'sandbox',
      shipments: 6,
      accepted: 6,
      first_attempts: 5,
      delivered: 4,
      first_attempt_success_rate: 3 / 5,
      on_time_rate: onTimeOf(['a', 'b', 'c', 'e', 'f']) / 5,
      transit_working_days: { median: 3, p90: 4, mean: 2.8 },
      exceptions: 1,
      returned_to_sender: 1,
    });
    // g, h, i: three shipments, g and h accepted and delivered at the first attempt in one working day.
    expect(rowOf(rows, 'sandbox-b')).toEqual({
      key: 'sandbox-b',
      shipments: 3,
      accepted: 2,
      first_attempts: 2,
      delivered: 2,
      first_attempt_success_rate: 1,
      on_time_rate: onTimeOf(['g', 'h']) / 2,
      transit_working_days: { median: 1, p90: 1, mean: 1 },
      exceptions: 0,
      returned_to_sender: 0,
    });
  });

  it('by lane, destination country and week', async () => {
    const lanes = await performance(t, acct, 'lane');
    expect(lanes.map((r) => r.key)).toEqual([LANE_AT_10, LANE_DE_10, LANE_B_DE_10]); // by code unit: '"' before '-'
    expect(rowOf(lanes, LANE_AT_10)).toMatchObject({
      carrier_reference: 'sandbox',
      destination_country: 'AT',
      destination_postal_prefix: '10',
      shipments: 1,
      first_attempts: 1,
      first_attempt_success_rate: 1,
      on_time_rate: onTimeOf(['f']),
      transit_working_days: { median: 4, p90: 4, mean: 4 },
    });
    // a..e: transits 1, 2, 4, 3 → median the 2nd (2), p90 the 4th (4), mean 10 / 4.
    expect(rowOf(lanes, LANE_DE_10)).toMatchObject({
      shipments: 5,
      accepted: 5,
      first_attempts: 4,
      delivered: 3,
      first_attempt_success_rate: 2 / 4,
      on_time_rate: onTimeOf(['a', 'b', 'c', 'e']) / 4,
      transit_working_days: { median: 2, p90: 4, mean: 2.5 },
      exceptions: 1,
      returned_to_sender: 1,
    });

    const countries = await performance(t, acct, 'destination_country');
    expect(countries.map((r) => [r.key, r.shipments, r.first_attempts])).toEqual([
      ['AT', 1, 1],
      ['DE', 8, 6],
    ]);
    // DE: transits 1, 2, 4, 3, 1, 1 → 1 1 1 2 3 4: median the 3rd (1), p90 the 6th (4), mean 12 / 6.
    expect(rowOf(countries, 'DE').transit_working_days).toEqual({ median: 1, p90: 4, mean: 2 });
    expect(rowOf(countries, 'DE').on_time_rate).toBe(onTimeOf(['a', 'b', 'c', 'e', 'g', 'h']) / 6);

    const weeks = await performance(t, acct, 'week');
    expect(weeks.map((r) => r.key)).toEqual(['2026-09-07', '2026-09-14']);
    // h alone was accepted in the second week; i counts on the day of its first event (7 September).
    expect(rowOf(weeks, '2026-09-07')).toMatchObject({
      shipments: 8,
      accepted: 7,
      first_attempts: 6,
      delivered: 5,
      first_attempt_success_rate: 4 / 6,
      on_time_rate: onTimeOf(['a', 'b', 'c', 'e', 'f', 'g']) / 6,
      // 1 2 4 3 4 1 → 1 1 2 3 4 4: median the 3rd (2), p90 the 6th (4), mean 15 / 6.
      transit_working_days: { median: 2, p90: 4, mean: 2.5 },
    });
    expect(rowOf(weeks, '2026-09-14')).toMatchObject({
      shipments: 1,
      first_attempts: 1,
      transit_working_days: { median: 1, p90: 1, mean: 1 },
    });

    // The period selects on the acceptance day: the second week alone holds h.
    expect((await performance(t, acct, 'carrier', '2026-09-14', '2026-09-20')).map((r) => [r.key, r.shipments])).toEqual([
      ['sandbox-b', 1],
    ]);
  });

  it('a shipment whose address changes after delivery moves to its new lane once, without counting twice', async () => {
    const before = await tableSums(t);
    const update = await t.call(acct.token, 'POST', '/v5-2-0/shipment/update/', { recipient_address: HAMBURG }, { shipment_id: 'a' });
    expect(update.statusCode, update.body).toBe(200);
    // A later scan brings the shipment's facts up to date with its new address.
    await post(t, acct, 'a', [{ event_key: 'delivered_to_neighbour', time: '2026-09-08T11:05:00' }]);

    const lanes = await performance(t, acct, 'lane');
    expect(lanes.map((r) => r.key)).toEqual([LANE_AT_10, LANE_DE_10, LANE_DE_20, LANE_B_DE_10]);
    expect(rowOf(lanes, LANE_DE_20)).toMatchObject({
      shipments: 1,
      accepted: 1,
      first_attempts: 1,
      delivered: 1,
      first_attempt_success_rate: 1,
      on_time_rate: onTimeOf(['a']),
      transit_working_days: { median: 1, p90: 1, mean: 1 },
    });
    // b, c, d, e remain: transits 2, 4, 3 → median 3, p90 4, mean 3.
    expect(rowOf(lanes, LANE_DE_10)).toMatchObject({
      shipments: 4,
      first_attempts: 3,
      delivered: 2,
      first_attempt_success_rate: 1 / 3,
      transit_working_days: { median: 3, p90: 4, mean: 3 },
    });
    // The carrier's totals are those of before.
    expect(rowOf(await performance(t, acct, 'carrier'), 'sandbox')).toMatchObject({
      shipments: 6,
      first_attempts: 5,
      transit_working_days: { median: 3, p90: 4, mean: 2.8 },
    });
    const after = await tableSums(t);
    expect(after.delivery_daily).toBe(before.delivery_daily);
    expect(after.delivery_daily_transits).toBe(before.delivery_daily_transits);
    expect(after.transit_histograms).toBe(before.transit_histograms);
    // The transit sample stays in the cells of the lane the parcel travelled (the address changed after delivery),
    // counted once: no cell is left with less than nothing.
    const negative = await t.context.database.db.selectFrom('transit_histograms').select('cell_key').where('shipments', '<', 0).execute();
    expect(negative).toEqual([]);
  });

  it('a simulated history, created and deleted, leaves analytics and transit histograms as they were', async () => {
    const before = await tableSums(t);
    const carriers = await performance(t, acct, 'carrier', '2025-09-22', '2026-09-21');
    const created = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/simulated-history/`, {
      shipments: 300,
      weeks: 8,
      seed: 'e2e',
      end: '2026-09-18',
    });
    expect(created.statusCode, created.body).toBe(201);
    const during = await tableSums(t);
    expect(during.delivery_daily).toBe(before.delivery_daily + 300);
    expect(during.transit_histograms).toBeGreaterThan(before.transit_histograms);

    const deleted = await t.admin('DELETE', `/admin/v1/accounts/${acct.accountUuid}/simulated-history/`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ deleted: 300 });
    expect(await tableSums(t)).toEqual(before);
    // Daily rows brought back to zero stay in the table (and are answered as groups of no shipments): the groups
    // with shipments are exactly those of before.
    const afterwards = await performance(t, acct, 'carrier', '2025-09-22', '2026-09-21');
    expect(afterwards.filter((row) => row.shipments !== 0)).toEqual(carriers);
  });
});

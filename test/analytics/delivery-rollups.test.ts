import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliverySelection } from '../../src/db/repositories/delivery-analytics.repository.js';
import type { DailyDelta, DailyTransitDelta } from '../../src/db/repositories/delivery-facts.repository.js';
import type { Repositories } from '../../src/db/repositories/index.js';
import type { AnalyticsGroup, AnalyticsQuery } from '../../src/domain/delivery/analytics.types.js';
import { DeliveryAnalyticsService } from '../../src/domain/delivery/delivery-analytics.service.js';
import { analyticsLaneKey, type Lane } from '../../src/domain/delivery/lane.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * The week and month rollups beside the daily rows: written by the learner's `applyDaily` (increments and
 * decrements, as shipments move) and by the bulk insert, they hold the sums of their days, and a period read from
 * them and the days at its ends answers exactly what the daily rows alone answer.
 */

const DAY_MS = 86_400_000;
const FIRST = Date.UTC(2024, 11, 1);
const DAYS = 430; // 2024-12-01 to 2026-02-03
const dateAt = (i: number) => new Date(FIRST + i * DAY_MS).toISOString().slice(0, 10);
const TIMINGS = ['early', 'on_time', 'late', 'none'] as const;
const COUNTERS = [
  'shipments',
  'accepted',
  'first_attempts',
  'first_attempt_successes',
  'delivered',
  'on_time',
  'promised',
  'exceptions',
  'returned_to_sender',
] as const;

/** Two lanes whose keys joined with '|' would be one ('a|b' + 'c' and 'a' + 'b|c'), and two plain ones. */
const LANES: Array<{ reference: string; lane: Lane }> = [
  { reference: 'a|b', lane: lane('upsglb', 'c', 'FR', '75001') },
  { reference: 'a', lane: lane('upsglb', 'b|c', 'FR', '75001') },
  { reference: 'dhl', lane: lane('dhlpde', '', 'DE', '10117') },
  { reference: 'dhl', lane: lane('dhlpde', 'express', 'AT', '') },
];

function lane(carrierId: string, service: string, destinationCountry: string, destinationPostal: string): Lane {
  return { carrierId, service, originCountry: 'DE', originPostal: '10115', destinationCountry, destinationPostal };
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

function deltaOf(accountId: number, day: string, l: (typeof LANES)[number], sign: number, next: () => number): DailyDelta {
  const counts = Object.fromEntries(COUNTERS.map((counter) => [counter, sign * (1 + Math.floor(next() * 4))]));
  return {
    account_id: accountId,
    day,
    lane_key: analyticsLaneKey(l.reference, l.lane),
    carrier_reference: l.reference,
    carrier_id: l.lane.carrierId,
    shipping_service: l.lane.service,
    origin_country: l.lane.originCountry,
    destination_country: l.lane.destinationCountry,
    destination_prefix: l.lane.destinationPostal.slice(0, 2),
    ...(counts as Record<(typeof COUNTERS)[number], number>),
  };
}

describe('delivery analytics rollups', () => {
  let t: TestApp;
  let accountId: number;
  let bulkAccountId: number;
  const rollupsOnly = () => new DeliveryAnalyticsService(t.context.repos);
  /** The same service reading the daily rows alone, as before the rollups. */
  const dailyOnly = () =>
    new DeliveryAnalyticsService({
      deliveryAnalytics: {
        sumsBy: async (selection: DeliverySelection, dimensions: Parameters<Repositories['deliveryAnalytics']['countsBy']>[1]) => ({
          counts: await t.context.repos.deliveryAnalytics.countsBy(selection, dimensions),
          transits: await t.context.repos.deliveryAnalytics.transitsBy(selection, dimensions),
        }),
      },
    } as unknown as Repositories);

  beforeAll(async () => {
    t = await createTestApp();
    const id = async () => (await t.context.repos.accounts.findByUuid((await t.account()).accountUuid))?.id as number;
    accountId = await id();
    bulkAccountId = await id();
    const next = random(20250101);
    // Batches as the learner writes them: a day's counts and transits; now and then a shipment moved away
    // from a day (its counts and transits taken back), so rollups see decrements too.
    await t.context.repos.transaction(async (repos) => {
      for (let batch = 0; batch < 900; batch++) {
        const day = dateAt(Math.floor(next() * DAYS));
        const l = LANES[Math.floor(next() * LANES.length)];
        const rows = [deltaOf(accountId, day, l, 1, next)];
        // One delta per transit and timing, as the learner sends them.
        const bins = new Map<string, DailyTransitDelta>();
        for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
          const transit = Math.floor(next() * 7);
          const timing = TIMINGS[Math.floor(next() * TIMINGS.length)];
          const bin = bins.get(`${transit} ${timing}`) ?? {
            account_id: accountId,
            day,
            lane_key: rows[0].lane_key,
            transit,
            timing,
            delta: 0,
          };
          bin.delta += 1 + Math.floor(next() * 3);
          bins.set(`${transit} ${timing}`, bin);
        }
        const transits = [...bins.values()];
        await repos.deliveryFacts.applyDaily(rows, transits);
        if (next() < 0.25) {
          // Take part of it back: counters down by one each, one transit moved to another transit.
          const back = { ...rows[0], ...Object.fromEntries(COUNTERS.map((counter) => [counter, -1])) } as DailyDelta;
          const moved = transits[0];
          await repos.deliveryFacts.applyDaily(
            [back],
            [
              { ...moved, delta: -1 },
              { ...moved, transit: moved.transit + 1, delta: 1 },
            ],
          );
        }
        if (next() < 0.1) {
          // A change of transit alone: no counter moves, the histogram does.
          const moved = transits[transits.length - 1];
          await repos.deliveryFacts.applyDaily(
            [],
            [
              { ...moved, delta: -1 },
              { ...moved, timing: moved.timing === 'late' ? 'early' : 'late', delta: 1 },
            ],
          );
        }
      }
    });
    // The same days again for another account, through the bulk insert.
    const db = t.context.repos.db;
    const days = await db.selectFrom('delivery_daily').selectAll().where('account_id', '=', accountId).execute();
    const transits = await db.selectFrom('delivery_daily_transits').selectAll().where('account_id', '=', accountId).execute();
    await t.context.repos.transaction((repos) =>
      repos.deliveryAnalytics.insertDaily(
        days.map((row) => ({ ...row, account_id: bulkAccountId })),
        transits.map((row) => ({ ...row, account_id: bulkAccountId })),
      ),
    );
  }, 120_000);
  afterAll(() => t.close());

  it('keeps each week and month row equal to the sums of its days', async () => {
    const db = t.context.repos.db;
    const days = await db.selectFrom('delivery_daily').selectAll().where('account_id', '=', accountId).execute();
    const transits = await db.selectFrom('delivery_daily_transits').selectAll().where('account_id', '=', accountId).execute();
    const expected = new Map<string, { counts: Record<string, number>; histogram: Map<number, number[]> }>();
    const monday = (day: string) => {
      const time = Date.parse(`${day}T00:00:00Z`);
      return new Date(time - ((new Date(time).getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
    };
    // By lane, and by configuration, carrier and service (the first three parts of the lane's key).
    const unitsOf = (day: string, laneKey: string) => {
      const carrierKey = JSON.stringify((JSON.parse(laneKey) as string[]).slice(0, 3));
      return [
        JSON.stringify(['week', monday(day), laneKey]),
        JSON.stringify(['month', `${day.slice(0, 7)}-01`, laneKey]),
        JSON.stringify(['carrier_day', day, carrierKey]),
        JSON.stringify(['carrier_week', monday(day), carrierKey]),
        JSON.stringify(['carrier_month', `${day.slice(0, 7)}-01`, carrierKey]),
      ];
    };
    for (const row of days)
      for (const id of unitsOf(row.day, row.lane_key)) {
        const entry = expected.get(id) ?? { counts: Object.fromEntries(COUNTERS.map((c) => [c, 0])), histogram: new Map() };
        for (const counter of COUNTERS) entry.counts[counter] += Number(row[counter]);
        expected.set(id, entry);
      }
    for (const row of transits)
      for (const id of unitsOf(row.day, row.lane_key)) {
        const histogram = expected.get(id)?.histogram as Map<number, number[]>;
        const bin = histogram.get(Number(row.transit)) ?? [0, 0, 0, 0];
        bin[TIMINGS.indexOf(row.timing as (typeof TIMINGS)[number])] += Number(row.shipments);
        histogram.set(Number(row.transit), bin);
      }

    for (const account of [accountId, bulkAccountId]) {
      const rollups = await db.selectFrom('delivery_rollups').selectAll().where('account_id', '=', account).execute();
      expect(rollups.length).toBe(expected.size);
      for (const row of rollups) {
        const want = expected.get(JSON.stringify([row.unit, row.start, row.lane_key]));
        expect(want, `${row.unit} ${row.start} ${row.lane_key}`).toBeDefined();
        expect(Object.fromEntries(COUNTERS.map((c) => [c, Number(row[c])]))).toEqual(want?.counts);
        const bins = [...(want?.histogram ?? [])]
          .filter(([, counts]) => counts.some((n) => n !== 0))
          .sort(([a], [b]) => a - b)
          .map(([transit, counts]) => [transit, ...counts]);
        expect(JSON.parse(row.transits)).toEqual(bins);
      }
    }
    // Every lane of LANES kept apart, the two that '|' would join included.
    expect(new Set(days.map((row) => row.lane_key)).size).toBe(LANES.length);
  });

  const groupings: AnalyticsGroup[][] = [
    ['carrier'],
    ['lane'],
    ['destination_country'],
    ['week'],
    ['week', 'carrier'],
    ['carrier', 'destination_country'],
  ];
  const query = (from: number, length: number, groupBy: AnalyticsGroup[], filter: number): AnalyticsQuery => ({
    from: dateAt(from),
    to: dateAt(Math.min(DAYS - 1, from + length - 1)),
    groupBy,
    ...(filter === 1 ? { carrierReference: 'dhl' } : filter === 2 ? { shippingService: 'B|C' } : {}),
  });

  it('answers periods from the rollups exactly as from the daily rows alone', async () => {
    const periods = fc.tuple(
      fc.integer({ min: 0, max: DAYS - 1 }),
      fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 20, max: 366 }), fc.constant(366)),
      fc.constantFrom(...groupings),
      fc.integer({ min: 0, max: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(periods, async ([from, length, groupBy, filter]) => {
        const q = query(from, length, groupBy, filter);
        for (const account of [accountId, bulkAccountId]) {
          const expected = await dailyOnly().performance(account, q);
          expect(await rollupsOnly().performance(account, q)).toEqual(expected);
        }
      }),
      {
        numRuns: 120,
        seed: 39,
        examples: [
          // 2025 whole; a Wednesday to a Saturday across months; a single day; one whole ISO week; one whole month.
          [[31, 365, ['carrier'], 0]],
          [[31, 365, ['week'], 0]],
          [[31, 365, ['lane'], 2]],
          [[45, 300, ['destination_country'], 1]],
          [[100, 1, ['week', 'carrier'], 0]],
          [[125, 7, ['lane'], 0]],
          [[120, 31, ['carrier', 'destination_country'], 0]],
        ],
      },
    );
  }, 120_000);

  it.each([
    ['carrier', 'carrier_month'],
    ['lane', 'month'],
  ] as const)('reads the rollups for whole weeks and months: a year by %s is not summed from its days (%s rows)', async (groupBy, unit) => {
    // Rollups nobody else reads: a wrong answer would show here if any of the year came from them.
    const year = query(31, 365, [groupBy], 0);
    const before = await rollupsOnly().performance(accountId, year);
    const db = t.context.repos.db;
    await db.updateTable('delivery_rollups').set({ shipments: 0 }).where('account_id', '=', accountId).where('unit', '=', unit).execute();
    try {
      const after = await rollupsOnly().performance(accountId, year);
      expect(after.rows.reduce((sum, row) => sum + row.shipments, 0)).toBe(0);
      expect(before.rows.reduce((sum, row) => sum + row.shipments, 0)).toBeGreaterThan(0);
    } finally {
      // Put the sums back from the weeks' days so the other tests see the rollups whole.
      const days = await db
        .selectFrom('delivery_daily')
        .select(['day', 'lane_key', 'shipments'])
        .where('account_id', '=', accountId)
        .execute();
      const sums = new Map<string, number>();
      for (const row of days) {
        const key = unit === 'month' ? row.lane_key : JSON.stringify((JSON.parse(row.lane_key) as string[]).slice(0, 3));
        const id = JSON.stringify([`${row.day.slice(0, 7)}-01`, key]);
        sums.set(id, (sums.get(id) ?? 0) + Number(row.shipments));
      }
      for (const [id, shipments] of sums) {
        const [start, laneKey] = JSON.parse(id) as [string, string];
        await db
          .updateTable('delivery_rollups')
          .set({ shipments })
          .where('account_id', '=', accountId)
          .where('unit', '=', unit)
          .where('start', '=', start)
          .where('lane_key', '=', laneKey)
          .execute();
      }
    }
  });
});

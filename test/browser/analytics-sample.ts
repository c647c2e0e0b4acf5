import { accountIdOf, type DayCounts, insertFact, type LaneSpec, laneKey, type TransitCount } from '../console/delivery-rows.js';
import type { TestAccount, TestApp } from '../helpers/app.js';

/**
 * Twelve weeks of a merchant's deliveries with five carriers, for the Analytics page's screenshot: domestic and
 * cross-border lanes, each carrier with its own transit times, punctuality and first-attempt success, a busy
 * week with later deliveries, and a few parcels overdue without a scan. Written straight into the aggregates
 * (seeded, so every run draws the same page).
 */

interface CarrierProfile {
  carrier: string;
  service: string;
  perWeek: number;
  /** Destination country, its share of the carrier's parcels, the usual transit (working days), postal prefix. */
  lanes: Array<[country: string, share: number, transit: number, prefix: string]>;
  /** Chance of a first attempt later than the window's end, and of a first attempt that does not deliver. */
  late: number;
  failedAttempt: number;
}

const CARRIERS: CarrierProfile[] = [
  {
    carrier: 'dhl-paket',
    service: 'standard',
    perWeek: 150,
    lanes: [
      ['DE', 0.68, 1, '10'],
      ['AT', 0.12, 2, '10'],
      ['NL', 0.1, 2, '10'],
      ['FR', 0.1, 3, '75'],
    ],
    late: 0.04,
    failedAttempt: 0.06,
  },
  {
    carrier: 'dpd-classic',
    service: 'standard',
    perWeek: 90,
    lanes: [
      ['DE', 0.7, 1, '20'],
      ['AT', 0.15, 2, '40'],
      ['PL', 0.15, 3, '00'],
    ],
    late: 0.08,
    failedAttempt: 0.09,
  },
  {
    carrier: 'gls-business',
    service: 'standard',
    perWeek: 70,
    lanes: [
      ['DE', 0.8, 2, '50'],
      ['NL', 0.2, 2, '10'],
    ],
    late: 0.12,
    failedAttempt: 0.11,
  },
  {
    carrier: 'hermes',
    service: 'economy',
    perWeek: 80,
    lanes: [['DE', 1, 2, '80']],
    late: 0.1,
    failedAttempt: 0.14,
  },
  {
    carrier: 'ups-standard',
    service: 'express',
    perWeek: 35,
    lanes: [
      ['FR', 0.4, 2, '69'],
      ['GB', 0.3, 3, 'SW'],
      ['PL', 0.3, 3, '00'],
    ],
    late: 0.03,
    failedAttempt: 0.05,
  },
];

/** A small seeded generator (mulberry32): the same numbers every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface DayAggregate {
  lane: LaneSpec;
  day: string;
  counts: Required<DayCounts>;
  transits: Map<string, number>;
}

/** Writes twelve weeks up to today for `account`, and six parcels overdue without a scan. */
export async function seedDeliveryHistory(t: TestApp, account: TestAccount): Promise<void> {
  const next = random(20260318);
  const accountId = await accountIdOf(t, account.accountUuid);
  const today = Date.parse(`${isoDate(t.clock.now().getTime())}T00:00:00Z`);
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  const firstMonday = monday - 11 * 7 * DAY_MS;
  const aggregates = new Map<string, DayAggregate>();

  for (let week = 0; week < 12; week++) {
    // Week 8 is a promotion: a third more parcels, and the carriers slower for it.
    const busy = week === 8;
    for (const profile of CARRIERS) {
      const parcels = Math.round(profile.perWeek * (busy ? 1.35 : 1) * (0.85 + next() * 0.3));
      for (let i = 0; i < parcels; i++) {
        const weekday = Math.min(4, Math.floor(next() * 5.4));
        const accepted = firstMonday + (week * 7 + weekday) * DAY_MS;
        if (accepted > today) continue;
        const pick = next();
        let cumulative = 0;
        const [country, , usual, prefix] =
          profile.lanes.find(([, share]) => {
            cumulative += share;
            return pick < cumulative;
          }) ?? profile.lanes[0];
        const lane: LaneSpec = { carrier: profile.carrier, service: profile.service, origin: 'DE', destination: country, prefix };
        const day = isoDate(accepted);
        const id = `${day}|${laneKey(lane)}`;
        let aggregate = aggregates.get(id);
        if (!aggregate) {
          const counts = {
            shipments: 0,
            accepted: 0,
            first_attempts: 0,
            first_attempt_successes: 0,
            delivered: 0,
            on_time: 0,
            promised: 0,
            exceptions: 0,
            returned_to_sender: 0,
          };
          aggregate = { lane, day, counts, transits: new Map() };
          aggregates.set(id, aggregate);
        }
        const c = aggregate.counts;
        c.shipments++;
        c.accepted++;
        // The window: the usual transit to one working day more; a few parcels had none.
        const windowed = next() > 0.03;
        const roll = next();
        const late = profile.late * (busy ? 2.2 : 1);
        const transit = Math.max(
          0,
          roll < 0.07 ? usual - 1 : roll < 1 - late ? usual + (next() < 0.35 ? 1 : 0) : usual + 2 + Math.floor(next() * 2),
        );
        // Working days to calendar days, roughly: a parcel still under way today has no first attempt yet.
        if (accepted + Math.ceil((transit * 7) / 5) * DAY_MS > today) continue;
        c.first_attempts++;
        const success = next() > profile.failedAttempt * (busy ? 1.3 : 1);
        if (success) c.first_attempt_successes++;
        if (success || next() < 0.9) c.delivered++;
        else if (next() < 0.5) c.returned_to_sender++;
        else c.exceptions++;
        let timing: TransitCount[1] = 'none';
        if (windowed) {
          c.promised++;
          timing = transit < usual ? 'early' : transit <= usual + 1 ? 'on_time' : 'late';
          if (timing !== 'late') c.on_time++;
        }
        const key = `${transit}|${timing}`;
        aggregate.transits.set(key, (aggregate.transits.get(key) ?? 0) + 1);
      }
    }
  }

  const days = [...aggregates.values()];
  const rows = days.map((a) => ({
    account_id: accountId,
    day: a.day,
    lane_key: laneKey(a.lane),
    carrier_reference: a.lane.carrier,
    carrier_id: 'sandbx',
    shipping_service: a.lane.service,
    origin_country: a.lane.origin,
    destination_country: a.lane.destination,
    destination_prefix: a.lane.prefix,
    ...a.counts,
  }));
  const transits = days.flatMap((a) =>
    [...a.transits].map(([key, shipments]) => {
      const [transit, timing] = key.split('|');
      return { account_id: accountId, day: a.day, lane_key: laneKey(a.lane), transit: Number(transit), timing, shipments };
    }),
  );
  // The repository's bulk insert fills the week and month rollups beside the days.
  await t.context.repos.transaction((repos) => repos.deliveryAnalytics.insertDaily(rows, transits));

  const overdue: Array<[id: string, profile: number, country: number, acceptedDaysAgo: number, windowDaysAgo: number]> = [
    ['SO-10391', 1, 2, 16, 11],
    ['SO-10402', 3, 0, 12, 8],
    ['SO-10417', 0, 3, 10, 5],
    ['SO-10423', 2, 0, 9, 5],
    ['SO-10431', 4, 1, 8, 2],
    ['SO-10436', 3, 0, 6, 1],
  ];
  for (const [shipmentId, p, l, acceptedDaysAgo, windowDaysAgo] of overdue) {
    const profile = CARRIERS[p];
    const [country, , , prefix] = profile.lanes[l];
    await insertFact(t, account.token, accountId, {
      shipmentId,
      lane: { carrier: profile.carrier, service: profile.service, origin: 'DE', destination: country, prefix },
      day: isoDate(today - acceptedDaysAgo * DAY_MS),
      promisedTo: isoDate(today - windowDaysAgo * DAY_MS),
      lastScanAt: new Date(today - (acceptedDaysAgo - 1) * DAY_MS + 8.5 * 3_600_000).toISOString(),
      trackingNumber: `${profile.carrier.slice(0, 3).toUpperCase()}${shipmentId.slice(3)}${String(acceptedDaysAgo).padStart(4, '0')}DE`,
    });
  }
}

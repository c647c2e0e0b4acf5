import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Insertable, sql } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import type { DeliveryDailyTable, DeliveryDailyTransitsTable } from '../../src/db/schema.js';
import { analyticsLaneKey, type Lane } from '../../src/domain/delivery/lane.js';
import { buildApp } from '../../src/http/app.js';
import { envInteger, latencyMeasurement, round } from '../fixtures.js';
import type { Measurement, Scenario, ScenarioResult } from '../harness.js';
import { freshPostgresDatabase } from '../postgres.js';

const GOAL_P99_MS = 50;
const GROUPS = ['carrier', 'lane', 'destination_country', 'week'] as const;
const YEAR = { from: '2025-01-01', to: '2025-12-31' };
const ROUTE = '/v5/analytics/delivery-performance/';

/** A small deterministic generator (mulberry32): the same seed writes the same year. */
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

interface BenchLane {
  reference: string;
  lane: Lane;
  /** Share of the account's shipments. */
  weight: number;
  /** Typical transit in working days. */
  transit: number;
}

const COUNTRIES = ['DE', 'FR', 'NL', 'AT', 'PL', 'IT', 'ES', 'BE', 'DK', 'CZ'];
const SERVICES = ['standard', 'express', ''];

/** `count` lanes over 8 carrier configurations, 3 services and 10 destination countries; a few big, many small. */
function lanesOf(count: number, next: () => number): BenchLane[] {
  const lanes = Array.from({ length: count }, (_, i): BenchLane => {
    const destinationCountry = COUNTRIES[i % COUNTRIES.length];
    return {
      reference: `carrier-${i % 8}`,
      lane: {
        carrierId: ['dhlpde', 'upsglb', 'dpdeur', 'glsglb'][i % 4],
        service: SERVICES[Math.floor(i / 8) % SERVICES.length],
        originCountry: 'DE',
        originPostal: '10115',
        destinationCountry,
        destinationPostal: String(10 + ((i * 7) % 90)),
      },
      weight: 1 / (1 + (i % 50)) ** 0.6,
      transit: destinationCountry === 'DE' ? 1 : 2 + Math.floor(next() * 3),
    };
  });
  const total = lanes.reduce((sum, lane) => sum + lane.weight, 0);
  for (const lane of lanes) lane.weight /= total;
  return lanes;
}

/**
 * A year of one account's daily aggregates: `shipments` dealt over `laneCount` lanes and the days of 2025
 * (weekdays four times a Sunday's volume, December twice a usual month), each shipment drawn on its own
 * (accepted, first attempt, its transit and timing against a window, exceptions, returns) so that the counts
 * and the histograms agree as the learner would write them.
 */
function yearOf(
  accountId: number,
  shipments: number,
  laneCount: number,
): { days: Insertable<DeliveryDailyTable>[]; transits: Insertable<DeliveryDailyTransitsTable>[] } {
  const next = random(39);
  const lanes = lanesOf(laneCount, next);
  const dates = Array.from({ length: 365 }, (_, i) => new Date(Date.UTC(2025, 0, 1 + i)));
  const dayWeights = dates.map(
    (date) => (date.getUTCDay() === 0 ? 0.25 : date.getUTCDay() === 6 ? 0.5 : 1) * (date.getUTCMonth() === 11 ? 2 : 1),
  );
  const dayTotal = dayWeights.reduce((sum, weight) => sum + weight, 0);
  // Whole shipments per cell: the floors of the expected numbers, then the rest to the largest remainders.
  const cells: Array<{ day: number; lane: number; n: number; rest: number }> = [];
  for (let d = 0; d < dates.length; d++) {
    for (let l = 0; l < lanes.length; l++) {
      const expected = (shipments * lanes[l].weight * dayWeights[d]) / dayTotal;
      cells.push({ day: d, lane: l, n: Math.floor(expected), rest: expected - Math.floor(expected) });
    }
  }
  let missing = shipments - cells.reduce((sum, cell) => sum + cell.n, 0);
  for (const cell of [...cells].sort((a, b) => b.rest - a.rest)) {
    if (missing-- <= 0) break;
    cell.n++;
  }

  const days: Insertable<DeliveryDailyTable>[] = [];
  const transits: Insertable<DeliveryDailyTransitsTable>[] = [];
  for (const cell of cells) {
    if (cell.n === 0) continue;
    const lane = lanes[cell.lane];
    const day = dates[cell.day].toISOString().slice(0, 10);
    const laneKey = analyticsLaneKey(lane.reference, lane.lane);
    const row = {
      shipments: cell.n,
      accepted: 0,
      first_attempts: 0,
      first_attempt_successes: 0,
      delivered: 0,
      on_time: 0,
      promised: 0,
      exceptions: 0,
      returned_to_sender: 0,
    };
    const histogram = new Map<string, { transit: number; timing: string; shipments: number }>();
    for (let s = 0; s < cell.n; s++) {
      if (next() < 0.03) row.exceptions++;
      if (next() >= 0.97) continue;
      row.accepted++;
      if (next() < 0.01) {
        row.returned_to_sender++;
        continue;
      }
      if (next() >= 0.96) continue;
      row.first_attempts++;
      const success = next() < 0.92;
      if (success) row.first_attempt_successes++;
      if (success || next() < 0.7) row.delivered++;
      // Mostly the lane's usual transit, sometimes a day more or less, now and then several more.
      const draw = next();
      const transit = Math.max(0, lane.transit + (draw < 0.15 ? -1 : draw < 0.75 ? 0 : draw < 0.95 ? 1 : 2 + Math.floor(next() * 4)));
      let timing = 'none';
      if (next() < 0.8) {
        row.promised++;
        timing = transit < lane.transit ? 'early' : transit <= lane.transit + 1 ? 'on_time' : 'late';
        if (timing !== 'late') row.on_time++;
      }
      const bin = histogram.get(`${transit}|${timing}`) ?? { transit, timing, shipments: 0 };
      bin.shipments++;
      histogram.set(`${transit}|${timing}`, bin);
    }
    days.push({
      account_id: accountId,
      day,
      lane_key: laneKey,
      carrier_reference: lane.reference,
      carrier_id: lane.lane.carrierId,
      shipping_service: lane.lane.service,
      origin_country: lane.lane.originCountry,
      destination_country: lane.lane.destinationCountry,
      destination_prefix: lane.lane.destinationPostal.slice(0, 2),
      ...row,
    });
    for (const bin of histogram.values()) transits.push({ account_id: accountId, day, lane_key: laneKey, ...bin });
  }
  return { days, transits };
}

async function tokenOf(app: FastifyInstance, adminToken: string, accountUuid: string): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: `/admin/v1/accounts/${accountUuid}/credentials/`,
    headers: { authorization: `Bearer ${adminToken}` },
  });
  if (created.statusCode !== 201) throw new Error(`credentials: HTTP ${created.statusCode} ${created.body}`);
  const { client_id, client_secret } = created.json();
  const issued = await app.inject({
    method: 'POST',
    url: '/auth/oauth/token/',
    headers: {
      authorization: `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'grant_type=client_credentials',
  });
  if (issued.statusCode !== 200) throw new Error(`token: HTTP ${issued.statusCode} ${issued.body}`);
  return issued.json().access_token;
}

/** `count` requests one after another through fastify.inject, each timed from send to the whole answer. */
async function timed(app: FastifyInstance, token: string, url: string, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    latencies.push(performance.now() - started);
    if (res.statusCode !== 200) throw new Error(`GET ${url}: HTTP ${res.statusCode} ${res.body}`);
  }
  return latencies;
}

async function run(database: 'sqlite' | 'postgres'): Promise<ScenarioResult> {
  const shipments = envInteger('ANALYTICS_SHIPMENTS', 1_000_000);
  const laneCount = envInteger('ANALYTICS_LANES', 300);
  const requests = envInteger('ANALYTICS_REQUESTS', 200);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-analytics-'));
  const postgres = database === 'postgres' ? await freshPostgresDatabase() : null;
  const adminToken = `wbadm_${randomBytes(16).toString('hex')}`;
  const config = loadConfig({
    WAYBILL_DATA_DIR: dataDir,
    WAYBILL_ADMIN_TOKEN: adminToken,
    DATABASE_URL: postgres?.url ?? '',
    LOG_LEVEL: 'silent',
    WAYBILL_RATE_LIMIT_PER_SECOND: '1000000',
  });
  const context = await createContext(config, { logger: pino({ level: 'silent' }) });
  const app = await buildApp(context, { logger: false });
  try {
    await app.ready();
    const account = await context.accounts.create({ name: 'bench' });
    const accountId = (await context.accounts.require(account.account_uuid)).id;
    const token = await tokenOf(app, adminToken, account.account_uuid);

    const seedStarted = performance.now();
    const year = yearOf(accountId, shipments, laneCount);
    await context.repos.transaction((repos) => repos.deliveryAnalytics.insertDaily(year.days, year.transits));
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    // PostgreSQL plans a join of tables it has no statistics of as if they were empty (a nested loop and a sort
    // on disk); autovacuum analyzes them soon after such a load, so the figure is taken once it has.
    if (database === 'postgres') await sql`analyze delivery_daily, delivery_daily_transits, delivery_rollups`.execute(context.database.db);
    const rollups = await context.database.db
      .selectFrom('delivery_rollups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rollupRows = Number(rollups.n);
    process.stdout.write(
      `  ${shipments.toLocaleString('en-US')} shipments on ${laneCount} lanes: ${year.days.length.toLocaleString('en-US')} daily rows, ` +
        `${year.transits.length.toLocaleString('en-US')} histogram rows, ${rollupRows.toLocaleString('en-US')} week and month rows, ` +
        `written in ${round(seedSeconds)} s on ${database}\n`,
    );

    const warmup = Math.max(5, Math.round(requests / 20));
    const byGroup: Array<{ group: string; measurement: Measurement; latencies: number[] }> = [];
    let started = performance.now();
    for (const group of GROUPS) {
      const url = `${ROUTE}?from=${YEAR.from}&to=${YEAR.to}&group_by=${group}`;
      await timed(app, token, url, warmup);
      const groupStarted = performance.now();
      const latencies = await timed(app, token, url, requests);
      const measurement = latencyMeasurement(group, latencies, latencies.length, (performance.now() - groupStarted) / 1000);
      byGroup.push({ group, measurement, latencies });
      process.stdout.write(`  group_by=${group}: p50 ${measurement.latencyP50Ms} ms, p99 ${measurement.latencyP99Ms} ms\n`);
    }
    const all = byGroup.flatMap((g) => g.latencies);
    const target = latencyMeasurement(
      `${ROUTE} over a year, every group_by, on ${database} (requests/s, one at a time)`,
      all,
      all.length,
      (performance.now() - started) / 1000,
    );

    // The same path (token, rate limit, envelope) to a route that reads one small table: what the request costs
    // before any analytics.
    const detect = '/v5/carriers/detect/?tracking_number=1Z4F6W820312345670';
    await timed(app, token, detect, warmup);
    started = performance.now();
    const floor = await timed(app, token, detect, requests);
    const baseline = latencyMeasurement(
      'GET /v5/carriers/detect/ through the same path',
      floor,
      floor.length,
      (performance.now() - started) / 1000,
    );

    const worst = Math.max(...byGroup.map((g) => g.measurement.latencyP99Ms));
    return {
      name: database === 'sqlite' ? deliveryAnalytics.name : `${deliveryAnalytics.name} (${database})`,
      description: deliveryAnalytics.description,
      target,
      baseline,
      ratio: target.requestsPerSecond / baseline.requestsPerSecond,
      goal: 0,
      goalText: `p99 ≤ ${GOAL_P99_MS} ms for every group_by`,
      goalMet: worst <= GOAL_P99_MS,
      notes: [
        `${database}: ${shipments.toLocaleString('en-US')} shipments, ${laneCount} lanes, ${year.days.length.toLocaleString('en-US')} daily rows and ` +
          `${year.transits.length.toLocaleString('en-US')} histogram rows, ${rollupRows.toLocaleString('en-US')} week and month rollup rows (written in ${round(seedSeconds)} s); ` +
          `${requests} requests per group_by for ${YEAR.from}..${YEAR.to}`,
        ...byGroup.map(
          (g) => `${database}, group_by=${g.group}: p50 ${g.measurement.latencyP50Ms} ms, p99 ${g.measurement.latencyP99Ms} ms`,
        ),
      ],
    };
  } finally {
    await app.close();
    await context.close();
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * GET /v5/analytics/delivery-performance/ for a whole year of one account: ANALYTICS_SHIPMENTS shipments (default
 * 1,000,000) dealt over ANALYTICS_LANES lanes (default 300) and the 365 days of 2025, written as daily aggregates
 * with their week and month rollups through the repository's bulk insert; then ANALYTICS_REQUESTS requests (default 200) for each group_by, one at a
 * time through fastify.inject in this process. Baseline in the same run: GET /v5/carriers/detect/ on the same path.
 */
export const deliveryAnalytics: Scenario = {
  name: 'delivery-analytics',
  description: 'GET /v5/analytics/delivery-performance/ over a year of 1,000,000 shipments on 300 lanes, each group_by: p99',
  databases: ['sqlite', 'postgres'],
  run: (settings) => run(settings.database ?? 'sqlite'),
};

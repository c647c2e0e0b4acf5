import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import { DeliveryPredictor } from '../../src/domain/delivery/delivery-predictor.js';
import { laneOf } from '../../src/domain/delivery/lane.js';
import { TransitCells } from '../../src/domain/delivery/transit-cells.js';
import { ManualEventsService } from '../../src/domain/shipments/manual-events.service.js';
import { TrackingFollowers } from '../../src/domain/shipments/tracking-followers.js';
import { WebhookOutbox } from '../../src/domain/webhooks/webhook-outbox.js';
import { buildApp } from '../../src/http/app.js';
import { envInteger } from '../fixtures.js';
import type { Measurement, Scenario, ScenarioResult } from '../harness.js';
import { freshPostgresDatabase } from '../postgres.js';

/** The issue's goals: CPU per prediction, and what recording a first attempt adds to the event's write. */
const GOALS = { predictMicros: 50, firstAttemptMicros: 100 };
/** Shipments written per side (with the learner, without it); BENCH_LEARNING_SHIPMENTS to change. */
const SHIPMENTS = envInteger('BENCH_LEARNING_SHIPMENTS', 1_000);
const PREDICTIONS = 20_000;
/** Monday 18 May 2026, 09:00 in Berlin: the shipments below were picked up a week earlier. */
const NOW = new Date('2026-05-18T07:00:00Z');
const PICKED_UP = '2026-05-11T17:00:00';
const DELIVERED = '2026-05-12T11:00:00';

const cpuMicros = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};

interface Setup {
  context: AppContext;
  accountId: number;
  accountUuid: string;
  close(): Promise<void>;
}

/** A context with an account, a sandbox configuration and `2 × SHIPMENTS` shipments picked up a week ago. */
async function setUp(database: 'sqlite' | 'postgres'): Promise<Setup> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-learning-'));
  const pg = database === 'postgres' ? await freshPostgresDatabase() : null;
  const config = loadConfig({
    WAYBILL_DATA_DIR: dataDir,
    WAYBILL_ADMIN_TOKEN: `wbadm_${randomBytes(16).toString('hex')}`,
    WAYBILL_PUBLIC_URL: 'https://waybill.test',
    DATABASE_URL: pg?.url ?? '',
    LOG_LEVEL: 'silent',
    WAYBILL_RATE_LIMIT_PER_SECOND: '1000000',
  });
  const context = await createContext(config, { clock: new ManualClock(NOW), logger: pino({ level: 'silent' }) });
  const app = await buildApp(context, { logger: false });
  await app.ready();
  const admin = { authorization: `Bearer ${config.adminToken}` };
  const created = await app.inject({
    method: 'POST',
    url: '/admin/v1/accounts/',
    headers: admin,
    payload: { name: 'bench', features: [] },
  });
  const accountUuid = created.json().account_uuid as string;
  await app.inject({
    method: 'POST',
    url: `/admin/v1/accounts/${accountUuid}/carrier-configs/`,
    headers: admin,
    payload: { carrier_id: 'sandbx', carrier_reference: 'sandbox' },
  });
  const creds = (await app.inject({ method: 'POST', url: `/admin/v1/accounts/${accountUuid}/credentials/`, headers: admin })).json();
  const issued = await app.inject({
    method: 'POST',
    url: '/auth/oauth/token/',
    headers: {
      authorization: `Basic ${Buffer.from(`${creds.client_id}:${creds.client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'grant_type=client_credentials',
  });
  const headers = { authorization: `Bearer ${issued.json().access_token}` };
  for (let i = 0; i < 2 * SHIPMENTS; i++) {
    const shipment = await app.inject({
      method: 'POST',
      url: '/v5/shipment/',
      headers,
      payload: {
        shipment_id: `s-${i}`,
        tracking_number: `WB8${String(i).padStart(6, '0')}`,
        carrier_reference: 'sandbox',
        sender_address: { country_code: 'DE', postal_code: '80331' },
        recipient_address: { country_code: 'DE', postal_code: `${10 + (i % 80)}115` },
      },
    });
    if (shipment.statusCode !== 200) throw new Error(`shipment: ${shipment.body}`);
    const picked = await app.inject({
      method: 'POST',
      url: '/v5/events/create/',
      headers,
      payload: {
        shipment_id: `s-${i}`,
        events: [{ event: 'picked_up', event_key: 'picked_up', time: PICKED_UP, timezone: 'Europe/Berlin' }],
      },
    });
    if (picked.statusCode !== 200) throw new Error(`event: ${picked.body}`);
  }
  const account = await context.database.db
    .selectFrom('accounts')
    .select('id')
    .where('account_uuid', '=', accountUuid)
    .executeTakeFirstOrThrow();
  return {
    context,
    accountId: account.id,
    accountUuid,
    async close() {
      await app.close();
      await context.close();
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Figures {
  predictMicros: number;
  withLearnerMicros: number;
  withoutLearnerMicros: number;
  /** CPU per shipment of counting the queue afterwards (the worker's learning task, in batches). */
  countMicros: number;
}

/**
 * (a) CPU per DeliveryPredictor.predict with a warm cell cache; (b) CPU per manual write of a `delivered` event
 * (the shipment's first attempt) through ManualEventsService, with the delivery learner among the tracking
 * followers and without it, alternating in blocks of 50 so that both see the same database as it grows; (c) CPU per
 * shipment of the learning task counting the queue the writes left, in batches of 500 as a worker does.
 */
async function measure(database: 'sqlite' | 'postgres'): Promise<Figures> {
  const setup = await setUp(database);
  try {
    const { context } = setup;
    const clock = new ManualClock(NOW);
    const outbox = new WebhookOutbox(clock);
    const carrierName = () => 'Sandbox';
    // The same followers but for the learner: returns and webhooks follow both (notifications are not configured).
    const wired = new ManualEventsService(
      context.repos,
      clock,
      carrierName,
      new TrackingFollowers(context.returns, outbox, null, context.deliveryLearner),
    );
    const bare = new ManualEventsService(context.repos, clock, carrierName, new TrackingFollowers(context.returns, outbox, null, null));
    const caller = {
      accountId: setup.accountId,
      accountUuid: setup.accountUuid,
      clientId: 'bench',
      features: new Set<string>(),
      strictFields: false,
    };
    const delivered = [{ event: 'delivered', event_key: 'delivered', time: DELIVERED, timezone: 'Europe/Berlin' }];

    let withLearner = 0;
    let withoutLearner = 0;
    let counting = 0;
    const block = 50;
    for (let start = 0; start < SHIPMENTS; start += block) {
      for (const [service, offset, add] of [
        [wired, 0, (us: number) => (withLearner += us)],
        [bare, SHIPMENTS, (us: number) => (withoutLearner += us)],
      ] as const) {
        const since = process.cpuUsage();
        for (let i = start; i < Math.min(start + block, SHIPMENTS); i++)
          await service.create(caller, { shipment_id: `s-${offset + i}` }, delivered);
        add(cpuMicros(since));
      }
    }
    // Counted once all are written (a few seconds of a busy instance's first attempts), so that the writes above
    // pay nothing of it, the log checkpoints of its writes included.
    const counted = process.cpuUsage();
    await context.deliveryLearning.drain();
    counting += cpuMicros(counted);

    // Predictions from the histograms the writes above filled, the cells cached after the first call.
    const predictor = new DeliveryPredictor(new TransitCells(() => NOW.getTime()));
    const lanes = Array.from({ length: 80 }, (_, i) =>
      laneOf('sandbx', {
        sender_address: { country_code: 'DE', postal_code: '80331' },
        recipient_address: { country_code: 'DE', postal_code: `${10 + i}115` },
      }),
    );
    const request = (i: number) => ({ lane: lanes[i % lanes.length], scope: '', acceptedDate: '2026-05-18', today: '2026-05-18' });
    for (let i = 0; i < lanes.length; i++) await predictor.predict(request(i), context.repos.transitHistograms);
    const since = process.cpuUsage();
    for (let i = 0; i < PREDICTIONS; i++) await predictor.predict(request(i), context.repos.transitHistograms);
    return {
      predictMicros: cpuMicros(since) / PREDICTIONS,
      withLearnerMicros: withLearner / SHIPMENTS,
      withoutLearnerMicros: withoutLearner / SHIPMENTS,
      countMicros: counting / SHIPMENTS,
    };
  } finally {
    await setup.close();
  }
}

function measurement(label: string, micros: number, count: number): Measurement {
  return {
    label,
    url: 'in-process',
    requestsPerSecond: 1e6 / micros,
    latencyP50Ms: 0,
    latencyP99Ms: 0,
    totalRequests: count,
    cpuMicrosPerRequest: micros,
  };
}

/**
 * What delivery intelligence costs the write path: CPU per prediction, and the CPU a first attempt's write
 * spends in the learner (the same write without it as the baseline, in the same run), with what counting it
 * later costs the worker as a note. SQLite, and PostgreSQL
 * when DATABASE_URL is set; the target and baseline are SQLite's, PostgreSQL's figures are notes.
 */
export const deliveryLearning: Scenario = {
  name: 'delivery-learning',
  description: `CPU of predictions and of the learner on ${SHIPMENTS.toLocaleString('en-US')} first-attempt writes (with vs. without it)`,
  async run(): Promise<ScenarioResult> {
    const databases: Array<'sqlite' | 'postgres'> = process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
    const figures = new Map<string, Figures>();
    for (const database of databases) figures.set(database, await measure(database));
    const sqlite = figures.get('sqlite') as Figures;
    const notes = [...figures].map(
      ([database, f]) =>
        `${database}: predict ${f.predictMicros.toFixed(1)} µs CPU (warm cache, ${PREDICTIONS.toLocaleString('en-US')} calls); ` +
        `first-attempt write ${f.withLearnerMicros.toFixed(0)} µs with the learner, ${f.withoutLearnerMicros.toFixed(0)} µs without: ` +
        `+${(f.withLearnerMicros - f.withoutLearnerMicros).toFixed(0)} µs (×${(f.withLearnerMicros / f.withoutLearnerMicros).toFixed(2)}); ` +
        `counted afterwards in batches: ${f.countMicros.toFixed(0)} µs per shipment`,
    );
    const met = [...figures.values()].every(
      (f) => f.predictMicros <= GOALS.predictMicros && f.withLearnerMicros - f.withoutLearnerMicros <= GOALS.firstAttemptMicros,
    );
    return {
      name: deliveryLearning.name,
      description: deliveryLearning.description,
      target: measurement('write with the learner (sqlite)', sqlite.withLearnerMicros, SHIPMENTS),
      baseline: measurement('write without it (sqlite)', sqlite.withoutLearnerMicros, SHIPMENTS),
      ratio: sqlite.withLearnerMicros / sqlite.withoutLearnerMicros,
      goal: 0,
      goalText: `≤ ${GOALS.predictMicros} µs CPU per prediction, ≤ ${GOALS.firstAttemptMicros} µs added to a first attempt's write`,
      goalMet: met,
      notes,
    };
  },
};

import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import pino from 'pino';
import type { CarrierAdapter } from '../../src/carriers/carrier.js';
import { HttpCarrier } from '../../src/carriers/sdk/http-carrier.js';
import { nextReset } from '../../src/carriers/sdk/limits.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import type { ShipmentsTable } from '../../src/db/schema.js';
import { TrackingPoller } from '../../src/jobs/tracking-poller.js';
import { localCarrier, localCarrierIds, SEVEN_CARRIERS } from '../carriers/index.js';
import { envInteger, percentile, round } from '../fixtures.js';
import { type ChildServer, childEnv, freePort, type Measurement, type Scenario, type ScenarioResult, startChild } from '../harness.js';
import {
  answerBody,
  type CredentialStats,
  isUrgent,
  type LocalCarrier,
  type LocalCarrierStats,
  type LocalCarriersConfig,
  type Story,
  serialOf,
  storyOf,
} from '../local-carriers.js';
import {
  type Answer,
  answerFor,
  type HistoryMode,
  historyModeFrom,
  insertShipments,
  NEW_EVENT_EVERY,
  type PreviousPoll,
  previousPoll,
  settleSeed,
} from '../poll-history.js';
import { freshPostgresDatabase } from '../postgres.js';
import { StatementTimes } from '../sql-timing.js';

const GOAL_CPU_MICROS_PER_NUMBER = 300;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Calls left today on each credential of a carrier whose daily quota binds (the rest were spent before the run). */
const CALLS_LEFT: Readonly<Record<string, number>> = { dhlglb: 5, glsglb: 1 };
/** How long the worker's CPU is measured with nothing to poll, for the idle floor. */
const IDLE_SECONDS = 5;
/** How long the rounds after the warm-up may take to settle (the quota-bound credentials' due polls put off). */
const SETTLE_MAX_SECONDS = 60;
const SANDBOX_PREFIX: Record<Story, string> = { in_transit: 'WB2', out_for_delivery: 'WB3', failed_attempt: 'WB6' };
/** Serials of the numbers whose answers the previous polls are made of (beyond every seeded shipment's), one per story. */
const PROBE_SERIALS: Record<Story, number> = { out_for_delivery: 9_000_000, failed_attempt: 9_000_002, in_transit: 9_000_003 };

/** The real clock moved ahead by hand: spends quota calls without waiting for their rate (src/carriers/sdk/limits.ts). */
class ShiftedClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

/** A merchant's settings for a carrier, its credential as the local carrier knows it (client id, API key, user). */
function settingsFor(
  carrier: LocalCarrier,
  account: number | 'probe',
  runId: string,
): { settings: Record<string, unknown>; credential: string } {
  const id = `${carrier.id}-bench-${runId}-${account}`;
  const secret = `${id}-secret-${randomBytes(6).toString('hex')}`;
  return { settings: carrier.settings(id, secret), credential: id };
}

interface Round {
  startedAt: number;
  endedAt: number;
  ms: number;
  claimed: number;
  /** In the measured period (after the warm-up). */
  measured: boolean;
}

interface Polling {
  rounds: Round[];
  /** Worker CPU (µs, every thread) and wall time of the unmeasured start: the warm-up and the rounds until `settled`. */
  startup: { cpuMicros: number; wallSeconds: number };
  /** Worker CPU (user + system, µs, every thread) and wall time of the measured period. */
  cpuMicros: number;
  wallSeconds: number;
  /** CPU of the main thread alone in the measured period (µs; Linux, else null): the rest is the WAL checkpoint thread, libuv's pool (syncs), GC helpers. */
  mainThreadCpuMicros: number | null;
  /** Bytes handed to write calls in the measured period (Linux, else null). */
  writtenBytes: number | null;
  /** Event-loop delay in the measured period (ms): how long the loop was held at a time. */
  loopDelayMs: { p99: number; max: number };
}

/**
 * Runs the poller round after round as the worker does (again at once while it finds work, else after 250 ms):
 * `warmupSeconds` unmeasured, then on unmeasured until `settled` says the start is over (at most
 * `SETTLE_MAX_SECONDS` more), then `seconds` measured; a round under way when the time is up is waited for.
 * `measuring` runs between the two; with `profileFile`, the measured period is CPU-profiled into it.
 */
async function pollFor(
  poller: TrackingPoller,
  warmupSeconds: number,
  seconds: number,
  measuring: () => Promise<void> = async () => undefined,
  profileFile?: string,
  statements?: StatementTimes,
  settled: () => Promise<boolean> = async () => true,
): Promise<Polling> {
  const rounds: Round[] = [];
  await collectSeedGarbage();
  const oneRound = async (measured: boolean) => {
    const startedAt = Date.now();
    const begin = performance.now();
    const claimed = await poller.runOnce();
    rounds.push({ startedAt, endedAt: Date.now(), ms: performance.now() - begin, claimed, measured });
    if (claimed === 0) await new Promise((resolve) => setTimeout(resolve, 250));
  };
  const loop = async (until: number, measured: boolean) => {
    while (performance.now() < until) await oneRound(measured);
  };
  const startupCpu = process.cpuUsage();
  const startupBegan = performance.now();
  await loop(startupBegan + warmupSeconds * 1000, false);
  const settleBy = performance.now() + SETTLE_MAX_SECONDS * 1000;
  while (!(await settled())) {
    if (performance.now() >= settleBy) throw new Error(`carrier-polling: the start did not settle within ${SETTLE_MAX_SECONDS} s`);
    await oneRound(false);
  }
  const startupUsed = process.cpuUsage(startupCpu);
  const startup = { cpuMicros: startupUsed.user + startupUsed.system, wallSeconds: (performance.now() - startupBegan) / 1000 };
  await measuring();
  const session = profileFile ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  statements?.start();
  // How long the event loop is held at a time: a request paced for its turn leaves that much late at worst.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const cpu = process.cpuUsage();
  const mainBefore = mainThreadCpuMicros();
  const written = writtenBytes();
  const started = performance.now();
  await loop(started + seconds * 1000, true);
  const used = process.cpuUsage(cpu);
  const mainAfter = mainThreadCpuMicros();
  const writtenAfter = writtenBytes();
  loopDelay.disable();
  statements?.stop();
  const wallSeconds = (performance.now() - started) / 1000;
  if (session && profileFile) {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(profileFile, JSON.stringify(profile));
    session.disconnect();
  }
  return {
    rounds,
    startup,
    cpuMicros: used.user + used.system,
    wallSeconds,
    mainThreadCpuMicros: mainBefore !== null && mainAfter !== null ? mainAfter - mainBefore : null,
    writtenBytes: written !== null && writtenAfter !== null ? writtenAfter - written : null,
    loopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
  };
}

/**
 * Seeding 100,000 shipments leaves hundreds of MiB of garbage in this process's heap (764 MiB in use against 66
 * MiB live, measured), which a worker process never carries: without this, the collector marks and sweeps it on
 * its helper threads during the measured period, and that is counted as the poller's CPU. Collected in full here,
 * with a second for the concurrent sweeping to finish, before the first round.
 */
async function collectSeedGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('carrier-polling: run with node --expose-gc (npm run bench does)');
  gc();
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

/** Bytes this process has handed to write calls so far (`wchar` of /proc/self/io: the SQLite log, the checkpoints); null off Linux. */
function writtenBytes(): number | null {
  try {
    const match = /^wchar: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system, µs) of this process's main thread so far, from /proc (Linux, 10 ms ticks); null elsewhere. */
function mainThreadCpuMicros(): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

/**
 * On PostgreSQL, what the server has written so far: the position in its write-ahead log (bytes) and the shipment
 * row versions its statistics count (`n_tup_upd`: each update writes a new version of the row, for vacuum to
 * clear). The statistics lag: a connection reports its counts a second after the last at the soonest while it
 * works, and within ten seconds of going idle.
 */
async function postgresWrites(context: AppContext): Promise<{ walBytes: number; shipmentUpdates: number }> {
  const { rows } = await sql<{ wal: string; updates: string | null }>`
    select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as wal,
      (select n_tup_upd from pg_stat_user_tables where relname = 'shipments')::text as updates`.execute(context.database.db);
  return { walBytes: Number(rows[0].wal), shipmentUpdates: Number(rows[0].updates ?? 0) };
}

/** Worker CPU (µs) per second while nothing is polled: timers and the WAL checkpoint thread, the floor under every figure. */
async function idleCpuMicrosPerSecond(seconds: number): Promise<number> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / ((performance.now() - started) / 1000);
}

/**
 * Counts the adapters' answers by status (ok, unchanged, not_found, error) as the poller gets them, in all and by
 * carrier: how many polls found their carrier data as stored; with the first error message of each carrier. The
 * counts are cleared when the measured period begins.
 */
class Outcomes {
  private readonly byCarrier = new Map<string, Map<string, number>>();
  private readonly firstError = new Map<string, string>();

  constructor(adapters: CarrierAdapter[]) {
    for (const adapter of adapters) {
      const track = adapter.track.bind(adapter);
      adapter.track = async (requests, settings, options) => {
        const results = await track(requests, settings, options);
        const tally = this.byCarrier.get(adapter.record.id) ?? new Map<string, number>();
        this.byCarrier.set(adapter.record.id, tally);
        for (const result of results) {
          tally.set(result.status, (tally.get(result.status) ?? 0) + 1);
          if (result.status === 'error' && !this.firstError.has(adapter.record.id)) this.firstError.set(adapter.record.id, result.message);
        }
        return results;
      };
    }
  }

  clear(): void {
    this.byCarrier.clear();
    this.firstError.clear();
  }

  toString(): string {
    const text = (tally: Map<string, number>) =>
      [...tally]
        .sort((a, b) => b[1] - a[1])
        .map(([status, n]) => `${status} ${count(n)}`)
        .join(', ');
    const all = new Map<string, number>();
    for (const tally of this.byCarrier.values()) for (const [status, n] of tally) all.set(status, (all.get(status) ?? 0) + n);
    const carriers = [...this.byCarrier].map(([carrier, tally]) => `${carrier} ${text(tally)}`);
    const errors = [...this.firstError].map(([carrier, message]) => `${carrier}: "${message.slice(0, 160)}"`);
    return (
      (text(all) || 'none') +
      (carriers.length > 1 ? `; by carrier: ${carriers.join('; ')}` : '') +
      (errors.length > 0 ? `; the first error of each: ${errors.join('; ')}` : '')
    );
  }
}

function adapterOf(context: AppContext, id: string): CarrierAdapter {
  const adapter = context.carriers.get(id);
  if (!adapter) throw new Error(`no carrier adapter ${id}`);
  return adapter;
}

function silentPoller(context: AppContext): TrackingPoller {
  return new TrackingPoller(
    context.repos,
    context.carriers,
    context.carrierConfigs,
    context.tracking,
    context.clock,
    pino({ level: 'silent' }),
    { leaseMs: context.config.pollLeaseMs },
  );
}

async function accountId(context: AppContext, name: string): Promise<number> {
  const account = await context.accounts.create({ name });
  const row = await context.database.db
    .selectFrom('accounts')
    .select('id')
    .where('account_uuid', '=', account.account_uuid)
    .executeTakeFirstOrThrow();
  return row.id;
}

function shipmentRow(
  accountRowId: number,
  carrierReference: string,
  carrierId: string,
  number: string,
  story: Story,
  index: number,
  now: number,
): Insertable<ShipmentsTable> {
  const started = new Date(now - 2 * DAY_MS).toISOString();
  return {
    account_id: accountRowId,
    shipment_uuid: randomUUID(),
    shipment_id: `CP-${index}`,
    tracking_number: number,
    carrier_reference: carrierReference,
    carrier_id: carrierId,
    order_row_id: null,
    status: 'active',
    phase_key: story,
    source: 'api',
    shipment_type: null,
    tracking_page_reference: randomBytes(16).toString('base64url'),
    body: JSON.stringify({ shipment_reference: `CP-${index}`, tags: ['bench'], weight: { amount: 1850 }, item_count: 1 }),
    created_at: started,
    updated_at: started,
    tracking_started_at: started,
    next_poll_at: new Date(now - 1 - Math.floor(Math.random() * HOUR_MS)).toISOString(),
    // Changed two days ago: only out-for-delivery and failed-attempt shipments rank ahead.
    last_tracking_update_at: started,
    poll_deferred_since: null,
    pod_file: null,
    collection_point: null,
  };
}

/** A context on a fresh SQLite data dir or PostgreSQL database, quiet, with the local carriers' base URLs. */
async function openContext(
  workDir: string,
  name: string,
  database: 'sqlite' | 'postgres',
  carrierEnv: Record<string, string>,
  clock?: Clock,
): Promise<{ context: AppContext; close(): Promise<void> }> {
  const postgres = database === 'postgres' ? await freshPostgresDatabase() : null;
  const config = loadConfig({
    WAYBILL_DATA_DIR: path.join(workDir, name),
    LOG_LEVEL: 'silent',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...carrierEnv,
  });
  const context = await createContext(config, { logger: pino({ level: 'silent' }), ...(clock ? { clock } : {}) });
  return {
    context,
    async close() {
      await context.close();
      await postgres?.drop();
    },
  };
}

interface PriorityOutcome {
  carrier: string;
  callsLeft: number;
  polled: { urgent: number; other: number };
  deferred: { urgent: number; other: number };
  /** Rounds of a credential in which an urgent shipment was deferred while another was polled. */
  inversions: number;
  /** Rounds of a credential in which polls were deferred. */
  deferringRounds: number;
}

/**
 * How a credential's last calls of the day were spent: the local carrier's record of the numbers it answered
 * and the shipments the poller deferred, both put in the poller round they happened in.
 */
async function priorityOutcome(
  context: AppContext,
  carrier: LocalCarrier,
  stats: LocalCarrierStats,
  rounds: Round[],
  credentialOfAccount: Map<number, string>,
): Promise<PriorityOutcome> {
  const roundOf = (at: number) => rounds.findIndex((r) => at >= r.startedAt && at <= r.endedAt);
  const storyOfNumber = (number: string): Story => {
    const serial = serialOf(carrier, number);
    return serial === null ? 'in_transit' : storyOf(serial);
  };
  const perRound = new Map<string, { polledOther: number; deferredUrgent: number; deferred: number }>();
  const bucket = (credential: string, round: number) => {
    const key = `${credential}/${round}`;
    let entry = perRound.get(key);
    if (!entry) {
      entry = { polledOther: 0, deferredUrgent: 0, deferred: 0 };
      perRound.set(key, entry);
    }
    return entry;
  };
  const outcome: PriorityOutcome = {
    carrier: carrier.id,
    callsLeft: CALLS_LEFT[carrier.id] ?? 0,
    polled: { urgent: 0, other: 0 },
    deferred: { urgent: 0, other: 0 },
    inversions: 0,
    deferringRounds: 0,
  };
  const accountCredentials = new Set(credentialOfAccount.values());
  for (const [number, at, credential] of stats.answeredNumbers) {
    // The previous polls' answers were asked for with a credential of their own, before the run.
    if (!accountCredentials.has(credential)) continue;
    const urgent = isUrgent(storyOfNumber(number));
    if (urgent) outcome.polled.urgent++;
    else {
      outcome.polled.other++;
      bucket(credential, roundOf(at)).polledOther++;
    }
  }
  const deferred = await context.database.db
    .selectFrom('shipments')
    .select(['account_id', 'tracking_number', 'poll_deferred_since'])
    .where('carrier_id', '=', carrier.id)
    .where('poll_deferred_since', 'is not', null)
    .execute();
  for (const row of deferred) {
    const urgent = isUrgent(storyOfNumber(row.tracking_number ?? ''));
    if (urgent) outcome.deferred.urgent++;
    else outcome.deferred.other++;
    const entry = bucket(credentialOfAccount.get(row.account_id) ?? '?', roundOf(Date.parse(row.poll_deferred_since as string)));
    entry.deferred++;
    if (urgent) entry.deferredUrgent++;
  }
  for (const entry of perRound.values()) {
    if (entry.deferred > 0) outcome.deferringRounds++;
    if (entry.deferredUrgent > 0 && entry.polledOther > 0) outcome.inversions++;
  }
  return outcome;
}

function carriersFrom(raw: string | undefined): LocalCarrier[] {
  if (!raw) return [...SEVEN_CARRIERS];
  return raw.split(',').map((id) => {
    const carrier = localCarrier(id.trim());
    if (!carrier) throw new Error(`CARRIER_POLLING_CARRIERS: unknown carrier "${id}" (${localCarrierIds().join(', ')})`);
    return carrier;
  });
}

/** The scenario's sizes and options, from the environment (described with `carrierPolling` below). */
export interface PollingSettings {
  database: 'sqlite' | 'postgres';
  warmupSeconds: number;
  shipments: number;
  accounts: number;
  seconds: number;
  latencyMs: number;
  history: HistoryMode;
  profileDir: string | undefined;
  /** SQLite statements timed by statement (CARRIER_POLLING_SQL_TIMES=1): where the database time goes. */
  sqlTimes: boolean;
}

export function pollingSettings(database: 'sqlite' | 'postgres', warmupSeconds: number): PollingSettings {
  const seconds = envInteger('CARRIER_POLLING_SECONDS', 60);
  // The quotas of the run must not reset while it runs (the local carriers and the worker count per UTC day).
  const untilReset = nextReset(Date.now(), '00:00') - Date.now();
  if (untilReset < (warmupSeconds + seconds) * 1000 + 30 * 60_000) {
    throw new Error(`carrier-polling: ${Math.round(untilReset / 60_000)} min to 00:00 UTC, when daily quotas reset; run it later`);
  }
  return {
    database,
    warmupSeconds,
    shipments: envInteger('CARRIER_POLLING_SHIPMENTS', 100_000),
    accounts: envInteger('CARRIER_POLLING_ACCOUNTS', 2),
    seconds,
    latencyMs: envInteger('CARRIER_POLLING_LATENCY_MS', 50),
    history: historyModeFrom(process.env.CARRIER_POLLING_HISTORY),
    profileDir: process.env.CARRIER_POLLING_CPU_PROF_DIR || undefined,
    sqlTimes: process.env.CARRIER_POLLING_SQL_TIMES === '1' && database === 'sqlite',
  };
}

/** What polling a set of carriers measured: the figure, the limits exceeded, and the lines that report it. */
export interface CarrierPolling {
  carriers: number;
  polled: number;
  /** Worker CPU (µs) of the measured period. */
  cpuMicros: number;
  cpuPerNumber: number;
  /** ms per round that claimed shipments, sorted. */
  sortedRounds: number[];
  violations: number;
  violationLines: string[];
  notes: string[];
}

/**
 * Polls `shipments` tracked shipments dealt over `carriers` against their local carriers, from the seed to the
 * idle floor after the measured period, each set of carriers in a data dir (or database) and a child process of
 * its own; `name` names the set in the profile file.
 */
export async function pollCarriers(settings: PollingSettings, carriers: readonly LocalCarrier[], name: string): Promise<CarrierPolling> {
  const { database, warmupSeconds, shipments, accounts, seconds, latencyMs, history, profileDir } = settings;
  const statementTimes = settings.sqlTimes ? new StatementTimes() : undefined;
  const runId = randomBytes(3).toString('hex');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-carrier-polling-'));
  const closers: Array<() => Promise<void>> = [];
  let servers: ChildServer | null = null;
  try {
    // The local carriers, in a child process of their own.
    const credentials = new Map<string, Array<{ account: number; settings: Record<string, unknown>; credential: string }>>();
    for (const carrier of carriers) {
      credentials.set(
        carrier.id,
        Array.from({ length: accounts }, (_, account) => ({ account, ...settingsFor(carrier, account, runId) })),
      );
    }
    const probes = new Map(carriers.map((carrier) => [carrier.id, settingsFor(carrier, 'probe', runId)]));
    const config: LocalCarriersConfig = { controlPort: await freePort(), latencyMs, carriers: [] };
    for (const carrier of carriers) {
      const quota = carrier.limits.dailyQuota;
      const left = CALLS_LEFT[carrier.id];
      config.carriers.push({
        id: carrier.id,
        port: await freePort(),
        credentials: [
          ...(credentials.get(carrier.id) ?? []).map((c) => ({
            id: c.credential,
            spentToday: quota !== null && left !== undefined ? quota - left : 0,
          })),
          // The previous polls' answers are asked for with a credential of their own.
          ...(history !== 'none' ? [{ id: probes.get(carrier.id)?.credential ?? '', spentToday: 0 }] : []),
        ],
        recordNumbers: left !== undefined,
        serials: { below: Math.ceil(shipments / carriers.length), also: Object.values(PROBE_SERIALS) },
      });
    }
    servers = await startChild({
      label: 'local carriers',
      args: ['--import', 'tsx', path.join('bench', 'carrier-servers.ts')],
      env: childEnv({ NODE_ENV: 'production', CARRIER_SERVERS: JSON.stringify(config) }),
      port: config.controlPort,
      readyPath: '/__stats',
    });
    const carrierEnv = Object.fromEntries(
      config.carriers.map((c) => [`WAYBILL_CARRIER_${c.id.toUpperCase()}_BASE_URL`, `http://127.0.0.1:${c.port}`]),
    );

    // The service: accounts with a configuration of every carrier, and the shipments.
    const clock = new ShiftedClock();
    const target = await openContext(workDir, 'carriers', database, carrierEnv, clock);
    closers.push(() => target.close());
    const context = target.context;
    const accountRows: number[] = [];
    for (let account = 0; account < accounts; account++) {
      const id = await accountId(context, `carrier-polling-${account}`);
      accountRows.push(id);
      for (const carrier of carriers) {
        const entry = credentials.get(carrier.id)?.[account];
        await context.carrierConfigs.add(id, {
          carrier_reference: `bench-${carrier.id}`,
          carrier_id: carrier.id,
          settings: entry?.settings,
        });
      }
    }
    const now = Date.now();
    const seedStarted = performance.now();
    // Each carrier's answer for each story, asked of it once, for the previous polls (CARRIER_POLLING_HISTORY=stored).
    const answers = new Map<string, Answer>();
    const answerTexts = new Map(carriers.map((carrier) => [carrier.id, carrier.answers()]));
    const bodyOf = (carrier: LocalCarrier, number: string, story: Story) => answerBody(carrier, number, story, answerTexts.get(carrier.id));
    if (history !== 'none') {
      const stories = Object.keys(PROBE_SERIALS) as Story[];
      for (const carrier of carriers) {
        const requests = stories.map((story) => ({
          tracking_number: carrier.number(PROBE_SERIALS[story]),
          first_polled_at: new Date(now - 2 * DAY_MS).toISOString(),
          attempt: 0,
        }));
        const answered = await answerFor(adapterOf(context, carrier.id), requests, probes.get(carrier.id)?.settings ?? {});
        for (const [i, story] of stories.entries()) {
          answers.set(`${carrier.id}/${story}`, answered[i]);
          // The fingerprints seeded below are made as the adapter makes its own: checked on the probe's answers.
          const number = requests[i].tracking_number;
          const mirrored = carrier.fingerprint(number, bodyOf(carrier, number, story));
          if (mirrored !== answered[i].fingerprint) {
            throw new Error(
              `${carrier.id}: the seeded fingerprint of ${number} (${mirrored}) is not the adapter's (${answered[i].fingerprint})`,
            );
          }
        }
      }
    }
    const rows: Array<Insertable<ShipmentsTable>> = [];
    const previousPolls = new Map<string, () => PreviousPoll>();
    const stories = { in_transit: 0, out_for_delivery: 0, failed_attempt: 0 };
    for (let i = 0; i < shipments; i++) {
      const carrier = carriers[i % carriers.length];
      const serial = Math.floor(i / carriers.length);
      const story = storyOf(serial);
      stories[story]++;
      // Whole blocks of twenty serials per account, so that every account has the same share of each story.
      const account = Math.floor(serial / 20) % accounts;
      const number = carrier.number(serial);
      rows.push(shipmentRow(accountRows[account], `bench-${carrier.id}`, carrier.id, number, story, i, now));
      if (history !== 'none') {
        const adapter = adapterOf(context, carrier.id);
        const answer = answers.get(`${carrier.id}/${story}`) ?? { events: [], expectedDelivery: null, fingerprint: null };
        const fingerprint = () => carrier.fingerprint(number, bodyOf(carrier, number, story));
        // One in four of each carrier's shipments whatever the number of carriers (the index modulo 4, used before,
        // gives an even number of carriers half of some carriers' shipments and none of the others'); with seven
        // carriers, as with fifteen, they are the same shipments as the index's.
        const oneNew = ((i % carriers.length) + 3 * serial) % NEW_EVENT_EVERY === 0;
        previousPolls.set(number, () => previousPoll(adapter, number, answer, oneNew, history, fingerprint));
      }
    }
    const seededEvents = await insertShipments(
      context,
      rows,
      history !== 'none'
        ? async (chunk) => chunk.map((row) => (previousPolls.get(row.tracking_number ?? '') as () => PreviousPoll)())
        : undefined,
    );
    rows.length = 0;
    previousPolls.clear();
    await settleSeed(context);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    // Late in the day: the quota-bound credentials spent all but CALLS_LEFT of their calls before the run (the local
    // carriers were told the same). The clock runs ahead while they are spent, so that their rate does not hold it up.
    for (const [carrier, left] of Object.entries(CALLS_LEFT)) {
      const adapter = context.carriers.get(carrier);
      if (!carriers.some((c) => c.id === carrier) || !(adapter instanceof HttpCarrier) || adapter.limits.daily_quota === null) continue;
      for (const { settings } of credentials.get(carrier) ?? []) {
        const gate = context.carrierKit.gates.gate(adapter.credentialKey(adapter.effectiveSettings(settings)), adapter.limits);
        for (let spent = 0; spent < adapter.limits.daily_quota - left; spent++) {
          // A request's worth of time (the gate keeps 5% and 5 ms between two), then one request counted.
          clock.offsetMs += Math.ceil((1000 / adapter.limits.requests_per_second) * 1.05 + 6);
          const outcome = await gate.pace();
          if (outcome !== 'ok') throw new Error(`${carrier}: could not spend the day's calls before the run (${JSON.stringify(outcome)})`);
        }
        clock.offsetMs = 0;
        if (adapter.callsLeftToday(settings) !== left)
          throw new Error(`${carrier}: ${adapter.callsLeftToday(settings)} calls left, not ${left}`);
      }
    }

    const poller = silentPoller(context);
    const outcomes = new Outcomes(carriers.map((carrier) => adapterOf(context, carrier.id)));
    process.stdout.write(
      `  ${count(shipments)} shipments over ${carriers.length} carriers × ${accounts} accounts seeded in ${round(seedSeconds)} s;` +
        ` polling ${warmupSeconds} s unmeasured and on until the quota-bound credentials' due polls are put off, then ${seconds} s\n`,
    );
    const fetchStats = async () => ((await (await fetch(`${servers?.url}/__stats`)).json()) as { carriers: LocalCarrierStats[] }).carriers;
    const numbersIn = (list: LocalCarrierStats[]) =>
      list.reduce((total, s) => total + Object.values(s.credentials).reduce((n, c) => n + c.numbers, 0), 0);
    const initial = await fetchStats();
    let before: LocalCarrierStats[] = [];
    /** On PostgreSQL, the server's writes when the measured period began. */
    const server: { before?: { walBytes: number; shipmentUpdates: number } } = {};
    // The start is over once the credentials without calls left have put off their due polls to the reset: a burst
    // of one statement per configuration and day, measured apart (the start-up figure) from the steady state.
    const quotaBound = carriers.filter((carrier) => CALLS_LEFT[carrier.id] !== undefined).map((carrier) => carrier.id);
    const settled = async () =>
      quotaBound.length === 0 ||
      Number(
        (
          await context.database.db
            .selectFrom('shipments')
            .select(sql<number>`count(*)`.as('n'))
            .where('carrier_id', 'in', quotaBound)
            .where('next_poll_at', '<=', new Date().toISOString())
            .executeTakeFirstOrThrow()
        ).n,
      ) === 0;
    const polling = await pollFor(
      poller,
      warmupSeconds,
      seconds,
      async () => {
        before = await fetchStats();
        outcomes.clear();
        if (database === 'postgres') server.before = await postgresWrites(context);
      },
      profileDir ? path.join(profileDir, `${name}-${database}.cpuprofile`) : undefined,
      statementTimes,
      settled,
    );
    const startupPolled = numbersIn(before) - numbersIn(initial);
    const stats = await fetchStats();
    // After the last round's writes are checkpointed: what the process spends with nothing to poll.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleFloor = await idleCpuMicrosPerSecond(IDLE_SECONDS);
    const walBytesAtEnd = database === 'postgres' ? (await postgresWrites(context)).walBytes : null;
    // The server's statistics of the last rounds are reported within ten seconds of the connections going idle.
    if (database === 'postgres') await new Promise((resolve) => setTimeout(resolve, 11_000 - 2_000 - IDLE_SECONDS * 1000));
    const serverAfter = database === 'postgres' ? await postgresWrites(context) : null;

    // What the local carriers counted: numbers and calls in the measured period, limits over the whole run.
    let polled = 0;
    let calls = 0;
    let violations = 0;
    const carrierLines: string[] = [];
    const violationLines: string[] = [];
    for (const s of stats) {
      const all = Object.values(s.credentials);
      const earlier = Object.values(before.find((b) => b.id === s.id)?.credentials ?? {});
      const sum = (pick: (c: CredentialStats) => number, list = all) => list.reduce((total, c) => total + pick(c), 0);
      const max = (pick: (c: CredentialStats) => number) => Math.max(0, ...all.map(pick));
      const measured = (pick: (c: CredentialStats) => number) => sum(pick) - sum(pick, earlier);
      const numbers = measured((c) => c.numbers);
      const answered = measured((c) => c.answered);
      polled += numbers;
      calls += measured((c) => c.calls);
      const v = {
        numbersPerCall: sum((c) => c.violations.numbersPerCall),
        concurrency: sum((c) => c.violations.concurrency),
        rate: sum((c) => c.violations.rate),
        quota: sum((c) => c.violations.quota),
      };
      const carrierViolations = v.numbersPerCall + v.concurrency + v.rate + v.quota;
      violations += carrierViolations + s.unauthorized;
      const windows = s.limits.windows.map((w, i) => {
        const tightest = all.map((c) => c.tightestMs[i]).filter((t): t is number => t !== null);
        const span = w.ms >= 60_000 ? `${w.ms / 60_000} min` : `${w.ms / 1000} s`;
        return (
          `${max((c) => c.maxInWindow[i])}/${w.max} in ${span}` +
          (tightest.length > 0 ? ` (${w.max + 1} calls within ${count(Math.min(...tightest))} ms at the closest)` : '')
        );
      });
      if (carrierViolations + s.unauthorized > 0) {
        violationLines.push(
          `${s.id}: ${v.numbersPerCall} over ${s.limits.numbersPerCall} numbers, ${v.concurrency} over ${s.limits.concurrentCalls} in flight, ` +
            `${v.rate} over the rate (${windows.join(', ')}), ${v.quota} past the quota, ${s.unauthorized} unauthorized`,
        );
      }
      carrierLines.push(
        `${s.id}: ${count(numbers)} numbers in ${count(answered)} calls measured (${answered > 0 ? round(numbers / answered) : 0} a call), ` +
          `${sum((c) => c.tokens)} tokens; most in flight ${max((c) => c.maxInFlight)}/${s.limits.concurrentCalls}; ${windows.join('; ')}` +
          (s.limits.dailyQuota !== null ? `; spent today ${max((c) => c.spentToday)}/${s.limits.dailyQuota}` : '') +
          `; violations ${carrierViolations}`,
      );
    }

    const credentialOfAccount = (carrier: string) =>
      new Map((credentials.get(carrier) ?? []).map((c) => [accountRows[c.account], c.credential] as [number, string]));
    const priorities: PriorityOutcome[] = [];
    for (const carrier of carriers) {
      const s = stats.find((entry) => entry.id === carrier.id);
      if (CALLS_LEFT[carrier.id] === undefined || !s) continue;
      priorities.push(await priorityOutcome(context, carrier, s, polling.rounds, credentialOfAccount(carrier.id)));
    }
    const deferredByCarrier = await context.database.db
      .selectFrom('shipments')
      .select(['carrier_id', sql<number>`count(*)`.as('n')])
      .where('poll_deferred_since', 'is not', null)
      .groupBy('carrier_id')
      .execute();
    const events = Number((await sql<{ n: number }>`select count(*) as n from tracking_events`.execute(context.database.db)).rows[0].n);
    const measuredRounds = polling.rounds.filter((r) => r.measured);
    const claimed = measuredRounds.reduce((total, r) => total + r.claimed, 0);
    const cpuPerNumber = polled > 0 ? polling.cpuMicros / polled : Number.POSITIVE_INFINITY;
    const working = measuredRounds.filter((r) => r.claimed > 0).map((r) => r.ms);
    const sortedRounds = [...working].sort((a, b) => a - b);
    const targetStatements = statementTimes?.report(polled) ?? [];

    const priorityLines = priorities.map(
      (p) =>
        `${p.carrier} (${p.callsLeft} call${p.callsLeft === 1 ? '' : 's'} left per credential): polled ${p.polled.urgent} urgent + ${p.polled.other} other;` +
        ` deferred to the reset ${count(p.deferred.urgent)} urgent + ${count(p.deferred.other)} other in ${p.deferringRounds} credential-rounds;` +
        ` credential-rounds that deferred an urgent shipment while polling another: ${p.inversions}`,
    );
    const deferredText = deferredByCarrier.map((d) => `${d.carrier_id} ${count(Number(d.n))}`).join(', ') || 'none';
    return {
      carriers: carriers.length,
      polled,
      cpuMicros: polling.cpuMicros,
      cpuPerNumber,
      sortedRounds,
      violations,
      violationLines,
      notes: [
        `${count(shipments)} shipments (${count(stories.out_for_delivery)} out for delivery, ${count(stories.failed_attempt)} after a failed attempt),` +
          ` ${carriers.length} carriers × ${accounts} accounts (one credential each), answers after ${latencyMs} ms; seeded in ${round(seedSeconds)} s;` +
          (history !== 'none'
            ? ` each with its previous poll's events stored${history === 'events' ? ' without a digest' : ''} (${count(seededEvents)}), one in ${NEW_EVENT_EVERY} to get a new event`
            : ' nothing stored before: every poll is a first poll'),
        `polled ${count(polled)} numbers in ${count(calls)} carrier calls over ${round(polling.wallSeconds)} s (${round(polled / polling.wallSeconds)} numbers/s),` +
          ` ${working.length} rounds claiming ${count(claimed)} shipments (p50 ${round(percentile(sortedRounds, 0.5))} ms, max ${round(sortedRounds[sortedRounds.length - 1] ?? 0)} ms);` +
          ` ${count(events)} events stored`,
        `worker CPU ${round(polling.cpuMicros / 1000)} ms: ${round(cpuPerNumber)} µs per polled number, ${round(claimed > 0 ? polling.cpuMicros / claimed : 0)} µs per claimed shipment;` +
          (polling.mainThreadCpuMicros !== null
            ? ` main thread ${round(polling.mainThreadCpuMicros / 1000)} ms (${round(polled > 0 ? polling.mainThreadCpuMicros / polled : 0)} µs per polled number), other threads ${round((polling.cpuMicros - polling.mainThreadCpuMicros) / 1000)} ms;`
            : '') +
          ` idle floor afterwards ${round(idleFloor / 1000, 2)} ms per second;` +
          (polling.writtenBytes !== null && polled > 0
            ? ` written ${round(polling.writtenBytes / polled / 1024, 1)} KiB per polled number;`
            : '') +
          (server.before && serverAfter && walBytesAtEnd !== null && polled > 0
            ? ` the server's write-ahead log ${round((walBytesAtEnd - server.before.walBytes) / polled / 1024, 1)} KiB per polled number` +
              ` (to the end of the idle floor), shipment row versions ${round((serverAfter.shipmentUpdates - server.before.shipmentUpdates) / polled, 2)}` +
              ' per polled number;'
            : '') +
          ` event-loop delay p99 ${round(polling.loopDelayMs.p99)} ms, max ${round(polling.loopDelayMs.max)} ms`,
        `answers in the measured period by outcome: ${outcomes}`,
        ...carrierLines,
        `carrier limits exceeded: ${violations}${violations > 0 ? ` (${violationLines.join('; ')})` : ''}`,
        ...priorityLines,
        `shipments deferred for a daily quota: ${deferredText}`,
        `start-up, unmeasured above (the warm-up, then the rounds until the quota-bound credentials' due polls were put off to the reset):` +
          ` ${round(polling.startup.wallSeconds)} s, worker CPU ${round(polling.startup.cpuMicros / 1000)} ms,` +
          ` ${count(startupPolled)} numbers polled, ${startupPolled > 0 ? round(polling.startup.cpuMicros / startupPolled) : '-'} µs per polled number`,
        ...targetStatements.map((line) => `SQL ${line}`),
      ],
    };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await servers?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** The same poller over the same number of shipments on the sandbox carrier, answered in process: the baseline of `carrierPolling`. */
async function pollSandbox(settings: PollingSettings): Promise<CarrierPolling> {
  const { database, warmupSeconds, shipments, seconds, history, profileDir } = settings;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-carrier-polling-sandbox-'));
  const closers: Array<() => Promise<void>> = [];
  try {
    const sandbox = await openContext(workDir, 'sandbox', database, {});
    closers.push(() => sandbox.close());
    const sandboxAccount = await accountId(sandbox.context, 'carrier-polling-sandbox');
    await sandbox.context.carrierConfigs.add(sandboxAccount, { carrier_reference: 'bench-sandbox', carrier_id: 'sandbx' });
    const sandboxNow = Date.now();
    const sandboxRows: Array<Insertable<ShipmentsTable>> = [];
    for (let i = 0; i < shipments; i++) {
      const story = storyOf(i);
      sandboxRows.push(
        shipmentRow(
          sandboxAccount,
          'bench-sandbox',
          'sandbx',
          `${SANDBOX_PREFIX[story]}${String(i).padStart(9, '0')}`,
          story,
          i,
          sandboxNow,
        ),
      );
    }
    const sandboxAdapter = adapterOf(sandbox.context, 'sandbx');
    const sandboxSeededEvents = await insertShipments(
      sandbox.context,
      sandboxRows,
      history !== 'none'
        ? async (chunk) => {
            // Asked as the poller asks: from when tracking began.
            const requests = chunk.map((row) => ({
              tracking_number: row.tracking_number ?? '',
              first_polled_at: row.tracking_started_at ?? '',
              attempt: 0,
            }));
            const answered = await answerFor(sandboxAdapter, requests, {});
            return chunk.map((row, i) =>
              previousPoll(sandboxAdapter, row.tracking_number ?? '', answered[i], i % NEW_EVENT_EVERY === 0, history),
            );
          }
        : undefined,
    );
    sandboxRows.length = 0;
    await settleSeed(sandbox.context);
    const sandboxPolling = await pollFor(
      silentPoller(sandbox.context),
      warmupSeconds,
      seconds,
      undefined,
      profileDir ? path.join(profileDir, `carrier-polling-sandbox-${database}.cpuprofile`) : undefined,
    );
    const sandboxMeasured = sandboxPolling.rounds.filter((r) => r.measured);
    const sandboxPolled = sandboxMeasured.reduce((total, r) => total + r.claimed, 0);
    const sandboxEvents = Number(
      (await sql<{ n: number }>`select count(*) as n from tracking_events`.execute(sandbox.context.database.db)).rows[0].n,
    );
    const sandboxCpuPerNumber = sandboxPolled > 0 ? sandboxPolling.cpuMicros / sandboxPolled : Number.POSITIVE_INFINITY;
    const sandboxRounds = sandboxMeasured
      .filter((r) => r.claimed > 0)
      .map((r) => r.ms)
      .sort((a, b) => a - b);

    return {
      carriers: 1,
      polled: sandboxPolled,
      cpuMicros: sandboxPolling.cpuMicros,
      cpuPerNumber: sandboxCpuPerNumber,
      sortedRounds: sandboxRounds,
      violations: 0,
      violationLines: [],
      notes: [
        `sandbox: ${round(sandboxCpuPerNumber)} µs per number` +
          (sandboxPolling.mainThreadCpuMicros !== null && sandboxPolled > 0
            ? `, main thread ${round(sandboxPolling.mainThreadCpuMicros / sandboxPolled)} µs`
            : '') +
          ` (${count(sandboxPolled)} numbers, ${count(sandboxEvents)} events in all, ${count(sandboxSeededEvents)} of them seeded, in ${round(sandboxPolling.wallSeconds)} s)`,
      ],
    };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** A row of the runner's table: numbers per CPU-second, and the ms per round that claimed shipments. */
export function pollingMeasurement(label: string, run: CarrierPolling): Measurement {
  return {
    label,
    url: '',
    requestsPerSecond: run.polled / (run.cpuMicros / 1e6),
    latencyP50Ms: round(percentile(run.sortedRounds, 0.5)),
    latencyP99Ms: round(percentile(run.sortedRounds, 0.99)),
    totalRequests: run.polled,
  };
}

/** Says so on stderr and fails the run when a local carrier counted a call over a limit. */
export function reportViolations(name: string, run: CarrierPolling): void {
  if (run.violations === 0) return;
  process.stderr.write(`\n${name}: CARRIER LIMITS EXCEEDED: ${run.violations} calls over a limit\n  ${run.violationLines.join('\n  ')}\n`);
  process.exitCode = 1;
}

export const count = (n: number) => n.toLocaleString('en-US');

async function run(database: 'sqlite' | 'postgres', warmupSeconds: number): Promise<ScenarioResult> {
  const settings = pollingSettings(database, warmupSeconds);
  const carriers = await pollCarriers(settings, carriersFrom(process.env.CARRIER_POLLING_CARRIERS), 'carrier-polling');
  const sandbox = await pollSandbox(settings);
  const target = pollingMeasurement(
    `poller, ${carriers.carriers} carriers over HTTP on ${database} (numbers per CPU-second; ms per round)`,
    carriers,
  );
  const baseline = pollingMeasurement(`poller, sandbox carrier in process on ${database} (numbers per CPU-second; ms per round)`, sandbox);
  reportViolations(carrierPolling.name, carriers);
  const name = database === 'sqlite' ? carrierPolling.name : `${carrierPolling.name} (${database})`;
  return {
    name,
    description: carrierPolling.description,
    target,
    baseline,
    ratio: target.requestsPerSecond / baseline.requestsPerSecond,
    goal: 0,
    goalText: `≤ ${GOAL_CPU_MICROS_PER_NUMBER} µs worker CPU per polled number and no carrier limit exceeded`,
    goalMet: carriers.cpuPerNumber <= GOAL_CPU_MICROS_PER_NUMBER && carriers.violations === 0,
    notes: [...carriers.notes, ...sandbox.notes].map((line) => `${database}: ${line}`),
  };
}

/**
 * CARRIER_POLLING_SHIPMENTS tracked shipments (default 100,000) dealt over the seven HTTP carriers
 * (CARRIER_POLLING_CARRIERS: any of bench/carriers/, the added adapters among them; carrier-polling-all measures
 * them all against the seven), CARRIER_POLLING_ACCOUNTS accounts (default 2) each with its own credential for
 * every carrier, written straight into the database, all due within the last hour; one in ten out for delivery,
 * one in twenty after a failed attempt; each with its previous poll stored, one in four to get a new event
 * (CARRIER_POLLING_HISTORY: stored, events, none; bench/poll-history.ts). The carriers are local servers in a child process
 * (bench/carrier-servers.ts) that enforce and count each carrier's limits per credential; DHL's and GLS's
 * credentials have only a few calls left today. TrackingPoller.runOnce runs round after round for
 * CARRIER_POLLING_SECONDS (default 60; the last round is waited for). Figure: the worker process's CPU time
 * (process.cpuUsage: the poller, the database, the WAL checkpoint thread) per number the carriers answered.
 * Baseline: the same poller over the same number of shipments on the sandbox carrier, answered in process.
 */
export const carrierPolling: Scenario = {
  name: 'carrier-polling',
  description:
    '100,000 tracked shipments polled over the seven carrier adapters against local carriers enforcing their limits: worker CPU per polled number vs the sandbox carrier through the same poller',
  databases: ['sqlite', 'postgres'],
  run: (settings) => run(settings.database ?? 'sqlite', settings.warmupSeconds),
};

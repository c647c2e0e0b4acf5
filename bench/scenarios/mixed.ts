import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type CustomFieldKey,
  customFieldKeyFrom,
  envInteger,
  newAdminToken,
  round,
  shipmentBody,
  startService,
  withCustomFieldKey,
} from '../fixtures.js';
import {
  type ChildServer,
  childEnv,
  freePort,
  type Measurement,
  mainThreadCpuMs,
  mainThreadSwitches,
  processCpuMs,
  processSystemCpuMs,
  residentMemory,
  type Scenario,
  type ScenarioResult,
  startChild,
} from '../harness.js';
import { type Merchant, seedMerchants, tokenFor } from '../merchants.js';
import { type OpenLoopRequest, type OpenLoopResult, type OpenLoopStream, openLoop } from '../open-loop.js';
import { backendCpuBetween, backendCpuMs, freshPostgresDatabase } from '../postgres.js';
import { profileArgs } from './shipment-details.js';

const GOAL_P99_MS = 25;
const detailsRoute = '/v5-2-0/shipment/details/';

/**
 * One merchant's traffic at its rate: 70% details (v5.2) of its own shipments, 15% creates, 10% list,
 * 5% updates; creates use new shipment_ids (counted in `counters` across the run), updates change the note of one
 * of its shipments.
 */
function merchantStream(
  merchant: Merchant,
  token: string,
  ratePerSecond: number,
  mix: Mix,
  counters: Counters,
  customField: { key: CustomFieldKey; merchant: number },
): OpenLoopStream {
  const auth = { authorization: `Bearer ${token}` };
  const jsonHeaders = { ...auth, 'content-type': 'application/json' };
  const uuids = merchant.shipmentUuids;
  const pick = () => uuids[Math.floor(Math.random() * uuids.length)];
  return {
    ratePerSecond,
    next(): OpenLoopRequest {
      const r = Math.random();
      if (r < mix.details) return { kind: 'details v5.2', method: 'GET', path: `${detailsRoute}?shipment_uuid=${pick()}`, headers: auth };
      if (r < mix.details + mix.creates) {
        const sequence = counters.creates++;
        const shipment = shipmentBody(`mix${merchant.runId}`, sequence);
        const body = JSON.stringify(withCustomFieldKey(shipment, customField.key, customField.merchant * 1_000_000 + sequence));
        return { kind: 'create', method: 'POST', path: '/v5/shipment/', headers: jsonHeaders, body };
      }
      if (r < mix.details + mix.creates + mix.lists)
        return { kind: 'list', method: 'GET', path: '/v5/shipment/list/?limit=20', headers: auth };
      const body = JSON.stringify({ note: `bench update ${counters.updates++}` });
      return { kind: 'update', method: 'POST', path: `/v5-2-0/shipment/update/?shipment_uuid=${pick()}`, headers: jsonHeaders, body };
    },
  };
}

/** A merchant's creates and updates so far, across the run's rates (each create a new shipment_id). */
interface Counters {
  creates: number;
  updates: number;
}

/** Shares of each kind of request, from MIXED_MIX=details,creates,lists,updates (default 70,15,10,5). */
interface Mix {
  details: number;
  creates: number;
  lists: number;
  updates: number;
}

function mixFrom(raw: string | undefined): Mix {
  const parts = (raw ?? '70,15,10,5').split(',').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isFinite(p) || p < 0) || parts.every((p) => p === 0)) {
    throw new Error(`MIXED_MIX takes four weights (details,creates,lists,updates), got "${raw}"`);
  }
  const total = parts.reduce((a, b) => a + b, 0);
  const [details, creates, lists, updates] = parts.map((p) => p / total);
  return { details, creates, lists, updates };
}

function asMeasurement(label: string, url: string, result: OpenLoopResult): Measurement {
  return {
    label,
    url,
    requestsPerSecond: result.achievedPerSecond,
    latencyP50Ms: result.p50Ms,
    latencyP99Ms: result.p99Ms,
    totalRequests: result.completed,
  };
}

/** One offered rate: the floor and the service measured at it. */
interface Point {
  perMerchant: number;
  floor: OpenLoopResult;
  floorCpuMs: number;
  /** The kernel's part of floorCpuMs (system time). */
  floorSystemMs: number;
  floorSeconds: number;
  service: OpenLoopResult;
  serviceCpuMs: number;
  /** The kernel's part of serviceCpuMs (system time: system calls, such as a commit's writes to the log). */
  serviceSystemMs: number;
  mainThreadCpuMs: number;
  /** How often each main thread gave up the CPU while measured (mainThreadSwitches), when /proc tells. */
  serviceSwitches: Switches | null;
  floorSwitches: Switches | null;
  /** PostgreSQL's server processes for the service's database, when the server runs on this machine. */
  serverCpuMs: number | null;
  serviceSeconds: number;
  peakRssMiB: number;
  /**
   * Shipment renderings answered from the render cache and made anew while measured, and on SQLite the write
   * transactions committed and the commits that held them (one process's /metrics).
   */
  renderings: ServiceCounters | null;
}

interface ServiceCounters {
  hits: number;
  misses: number;
  headsUnread: number;
  firstPagesUnread: number;
  /** Updates answered with the events of a kept rendering. */
  eventsReused: number;
  /** SQLite only (0 on PostgreSQL). */
  transactions: number;
  commits: number;
}

type Switches = NonNullable<ReturnType<typeof mainThreadSwitches>>;

function switchesBetween(before: Switches | null, after: Switches | null): Switches | null {
  return before && after ? { voluntary: after.voluntary - before.voluntary, involuntary: after.involuntary - before.involuntary } : null;
}

/** A process left alone: its CPU (ms a second) and how often its main thread waited (a second). */
async function atRest(pid: number, seconds: number): Promise<{ cpuMsPerSecond: number; waitsPerSecond: number | null }> {
  const cpu = processCpuMs(pid) ?? 0;
  const switches = mainThreadSwitches(pid);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsed = (performance.now() - started) / 1000;
  const waited = switchesBetween(switches, mainThreadSwitches(pid));
  return {
    cpuMsPerSecond: ((processCpuMs(pid) ?? 0) - cpu) / elapsed,
    waitsPerSecond: waited && waited.voluntary / elapsed,
  };
}

function restFigures(rest: { cpuMsPerSecond: number; waitsPerSecond: number | null }): string {
  const waits = rest.waitsPerSecond === null ? '?' : Math.round(rest.waitsPerSecond);
  return `${round(rest.cpuMsPerSecond)} ms of CPU a second, main thread waited ${waits} times a second`;
}

/** The render cache's and the group commit's counters at /metrics, or null when they cannot be read. */
async function renderCounters(url: string): Promise<ServiceCounters | null> {
  try {
    const text = await (await fetch(`${url}/metrics`)).text();
    const value = (result: string) =>
      Number(new RegExp(`^waybill_render_cache_requests_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    const hits = value('hit');
    const misses = value('miss');
    const total = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const headsUnread = total('waybill_shipment_heads_unread_total');
    const firstPagesUnread = total('waybill_list_first_pages_unread_total');
    const eventsReused = total('waybill_render_cache_events_reused_total');
    const transactions = total('waybill_sqlite_transactions_total');
    const commits = total('waybill_sqlite_commits_total');
    return Number.isFinite(hits) && Number.isFinite(misses)
      ? { hits, misses, headsUnread, firstPagesUnread, eventsReused, transactions, commits }
      : null;
  } catch {
    return null;
  }
}

/** The issue's goals: unsaturated (half the limit) and at the limit. */
const GOALS = {
  unsaturated: { cpuMicros: 200, p99Ms: GOAL_P99_MS },
  saturated: { cpuMicros: 150, p99Ms: 100 },
};

const perRequest = (cpuMs: number, result: OpenLoopResult) => Math.round((cpuMs * 1000) / Math.max(1, result.completed));

/**
 * One target's measurement: its answers, its process's CPU (ms, with the kernel's part and its main thread's), the
 * real time (s) it took.
 */
interface Measured {
  result: OpenLoopResult;
  cpuMs: number;
  systemMs: number;
  mainMs: number;
  switches: Switches | null;
  seconds: number;
  /** PostgreSQL's server processes for the service's database, when the server runs on this machine. */
  serverMs: number | null;
}

/**
 * Loads a target for `seconds` before it is measured, in two halves, each on its own connections: the first half's
 * connections are closed halfway, so that the code which ends a connection (streams ending, sockets closing) has run
 * among the requests before the measurement. With one warm-up, that code first ran as the measurement began on new
 * connections: V8 then dropped some ten functions of the request path, optimized for requests alone, and compiled
 * them again during the measurement.
 */
async function warmUp(url: string, streams: OpenLoopStream[], seconds: number): Promise<void> {
  await openLoop(url, streams, seconds / 2);
  await openLoop(url, streams, seconds / 2);
}

/** How often /metrics is read while the service is under load (ms). */
const SCRAPE_EVERY_MS = 2000;

/** Runs `streams` against `url` for `seconds`, with the CPU (ms) of `pid` and the real time (s) it took. */
async function measured(url: string, pid: number, streams: OpenLoopStream[], seconds: number, databaseUrl?: string): Promise<Measured> {
  const server = databaseUrl ? await backendCpuMs(databaseUrl) : null;
  const cpu = processCpuMs(pid) ?? 0;
  const system = processSystemCpuMs(pid) ?? 0;
  const main = mainThreadCpuMs(pid) ?? 0;
  const switches = mainThreadSwitches(pid);
  const started = performance.now();
  const result = await openLoop(url, streams, seconds);
  return {
    result,
    cpuMs: (processCpuMs(pid) ?? 0) - cpu,
    systemMs: (processSystemCpuMs(pid) ?? 0) - system,
    mainMs: (mainThreadCpuMs(pid) ?? 0) - main,
    switches: switchesBetween(switches, mainThreadSwitches(pid)),
    seconds: (performance.now() - started) / 1000,
    serverMs: databaseUrl ? backendCpuBetween(server, await backendCpuMs(databaseUrl)) : null,
  };
}

/**
 * MIXED_ACCOUNTS merchants (default 100), each sending open-loop at each rate of MIXED_POINTS (requests per second
 * per merchant, default half the limit and the limit: 20,40; MIXED_RATE, default 40, is the per-account limit):
 * the service (`serve`, or `start` with MIXED_COMMAND=start: API and worker, what `npm start` runs) on SQLite, or
 * on a fresh PostgreSQL database with `--database postgres`. Every merchant has MIXED_SHIPMENTS shipments (default
 * 50) with MIXED_EVENTS events each (default 10) before the run. The floor, in the same run and at the same rates:
 * bare Fastify answering the same requests with the bytes the service answered for each kind
 * (bench/mixed-floor-server.ts). Each side is warmed up for MIXED_WARMUP seconds (default 30: at 10 the service
 * still spent a tenth of its CPU compiling when the measurement began) at each rate. CPU per request is the
 * process's CPU over the requests answered; its share of a core is over the real time the measurement took (a
 * saturated run takes longer than planned). After the last rate, both are left at rest for MIXED_REST seconds
 * (default 20): their CPU a second and how often their main threads waited. MIXED_ADDITIONAL_KEY=same|new gives
 * each create a first custom field named alike in every create, or one no create sent before
 * (`withCustomFieldKey`; `late` names it alike too).
 */
export const mixed: Scenario = {
  name: 'mixed',
  description: 'merchants at half and at their rate limit, open loop: 70% details v5.2, 15% creates, 10% list, 5% updates',
  databases: ['sqlite', 'postgres'],
  async run(settings): Promise<ScenarioResult> {
    const accounts = envInteger('MIXED_ACCOUNTS', 100);
    const rate = envInteger('MIXED_RATE', 40);
    const points = (process.env.MIXED_POINTS ?? `${Math.max(1, Math.round(rate / 2))},${rate}`).split(',').map(Number);
    if (points.some((point) => !Number.isInteger(point) || point <= 0))
      throw new Error(`MIXED_POINTS takes rates per merchant, got "${process.env.MIXED_POINTS}"`);
    const warmup = envInteger('MIXED_WARMUP', 30);
    const shipmentsPerAccount = envInteger('MIXED_SHIPMENTS', 50);
    const eventsPerShipment = envInteger('MIXED_EVENTS', 10);
    const command = process.env.MIXED_COMMAND === 'start' ? 'start' : 'serve';
    // HTTP processes of `serve --workers N`; more than one shares the rate limit through Redis.
    const workers = envInteger('MIXED_WORKERS', 1);
    const mix = mixFrom(process.env.MIXED_MIX);
    const customField = customFieldKeyFrom('MIXED_ADDITIONAL_KEY');
    const database = settings.database ?? 'sqlite';
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-mixed-'));
    const dataDir = path.join(workDir, 'data');
    const adminToken = newAdminToken();
    const servers: ChildServer[] = [];
    const postgres = database === 'postgres' ? await freshPostgresDatabase() : null;
    try {
      const seedStarted = performance.now();
      const merchants = await seedMerchants({ dataDir, databaseUrl: postgres?.url, accounts, shipmentsPerAccount, eventsPerShipment });
      process.stdout.write(
        `  seeded ${accounts} accounts × ${shipmentsPerAccount} shipments × ${eventsPerShipment} events on ${database} in ${round((performance.now() - seedStarted) / 1000)} s\n`,
      );
      const service = await startService({
        dataDir,
        adminToken,
        command,
        commandArgs: workers > 1 ? ['--workers', String(workers)] : [],
        env:
          workers > 1
            ? { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', WAYBILL_RATE_LIMIT_PREFIX: `bench:${adminToken}:` }
            : {},
        databaseUrl: postgres?.url,
        rateLimitPerSecond: rate,
        nodeArgs: profileArgs(),
      });
      servers.push(service);
      const tokens = await Promise.all(merchants.map((m) => tokenFor(service.url, m)));

      // The floor answers each kind with what the service answered for it.
      const bodiesFile = path.join(workDir, 'bodies.json');
      fs.writeFileSync(bodiesFile, JSON.stringify(await captureBodies(service.url, merchants[0], tokens[0])));
      const port = await freePort();
      const floor = await startChild({
        label: 'mixed floor',
        args: ['--import', 'tsx', path.join('bench', 'mixed-floor-server.ts')],
        env: childEnv({ NODE_ENV: 'production', PORT: String(port), FLOOR_BODIES_FILE: bodiesFile }),
        port,
        readyPath: '/v5-2-0/shipment/details/',
      });
      servers.push(floor);

      const duration = settings.durationSeconds;
      const idle = residentMemory(service.pid);
      const measuredPoints: Point[] = [];
      const counters = merchants.map((): Counters => ({ creates: 0, updates: 0 }));
      for (const perMerchant of points) {
        const streams = merchants.map((m, i) =>
          merchantStream(m, tokens[i], perMerchant, mix, counters[i], { key: customField, merchant: i }),
        );
        await warmUp(floor.url, streams, warmup);
        const bare = await measured(floor.url, floor.pid, streams, duration);
        // The counters are read from /metrics before and after the measurement, and /metrics is read all along besides,
        // from the warm-up on, as a metrics scraper reads a service in production. A route the warm-up never took
        // makes V8 drop the code it optimized for the mix's routes alone: read only before the warm-up (too early for
        // the code to keep what it saw) and at the measurement's start, it did so there (some 15 functions of the
        // request path dropped, and compiled again during the measurement).
        const scraper = setInterval(() => void renderCounters(service.url), SCRAPE_EVERY_MS);
        let peakRss = 0;
        let sampler: NodeJS.Timeout | undefined;
        let before: ServiceCounters | null;
        let ours: Measured;
        let after: ServiceCounters | null;
        try {
          await renderCounters(service.url);
          await warmUp(service.url, streams, warmup);
          sampler = setInterval(() => {
            peakRss = Math.max(peakRss, residentMemory(service.pid)?.totalMiB ?? 0);
          }, 1000);
          before = await renderCounters(service.url);
          ours = await measured(service.url, service.pid, streams, duration, postgres?.url);
          clearInterval(sampler);
          after = await renderCounters(service.url);
        } finally {
          clearInterval(scraper);
          clearInterval(sampler);
        }
        measuredPoints.push({
          perMerchant,
          floor: bare.result,
          floorCpuMs: bare.cpuMs,
          floorSystemMs: bare.systemMs,
          floorSeconds: bare.seconds,
          service: ours.result,
          serviceCpuMs: ours.cpuMs,
          serviceSystemMs: ours.systemMs,
          mainThreadCpuMs: ours.mainMs,
          serviceSwitches: ours.switches,
          floorSwitches: bare.switches,
          serverCpuMs: ours.serverMs,
          serviceSeconds: ours.seconds,
          peakRssMiB: peakRss,
          renderings:
            before && after && workers === 1
              ? {
                  hits: after.hits - before.hits,
                  misses: after.misses - before.misses,
                  headsUnread: after.headsUnread - before.headsUnread,
                  firstPagesUnread: after.firstPagesUnread - before.firstPagesUnread,
                  eventsReused: after.eventsReused - before.eventsReused,
                  transactions: after.transactions - before.transactions,
                  commits: after.commits - before.commits,
                }
              : null,
        });
      }

      const restSeconds = envInteger('MIXED_REST', 20);
      const [serviceAtRest, floorAtRest] = await Promise.all([atRest(service.pid, restSeconds), atRest(floor.pid, restSeconds)]);
      const last = measuredPoints[measuredPoints.length - 1];
      const processes = workers > 1 ? ` --workers ${workers}` : '';
      const label = `waybill ${command}${processes} on ${database}, ${accounts} accounts × ${last.perMerchant} req/s`;
      // Answers over the real time: a saturated service takes longer than the planned period to answer them all.
      const target = {
        ...asMeasurement(label, service.url, last.service),
        requestsPerSecond: last.service.completed / last.serviceSeconds,
        cpuMicrosPerRequest: perRequest(last.serviceCpuMs, last.service),
      };
      const baselineMeasurement = {
        ...asMeasurement('bare Fastify, the same requests and answers', floor.url, last.floor),
        requestsPerSecond: last.floor.completed / last.floorSeconds,
        cpuMicrosPerRequest: perRequest(last.floorCpuMs, last.floor),
      };
      const goalOf = (point: Point) => (point.perMerchant * 2 <= rate ? GOALS.unsaturated : GOALS.saturated);
      const met = measuredPoints.every((point) => {
        const goal = goalOf(point);
        return (
          point.service.failures === 0 &&
          point.service.p99Ms <= goal.p99Ms &&
          perRequest(point.serviceCpuMs, point.service) <= goal.cpuMicros
        );
      });
      const notes = measuredPoints.flatMap((point) => {
        const { service: result, floor: bare } = point;
        const cpu = perRequest(point.serviceCpuMs, result);
        const floorCpu = perRequest(point.floorCpuMs, bare);
        const at = `${database}, ${Math.round(result.offeredPerSecond).toLocaleString('en-US')} req/s offered`;
        const goal = goalOf(point);
        const kept = point.renderings;
        const renderings = kept
          ? `; renderings ${Math.round((100 * kept.hits) / Math.max(1, kept.hits + kept.misses))}% kept (${kept.hits.toLocaleString('en-US')} kept, ${kept.misses.toLocaleString('en-US')} made), ${kept.headsUnread.toLocaleString('en-US')} details and ${kept.firstPagesUnread.toLocaleString('en-US')} list pages found without a read, ${kept.eventsReused.toLocaleString('en-US')} updates with kept events${kept.commits > 0 ? `; ${kept.transactions.toLocaleString('en-US')} transactions in ${kept.commits.toLocaleString('en-US')} commits` : ''}`
          : '';
        const kinds = result.byKind
          .map((k) => `${k.kind} ${k.completed.toLocaleString('en-US')} p50 ${k.p50Ms} / p99 ${k.p99Ms} ms`)
          .join('; ');
        const woke = (switches: Switches | null, answered: OpenLoopResult) =>
          switches ? `${round(switches.voluntary / Math.max(1, answered.completed))}` : '?';
        const wakes = `main thread waited ${woke(point.serviceSwitches, result)} times a request (floor ${woke(point.floorSwitches, bare)}), taken off the CPU ${point.serviceSwitches?.involuntary.toLocaleString('en-US') ?? '?'} times (floor ${point.floorSwitches?.involuntary.toLocaleString('en-US') ?? '?'})`;
        return [
          `${at}: answered ${result.completed.toLocaleString('en-US')} in ${round(point.serviceSeconds)} s, ${Math.round(result.completed / point.serviceSeconds).toLocaleString('en-US')} req/s (floor ${Math.round(bare.completed / point.floorSeconds).toLocaleString('en-US')} req/s over ${round(point.floorSeconds)} s); p50 ${result.p50Ms} / p99 ${result.p99Ms} / max ${result.maxMs} ms (floor p99 ${bare.p99Ms} ms); generator send lag p99 ${result.sendLagP99Ms} ms`,
          `${at}: service CPU ${cpu} µs per request (main thread ${perRequest(point.mainThreadCpuMs, result)} µs, ${Math.round((100 * point.mainThreadCpuMs) / Math.max(1, point.serviceCpuMs))}%; the kernel ${perRequest(point.serviceSystemMs, result)} µs, the floor's ${perRequest(point.floorSystemMs, bare)} µs), ${Math.round(point.serviceCpuMs / 10 / point.serviceSeconds)}% of a core over the real time${point.serverCpuMs !== null ? `; PostgreSQL's server ${perRequest(point.serverCpuMs, result)} µs per request more` : ''}; floor ${floorCpu} µs (×${round(cpu / Math.max(1, floorCpu))}); ${wakes}; goal ≤ ${goal.cpuMicros} µs and p99 ≤ ${goal.p99Ms} ms`,
          `${at}: ${kinds}`,
          `${at}: 429 ${result.throttled.toLocaleString('en-US')}, other failures ${result.failures}${result.failureSamples.length > 0 ? ` (${result.failureSamples.join(' | ')})` : ''}; statuses ${JSON.stringify(result.byStatus)}; RSS idle ${idle?.totalMiB ?? '?'} MiB, peak ${point.peakRssMiB} MiB${renderings}`,
        ];
      });
      notes.push(
        `${database}, at rest for ${restSeconds} s after the load: service ${restFigures(serviceAtRest)}; floor ${restFigures(floorAtRest)}`,
      );
      return {
        name: database === 'sqlite' ? 'mixed' : `mixed (${database})`,
        description: mixed.description,
        target,
        baseline: baselineMeasurement,
        ratio: target.requestsPerSecond / baselineMeasurement.requestsPerSecond,
        goal: 0,
        goalText: `at half the limit ≤ ${GOALS.unsaturated.cpuMicros} µs and p99 ≤ ${GOALS.unsaturated.p99Ms} ms, at the limit ≤ ${GOALS.saturated.cpuMicros} µs and p99 ≤ ${GOALS.saturated.p99Ms} ms, no errors but 429`,
        goalMet: met,
        notes,
      };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      await postgres?.drop();
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  },
};

/** What the service answers to one request of each kind, as the bytes it sent (checked to be JSON), for the floor to send the same. */
async function captureBodies(url: string, merchant: Merchant, token: string): Promise<Record<string, string>> {
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const uuid = merchant.shipmentUuids[0];
  const answer = async (label: string, response: Promise<Response>) => {
    const res = await response;
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${label}: HTTP ${res.status} ${text}`);
    JSON.parse(text);
    return text;
  };
  return {
    details: await answer('details', fetch(`${url}${detailsRoute}?shipment_uuid=${uuid}`, { headers: auth })),
    create: await answer(
      'create',
      fetch(`${url}/v5/shipment/`, { method: 'POST', headers: json, body: JSON.stringify(shipmentBody(`floor${merchant.runId}`, 0)) }),
    ),
    list: await answer('list', fetch(`${url}/v5/shipment/list/?limit=20`, { headers: auth })),
    update: await answer(
      'update',
      fetch(`${url}/v5-2-0/shipment/update/?shipment_uuid=${uuid}`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ note: 'floor' }),
      }),
    ),
  };
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envInteger, newAdminToken, round, shipmentBody, startBaseline, startService } from '../fixtures.js';
import { type ChildServer, type Measurement, processCpuMs, residentMemory, type Scenario, type ScenarioResult } from '../harness.js';
import { type Merchant, seedMerchants, tokenFor } from '../merchants.js';
import { type OpenLoopRequest, type OpenLoopResult, type OpenLoopStream, openLoop } from '../open-loop.js';
import { freshPostgresDatabase } from '../postgres.js';
import { profileArgs } from './shipment-details.js';

const GOAL_P99_MS = 25;
const detailsRoute = '/v5-2-0/shipment/details/';

/**
 * One merchant's traffic at its rate: 70% details (v5.2) of its own shipments, 15% creates, 10% list,
 * 5% updates; creates use new shipment_ids, updates change the note of one of its shipments.
 */
function merchantStream(merchant: Merchant, token: string, ratePerSecond: number, mix: Mix): OpenLoopStream {
  const auth = { authorization: `Bearer ${token}` };
  const jsonHeaders = { ...auth, 'content-type': 'application/json' };
  const uuids = merchant.shipmentUuids;
  const pick = () => uuids[Math.floor(Math.random() * uuids.length)];
  let creates = 0;
  let updates = 0;
  return {
    ratePerSecond,
    next(): OpenLoopRequest {
      const r = Math.random();
      if (r < mix.details) return { kind: 'details v5.2', method: 'GET', path: `${detailsRoute}?shipment_uuid=${pick()}`, headers: auth };
      if (r < mix.details + mix.creates) {
        const body = JSON.stringify(shipmentBody(`mix${merchant.runId}`, creates++));
        return { kind: 'create', method: 'POST', path: '/v5/shipment/', headers: jsonHeaders, body };
      }
      if (r < mix.details + mix.creates + mix.lists)
        return { kind: 'list', method: 'GET', path: '/v5/shipment/list/?limit=20', headers: auth };
      const body = JSON.stringify({ note: `bench update ${updates++}` });
      return { kind: 'update', method: 'POST', path: `/v5-2-0/shipment/update/?shipment_uuid=${pick()}`, headers: jsonHeaders, body };
    },
  };
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

/**
 * MIXED_ACCOUNTS merchants (default 100), each sending MIXED_RATE requests per second (default 40, the
 * per-account limit) open-loop for the measured period: the service (`serve`, the real rate limit) on SQLite,
 * or on a fresh PostgreSQL database with `--database postgres`. Every merchant has MIXED_SHIPMENTS shipments
 * (default 50) with MIXED_EVENTS events each (default 10) before the run. Baseline in the same run: the bare
 * Fastify route answering a captured details body, at the same offered rate.
 */
export const mixed: Scenario = {
  name: 'mixed',
  description: 'merchants at their rate limit, open loop: 70% details v5.2, 15% creates, 10% list, 5% updates',
  databases: ['sqlite', 'postgres'],
  async run(settings): Promise<ScenarioResult> {
    const accounts = envInteger('MIXED_ACCOUNTS', 100);
    const rate = envInteger('MIXED_RATE', 40);
    const shipmentsPerAccount = envInteger('MIXED_SHIPMENTS', 50);
    const eventsPerShipment = envInteger('MIXED_EVENTS', 10);
    // HTTP processes of `serve --workers N`; more than one shares the rate limit through Redis.
    const workers = envInteger('MIXED_WORKERS', 1);
    const mix = mixFrom(process.env.MIXED_MIX);
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
        command: 'serve',
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

      const sample = await fetch(`${service.url}${detailsRoute}?shipment_uuid=${merchants[0].shipmentUuids[0]}`, {
        headers: { authorization: `Bearer ${tokens[0]}` },
      });
      const body = await sample.text();
      if (sample.status !== 200) throw new Error(`GET ${detailsRoute}: HTTP ${sample.status} ${body}`);
      const bodyFile = path.join(workDir, 'body.json');
      fs.writeFileSync(bodyFile, body);
      const baseline = await startBaseline(detailsRoute, bodyFile);
      servers.push(baseline);

      const duration = settings.durationSeconds;
      const baselineStreams = merchants.map(
        (m, i): OpenLoopStream => ({
          ratePerSecond: rate,
          next: () => ({
            kind: 'details body',
            method: 'GET',
            path: `${detailsRoute}?shipment_uuid=${m.shipmentUuids[0]}`,
            headers: { authorization: `Bearer ${tokens[i]}` },
          }),
        }),
      );
      if (settings.warmupSeconds > 0) await openLoop(baseline.url, baselineStreams, settings.warmupSeconds);
      const bareCpu = processCpuMs(baseline.pid);
      const bare = await openLoop(baseline.url, baselineStreams, duration);
      const bareCpuMs = (processCpuMs(baseline.pid) ?? 0) - (bareCpu ?? 0);

      const streams = merchants.map((m, i) => merchantStream(m, tokens[i], rate, mix));
      const idle = residentMemory(service.pid);
      if (settings.warmupSeconds > 0) await openLoop(service.url, streams, settings.warmupSeconds);
      let peakRss = 0;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, residentMemory(service.pid)?.totalMiB ?? 0);
      }, 1000);
      const serviceCpu = processCpuMs(service.pid);
      const result = await openLoop(service.url, streams, duration).finally(() => clearInterval(sampler));
      const serviceCpuMs = (processCpuMs(service.pid) ?? 0) - (serviceCpu ?? 0);

      const processes = workers > 1 ? `, serve --workers ${workers}` : '';
      const label = `waybill on ${database}${processes}, ${accounts} accounts × ${rate} req/s`;
      const target = {
        ...asMeasurement(label, service.url, result),
        cpuMicrosPerRequest: Math.round((serviceCpuMs * 1000) / Math.max(1, result.completed)),
      };
      const baselineMeasurement = {
        ...asMeasurement('bare Fastify route, same offered rate', baseline.url, bare),
        cpuMicrosPerRequest: Math.round((bareCpuMs * 1000) / Math.max(1, bare.completed)),
      };
      const met = result.p99Ms <= GOAL_P99_MS && result.failures === 0;
      const kinds = result.byKind
        .map((k) => `${k.kind} ${k.completed.toLocaleString('en-US')} p50 ${k.p50Ms} / p99 ${k.p99Ms} ms`)
        .join('; ');
      return {
        name: database === 'sqlite' ? 'mixed' : `mixed (${database})`,
        description: mixed.description,
        target,
        baseline: baselineMeasurement,
        ratio: result.achievedPerSecond / bare.achievedPerSecond,
        goal: 0,
        goalText: `p99 ≤ ${GOAL_P99_MS} ms and no errors but 429`,
        goalMet: met,
        notes: [
          `${database}: offered ${result.offeredPerSecond.toLocaleString('en-US')} req/s for ${duration} s, achieved ${Math.round(result.achievedPerSecond).toLocaleString('en-US')} req/s (bare route ${Math.round(bare.achievedPerSecond).toLocaleString('en-US')}); p50 ${result.p50Ms} / p99 ${result.p99Ms} / max ${result.maxMs} ms (bare p99 ${bare.p99Ms} ms); generator send lag p99 ${result.sendLagP99Ms} ms`,
          `${database}: ${kinds}`,
          `${database}: 429 ${result.throttled.toLocaleString('en-US')}, other failures ${result.failures}${result.failureSamples.length > 0 ? ` (${result.failureSamples.join(' | ')})` : ''}; statuses ${JSON.stringify(result.byStatus)}`,
          `${database}: service RSS idle ${idle?.totalMiB ?? '?'} MiB, peak under load ${peakRss} MiB; service CPU ${Math.round(serviceCpuMs / 10 / duration)}% of one core, ${target.cpuMicrosPerRequest} µs per request`,
        ],
      };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      await postgres?.drop();
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  },
};

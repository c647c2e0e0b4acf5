import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { envInteger, json, newAdminToken, round, seedAccount, shipmentBody, startService } from '../fixtures.js';
import { type Measurement, repoRoot, residentMemory, type Scenario, type ScenarioResult } from '../harness.js';
import { tokenFor } from '../merchants.js';
import { type OpenLoopStream, openLoop } from '../open-loop.js';
import { profileArgs, seedShipments } from './shipment-details.js';

const detailsRoute = '/v5-2-0/shipment/details/';
const listRoute = '/v5/shipment/list/';
const GOAL_IDLE_RSS_MIB = 200;
/** "Flat": the largest database's p99 within this factor of the smallest's. */
const FLAT_FACTOR = 1.5;

interface Stage {
  shipments: number;
  dataDir: string;
  adminToken: string;
  clientId: string;
  clientSecret: string;
  templateShipmentId: string;
}

interface StageFigures {
  shipments: number;
  fileMiB: number;
  details: { p50: number; p99: number; achieved: number };
  listFirst: { p50: number; p99: number };
  listDeep: { page: number; p50: number; p99: number };
  rssIdle: ReturnType<typeof residentMemory>;
  rssLoadPeakMiB: number;
  rssAfter: ReturnType<typeof residentMemory>;
}

/** Cached databases are reused only by the same schema (the migration files) and the same events per shipment. */
function cacheKey(events: number): string {
  const dir = path.join(repoRoot, 'src', 'db', 'migrations');
  const hash = createHash('sha256');
  for (const file of fs.readdirSync(dir).sort()) hash.update(file).update(fs.readFileSync(path.join(dir, file)));
  return `growth-e${events}-${hash.digest('hex').slice(0, 12)}`;
}

/** The first stage: the service migrates, the admin API makes the account, one shipment made through the API is the template. */
async function firstStage(dir: string, count: number, events: number): Promise<Stage> {
  const dataDir = path.join(dir, 'data');
  const adminToken = newAdminToken();
  const service = await startService({ dataDir, adminToken, command: 'serve' });
  let stage: Stage;
  try {
    const account = await seedAccount(service.url, adminToken);
    const template = shipmentBody('template', 0, 'WB4');
    await json(
      await fetch(`${service.url}/v5/shipment/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(template),
      }),
      200,
      'create template shipment',
    );
    stage = {
      shipments: 0,
      dataDir,
      adminToken,
      clientId: account.clientId,
      clientSecret: account.clientSecret,
      templateShipmentId: String(template.shipment_id),
    };
  } finally {
    await service.stop();
  }
  return grow(stage, dir, count, events);
}

async function grow(stage: Stage, dir: string, count: number, events: number): Promise<Stage> {
  const add = count - stage.shipments;
  const seeded = await seedShipments(path.join(stage.dataDir, 'waybill.sqlite'), stage.templateShipmentId, add, events, {
    keepTemplate: true,
  });
  process.stdout.write(`  seeded ${add.toLocaleString('en-US')} shipments with ${events} events each in ${round(seeded.seconds)} s\n`);
  const grown = { ...stage, shipments: count };
  fs.writeFileSync(path.join(dir, 'stage.json'), JSON.stringify(grown));
  return grown;
}

/** The database of `count` shipments: from the cache, or grown from the largest smaller cached stage (copied), or seeded. */
async function stageOf(cacheDir: string, key: string, count: number, events: number): Promise<Stage> {
  const dir = path.join(cacheDir, `${key}-${count}`);
  const meta = path.join(dir, 'stage.json');
  if (fs.existsSync(meta)) {
    process.stdout.write(`  ${count.toLocaleString('en-US')} shipments: cached in ${dir}\n`);
    return JSON.parse(fs.readFileSync(meta, 'utf8')) as Stage;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const smaller = fs
    .readdirSync(cacheDir)
    .filter((name) => name.startsWith(`${key}-`) && fs.existsSync(path.join(cacheDir, name, 'stage.json')))
    .map((name) => Number(name.slice(key.length + 1)))
    .filter((size) => size < count)
    .sort((a, b) => b - a)[0];
  if (smaller === undefined) return firstStage(dir, count, events);
  const from = JSON.parse(fs.readFileSync(path.join(cacheDir, `${key}-${smaller}`, 'stage.json'), 'utf8')) as Stage;
  fs.cpSync(from.dataDir, path.join(dir, 'data'), { recursive: true });
  return grow({ ...from, dataDir: path.join(dir, 'data') }, dir, count, events);
}

/** Random shipment uuids of the stage, for the details requests. */
function sampleUuids(stage: Stage, size: number): string[] {
  const db = new SqliteDatabase(path.join(stage.dataDir, 'waybill.sqlite'), { readonly: true });
  try {
    const max = Number((db.prepare('select max(id) as id from shipments').get() as { id: number }).id);
    const find = db.prepare('select shipment_uuid from shipments where id = ? and shipment_id != ?').pluck();
    const uuids: string[] = [];
    while (uuids.length < size) {
      const uuid = find.get(1 + Math.floor(Math.random() * max), stage.templateShipmentId) as string | undefined;
      if (uuid) uuids.push(uuid);
    }
    return uuids;
  } finally {
    db.close();
  }
}

async function measureStage(
  stage: Stage,
  settings: { durationSeconds: number; warmupSeconds: number },
  rate: number,
): Promise<StageFigures> {
  const uuids = sampleUuids(stage, 20_000);
  const service = await startService({ dataDir: stage.dataDir, adminToken: stage.adminToken, command: 'serve', nodeArgs: profileArgs() });
  try {
    const token = await tokenFor(service.url, stage);
    const headers = { authorization: `Bearer ${token}` };
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssIdle = residentMemory(service.pid);

    // The cursor of page `deep`, by following next_page from the first page.
    const deep = Math.max(2, Math.min(1000, Math.floor(stage.shipments / 20 / 2)));
    let cursor: string | null = null;
    for (let page = 1; page < deep; page++) {
      const query: string = cursor ? `?next_page=${encodeURIComponent(cursor)}` : '?limit=20';
      const res = await json<{ next_page: string | null }>(await fetch(`${service.url}${listRoute}${query}`, { headers }), 200, 'list');
      cursor = res.next_page;
      if (!cursor) throw new Error(`the list ends before page ${deep}`);
    }
    const deepPath = `${listRoute}?next_page=${encodeURIComponent(cursor as string)}`;

    const stream = (next: () => string, ratePerSecond: number, kind: string): OpenLoopStream[] => [
      { ratePerSecond, next: () => ({ kind, method: 'GET', path: next(), headers }) },
    ];
    const details = stream(() => `${detailsRoute}?shipment_uuid=${uuids[Math.floor(Math.random() * uuids.length)]}`, rate, 'details');
    if (settings.warmupSeconds > 0) await openLoop(service.url, details, settings.warmupSeconds);
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, residentMemory(service.pid)?.totalMiB ?? 0);
    }, 500);
    const detailsResult = await openLoop(service.url, details, settings.durationSeconds);
    const listRate = Math.max(10, Math.round(rate / 4));
    const listSeconds = Math.max(2, Math.round(settings.durationSeconds / 2));
    const first = await openLoop(
      service.url,
      stream(() => `${listRoute}?limit=20`, listRate, 'list'),
      listSeconds,
    );
    const deepResult = await openLoop(
      service.url,
      stream(() => deepPath, listRate, 'list deep'),
      listSeconds,
    );
    clearInterval(sampler);
    for (const r of [detailsResult, first, deepResult]) {
      if (r.failures > 0 || r.throttled > 0) throw new Error(`growth: failed requests ${r.failureSamples.join(' | ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    return {
      shipments: stage.shipments,
      fileMiB: Math.round(fs.statSync(path.join(stage.dataDir, 'waybill.sqlite')).size / 2 ** 20),
      details: { p50: detailsResult.p50Ms, p99: detailsResult.p99Ms, achieved: detailsResult.achievedPerSecond },
      listFirst: { p50: first.p50Ms, p99: first.p99Ms },
      listDeep: { page: deep, p50: deepResult.p50Ms, p99: deepResult.p99Ms },
      rssIdle,
      rssLoadPeakMiB: peak,
      rssAfter: residentMemory(service.pid),
    };
  } finally {
    await service.stop();
  }
}

function detailsMeasurement(figures: StageFigures, rate: number): Measurement {
  return {
    label: `details at ${figures.shipments.toLocaleString('en-US')} shipments, ${rate} req/s open loop`,
    url: '',
    requestsPerSecond: figures.details.achieved,
    latencyP50Ms: figures.details.p50,
    latencyP99Ms: figures.details.p99,
    totalRequests: 0,
  };
}

/**
 * Details and list latency as the database grows: GROWTH_SIZES shipments (default 10,000, 100,000 and
 * 1,000,000) in one account, GROWTH_EVENTS events each (default 10), on SQLite. Each size is measured on a
 * freshly started service: details of random shipments open-loop at GROWTH_RATE req/s (default 400), then the
 * first list page and a page deep into the cursor (page 1000, or halfway for small sizes), and the service's
 * resident memory idle, at peak and after the load. Seeded databases are kept in GROWTH_CACHE_DIR (default
 * the temporary directory) between runs; delete it to reseed.
 */
export const growth: Scenario = {
  name: 'growth',
  description: 'details and list latency, and memory, at 10k, 100k and 1M shipments (SQLite)',
  async run(settings): Promise<ScenarioResult> {
    const sizes = (process.env.GROWTH_SIZES ?? '10000,100000,1000000')
      .split(',')
      .map((size) => Number(size.replace(/_/g, '')))
      .sort((a, b) => a - b);
    if (sizes.some((size) => !Number.isInteger(size) || size < 100)) throw new Error('GROWTH_SIZES: whole numbers ≥ 100, comma-separated');
    const events = envInteger('GROWTH_EVENTS', 10);
    const rate = envInteger('GROWTH_RATE', 400);
    const cacheDir = process.env.GROWTH_CACHE_DIR || path.join(os.tmpdir(), 'waybill-bench-cache');
    fs.mkdirSync(cacheDir, { recursive: true });
    const key = cacheKey(events);
    const figures: StageFigures[] = [];
    for (const size of sizes) {
      const stage = await stageOf(cacheDir, key, size, events);
      figures.push(await measureStage(stage, settings, rate));
    }
    const smallest = figures[0];
    const largest = figures[figures.length - 1];
    const flat = (a: number, b: number) => b <= a * FLAT_FACTOR || b - a <= 2;
    const met =
      flat(smallest.details.p99, largest.details.p99) &&
      flat(smallest.listDeep.p99, largest.listDeep.p99) &&
      flat(largest.listFirst.p99, largest.listDeep.p99) &&
      figures.every((f) => (f.rssIdle?.totalMiB ?? Infinity) <= GOAL_IDLE_RSS_MIB);
    return {
      name: 'growth',
      description: growth.description,
      target: detailsMeasurement(largest, rate),
      baseline: detailsMeasurement(smallest, rate),
      ratio: smallest.details.p99 / largest.details.p99,
      goal: 0,
      goalText: `flat (p99 within ${FLAT_FACTOR}× or 2 ms) and idle RSS ≤ ${GOAL_IDLE_RSS_MIB} MB`,
      goalMet: met,
      notes: figures.map(
        (f) =>
          `${f.shipments.toLocaleString('en-US')} shipments (${f.fileMiB.toLocaleString('en-US')} MiB): details p50 ${f.details.p50} / p99 ${f.details.p99} ms; ` +
          `list page 1 p50 ${f.listFirst.p50} / p99 ${f.listFirst.p99} ms, page ${f.listDeep.page} p50 ${f.listDeep.p50} / p99 ${f.listDeep.p99} ms; ` +
          `RSS idle ${f.rssIdle?.totalMiB} MiB (anon ${f.rssIdle?.anonMiB}, file ${f.rssIdle?.fileMiB}), peak ${f.rssLoadPeakMiB} MiB, after load ${f.rssAfter?.totalMiB} MiB (anon ${f.rssAfter?.anonMiB}, file ${f.rssAfter?.fileMiB})`,
      ),
    };
  },
};

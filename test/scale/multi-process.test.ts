import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookableShipment } from '../booking/fixtures.js';
import { Receiver } from '../webhooks/receiver.js';
import { apiClient, type Merchant } from './api-client.js';
import {
  freePort,
  freshPostgresDatabase,
  queryRows,
  redisReachable,
  redisUrl,
  startWaybill,
  stopWaybill,
  type WaybillProcess,
  waitFor,
  waitHealthy,
} from './processes.js';

/**
 * Two API processes (`waybill serve`, each on its own port) and two `waybill worker` processes on one
 * PostgreSQL database and one Redis, all real processes on loopback.
 */
/** It runs in the suite's PostgreSQL pass (DATABASE_URL set), on a fresh database on that server. */
const postgresPass = Boolean(process.env.DATABASE_URL);
const redisUp = postgresPass && (await redisReachable());
const database = redisUp ? await freshPostgresDatabase() : null;
if (!database) {
  const reason = !postgresPass
    ? 'it runs in the pass with DATABASE_URL set'
    : redisUp
      ? 'PostgreSQL is unreachable (DATABASE_URL)'
      : `Redis is unreachable (${redisUrl})`;
  console.warn(`multi-process test skipped: ${reason}`);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(database === null)('2 API and 2 worker processes on PostgreSQL and Redis', () => {
  const dbUrl = database?.url as string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-scale-'));
  const adminToken = `wbadm_${randomBytes(16).toString('hex')}`;
  const prefix = `waybill:test:${randomBytes(6).toString('hex')}:`;
  const env = {
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    WAYBILL_RATE_LIMIT_PREFIX: prefix,
    // One secret key for every process (signed links), as shared configuration; documents are in the database.
    WAYBILL_DATA_DIR: dataDir,
    WAYBILL_SECRET_KEY: randomBytes(32).toString('base64'),
    WAYBILL_ADMIN_TOKEN: adminToken,
    WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true',
    WAYBILL_RATE_LIMIT_PER_SECOND: '40',
  };
  const ports: number[] = [];
  const bases: string[] = [];
  const api: WaybillProcess[] = [];
  const workers: WaybillProcess[] = [];
  const stopped: WaybillProcess[] = [];
  const receiver = new Receiver();

  const startApi = (i: number) => startWaybill(['serve'], { ...env, PORT: String(ports[i]) });
  const startWorker = () => startWaybill(['worker'], { ...env, LOG_LEVEL: 'info' });
  const workerStarted = (proc: WaybillProcess) =>
    waitFor('worker started', () => proc.logs().some((l) => l.msg === 'worker started'), 60_000);

  beforeAll(async () => {
    await receiver.start();
    ports.push(await freePort(), await freePort());
    bases.push(...ports.map((port) => `http://127.0.0.1:${port}`));
    // All four start at once on an empty database: their migrations take turns under PostgreSQL's lock.
    api.push(startApi(0), startApi(1));
    workers.push(startWorker(), startWorker());
    await Promise.all([...api.map((proc, i) => waitHealthy(bases[i], proc, 90_000)), ...workers.map(workerStarted)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...api, ...workers].map((proc) => stopWaybill(proc, 'SIGKILL')));
    await receiver.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('holds one 40 requests per second budget for an account across both API processes', async () => {
    const merchant = await apiClient(bases[0], adminToken).merchant();
    // About 100 requests a second, alternating between the processes, from half a second into a second for 4 s.
    // A window's 2xx are its first 40 hits, at its start; nothing is sent in the last 50 ms before a window
    // ends, so a call counts in the window it was sent in unless it took over 50 ms to reach the limiter.
    const start = Math.ceil(Date.now() / 1000) * 1000 + 500;
    await sleep(start - Date.now());
    const calls: Array<Promise<{ at: number; api: number; status: number; remaining: number }>> = [];
    for (let i = 0; Date.now() < start + 4000; i++) {
      const at = Date.now();
      if (at % 1000 >= 950) {
        await sleep(1000 - (at % 1000));
        continue;
      }
      calls.push(
        fetch(`${bases[i % 2]}/v5/carrier-configs/`, { headers: { authorization: `Bearer ${merchant.token}` } }).then(async (res) => {
          await res.arrayBuffer();
          return { at, api: i % 2, status: res.status, remaining: Number(res.headers.get('ratelimit-remaining')) };
        }),
      );
      await sleep(10);
    }
    const results = await Promise.all(calls);
    expect(results.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const ok = results.filter((r) => r.status === 200);
    const firstFull = start / 1000 + 0.5;
    const perWindow = [0, 1, 2, 3].map((w) => ok.filter((r) => Math.floor(r.at / 1000) === firstFull + w).length);
    for (const count of perWindow) expect(count, `2xx per one-second window: ${perWindow}`).toBeGreaterThanOrEqual(36);
    for (const count of perWindow) expect(count, `2xx per one-second window: ${perWindow}`).toBeLessThanOrEqual(44);
    // Both processes served and both refused: one budget, drawn from by each.
    for (const which of [0, 1]) {
      expect(ok.filter((r) => r.api === which).length).toBeGreaterThan(20);
      expect(results.filter((r) => r.api === which && r.status === 429).length).toBeGreaterThan(20);
    }
    // Exactly: a window's count runs 40, 39, … once; two budgets would show each remaining value twice a window.
    const windows = new Set(results.map((r) => Math.floor(r.at / 1000))).size;
    for (let remaining = 0; remaining < 40; remaining++) {
      expect(ok.filter((r) => r.remaining === remaining).length).toBeLessThanOrEqual(windows);
    }
  }, 30_000);

  it('runs every job once and loses nothing through a rolling restart of one API process and one worker', async () => {
    const client = apiClient(bases[1], adminToken);
    const merchant: Merchant = await client.merchant({
      features: ['booking'],
      carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }],
      webhookUrl: receiver.url,
    });
    // What a client of a rolling deploy does: every POST carries an Idempotency-Key, and a request the service
    // did not run (connection refused or closed before an answer, or the drain's 503 with Retry-After) is sent
    // again with the same key, to the other process as a load balancer would.
    // A failed accepted request is one the service ran whose client did not get its outcome: an error answer,
    // or an answer lost with its connection (the retry is then answered from the stored response,
    // `idempotent-replayed`, or refused because the first attempt's change exists). There must be none.
    const failed: string[] = [];
    let resent = 0;
    const send = async (i: number, pathname: string, body: unknown): Promise<{ status: number; json: any }> => {
      const key = randomUUID();
      for (let attempt = 0; attempt < 30; attempt++) {
        let res: Response;
        let json: any;
        try {
          res = await fetch(`${bases[(i + attempt) % 2]}${pathname}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${merchant.token}`, 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify(body),
          });
          json = await res.json();
        } catch {
          resent++;
          await sleep(100);
          continue;
        }
        const retryAfter = res.headers.get('retry-after') !== null;
        if ((res.status === 503 && json?.api_response === '500' && retryAfter) || (res.status === 409 && retryAfter)) {
          resent++;
          await sleep(100);
          continue;
        }
        if (attempt > 0 && res.headers.get('idempotent-replayed') === 'true')
          failed.push(`${pathname} ${key}: answer lost, replayed on retry`);
        return { status: res.status, json };
      }
      failed.push(`${pathname} ${key}: no answer in 30 attempts`);
      return { status: 0, json: null };
    };

    const acknowledged: string[] = [];
    const tracked: string[] = [];
    const booked: string[] = [];
    let next = 0;
    let loading = true;
    // Three clients, each creating shipments in turn on both processes; every third also books one.
    const lane = async () => {
      while (loading) {
        const i = next++;
        const shipmentId = `MP-${i}`;
        const bookable = i % 3 === 2;
        const body = bookable
          ? bookableShipment(shipmentId, { shipping_service: 'sandbox_delayed_label' })
          : { shipment_id: shipmentId, carrier_reference: 'sb', tracking_number: `WB4${String(100_000 + i)}` };
        const created = await send(i, '/v5/shipment/', body);
        if (created.status !== 200) {
          failed.push(`create ${shipmentId}: ${created.status} ${JSON.stringify(created.json)}`);
          continue;
        }
        acknowledged.push(shipmentId);
        if (!bookable) tracked.push(shipmentId);
        else {
          const booking = await send(i + 1, '/v5/booking/', { shipment_uuid: created.json.data.shipment_uuid, carrier_reference: 'sb' });
          if (booking.status === 299) booked.push(shipmentId);
          else failed.push(`booking ${shipmentId}: ${booking.status} ${JSON.stringify(booking.json)}`);
        }
        await sleep(100);
      }
    };
    const lanes = [lane(), lane(), lane()];

    // The rolling restart: one API process and one worker get SIGTERM under load, drain, and start again.
    await sleep(2500);
    const [oldApi, oldWorker] = [api[0], workers[0]];
    const [apiExit, workerExit] = await Promise.all([stopWaybill(oldApi), stopWaybill(oldWorker)]);
    stopped.push(oldApi, oldWorker);
    expect(apiExit).toBe(0);
    expect(workerExit).toBe(0);
    const beforeRestart = acknowledged.length;
    api[0] = startApi(0);
    workers[0] = startWorker();
    await Promise.all([waitHealthy(bases[0], api[0], 90_000), workerStarted(workers[0])]);
    await sleep(2000);
    loading = false;
    await Promise.all(lanes);
    expect(failed).toEqual([]);
    expect(acknowledged.length, `${resent} requests sent again`).toBeGreaterThan(beforeRestart);
    expect(booked.length).toBeGreaterThan(3);
    expect(tracked.length).toBeGreaterThan(10);

    // Every acknowledged create is stored.
    const [account] = await queryRows<{ id: number }>(dbUrl, 'select id from accounts where account_uuid = $1', [merchant.accountUuid]);
    const stored = await queryRows<{ shipment_id: string; tracking_number: string | null }>(
      dbUrl,
      'select shipment_id, tracking_number from shipments where account_id = $1',
      [account.id],
    );
    const storedIds = new Set(stored.map((r) => r.shipment_id));
    expect(acknowledged.filter((id) => !storedIds.has(id))).toEqual([]);

    // Then every job, poll and delivery completes.
    const progress = async () => {
      const jobs = await queryRows(dbUrl, "select kind, status, attempts, locked_by, run_at, last_error from jobs where status <> 'done'");
      const pending = await queryRows(
        dbUrl,
        `select shipment_id, status, next_poll_at, poll_failures from shipments where account_id = $1 and tracking_number like 'WB4%' and status <> 'delivered'`,
        [account.id],
      );
      const unready = await queryRows(dbUrl, "select id, status from documents where status <> 'ready'");
      const received = new Set(receiver.received.map((r) => r.headers['webhook-id']));
      const undelivered = (await queryRows<{ event_id: string; type: string }>(dbUrl, 'select event_id, type from webhook_events')).filter(
        (e) => !received.has(e.event_id),
      );
      return { jobs, pending, unready, undelivered };
    };
    const settled = async () => Object.values(await progress()).every((rows) => rows.length === 0);
    await waitFor('jobs, polls and deliveries to complete', settled, 45_000).catch(async (error) => {
      throw new Error(`${error.message}; still open: ${JSON.stringify(await progress()).slice(0, 3000)}`);
    });

    // No job ran twice: each was claimed once and finished.
    const jobs = await queryRows<{ kind: string; status: string; attempts: number }>(dbUrl, 'select kind, status, attempts from jobs');
    expect(jobs.filter((j) => j.status !== 'done' || j.attempts !== 1)).toEqual([]);

    // Each label rendered once: one document per booking, ready, its file stored, announced once.
    const documents = await queryRows<{ id: number; shipment_id: string; file_key: string }>(
      dbUrl,
      'select d.id, s.shipment_id, d.file_key from documents d join shipments s on s.id = d.shipment_row_id where d.account_id = $1',
      [account.id],
    );
    // (A booking whose answer was lost to the restart may have a label too: the database is the reference.)
    expect(new Set(documents.map((d) => d.shipment_id)).size).toBe(documents.length);
    expect(booked.filter((id) => !documents.some((d) => d.shipment_id === id))).toEqual([]);
    const storedFiles = new Set(
      (await queryRows<{ file_key: string }>(dbUrl, 'select file_key from document_files')).map((f) => f.file_key),
    );
    expect(documents.filter((d) => !storedFiles.has(d.file_key))).toEqual([]);
    const events = await queryRows<{ event_id: string; type: string; shipment_id: string; refs: string }>(
      dbUrl,
      'select e.event_id, e.type, s.shipment_id, e.refs from webhook_events e join shipments s on s.id = e.shipment_row_id where e.account_id = $1',
      [account.id],
    );
    expect(jobs.filter((j) => j.kind === 'label.render')).toHaveLength(documents.length);
    const ready = events.filter((e) => e.type === 'document.ready').map((e) => JSON.parse(e.refs).document_row_id);
    expect(ready.sort()).toEqual(documents.map((d) => d.id).sort());

    // Every poll happened: each tracked shipment was delivered, with its events, and announced once.
    const eventCounts = await queryRows<{ shipment_id: string; n: number }>(
      dbUrl,
      'select s.shipment_id, count(t.id) as n from shipments s left join tracking_events t on t.shipment_row_id = s.id where s.account_id = $1 group by s.shipment_id',
      [account.id],
    );
    const trackedEvents = new Map(eventCounts.map((r) => [r.shipment_id, r.n]));
    for (const id of [...tracked, ...booked]) expect(trackedEvents.get(id), id).toBeGreaterThan(0);
    const delivered = events.filter((e) => e.type === 'shipment.delivered').map((e) => e.shipment_id);
    const storedTracked = stored.filter((r) => r.tracking_number?.startsWith('WB4')).map((r) => r.shipment_id);
    expect(tracked.every((id) => storedTracked.includes(id))).toBe(true);
    expect(delivered.sort()).toEqual(storedTracked.sort());

    // Every webhook event was delivered exactly once, and nothing else was.
    const byId = new Map<string, number>();
    for (const r of receiver.received) byId.set(r.headers['webhook-id'] as string, (byId.get(r.headers['webhook-id'] as string) ?? 0) + 1);
    const allEvents = await queryRows<{ event_id: string }>(dbUrl, 'select event_id from webhook_events');
    expect([...byId.keys()].sort()).toEqual(allEvents.map((e) => e.event_id).sort());
    expect([...byId.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(
      events
        .filter((e) => e.type === 'shipment.created')
        .map((e) => e.shipment_id)
        .sort(),
    ).toEqual([...storedIds].sort());
  }, 150_000);
});

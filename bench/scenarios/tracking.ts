import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pino from 'pino';
import type { CarrierAdapter, TrackResult } from '../../src/carriers/carrier.js';
import { loadConfig } from '../../src/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { PollLeasesRepository } from '../../src/db/repositories/poll-leases.repository.js';
import type { PollClaim } from '../../src/db/repositories/shipments.repository.js';
import { ShipmentsRepository } from '../../src/db/repositories/shipments.repository.js';
import { toNewEvents } from '../../src/domain/shipments/keyed-answer.js';
import { CARRIER_REFERENCE, envInteger, latencyMeasurement, percentile, round, shipmentBody } from '../fixtures.js';
import type { Measurement, Scenario, ScenarioResult } from '../harness.js';

const GOAL_EVENTS_PER_SECOND = 20_000;
const GOAL_CLAIM_P99_MS = 50;
/** The poller's defaults (src/jobs/tracking-poller.ts). */
const CLAIM_BATCH = 200;
const CARRIER_BATCH = 50;
const PER_CARRIER_CONCURRENCY = 4;
const LEASE_MS = 120_000;
/** Sandbox stories that answer with events: in transit, out for delivery, delivered, returned, failed attempt. */
const PREFIXES = ['WB2', 'WB3', 'WB4', 'WB5', 'WB6'];

const DAY_MS = 86_400_000;

function silentContext(dataDir: string): Promise<AppContext> {
  const config = loadConfig({ WAYBILL_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  return createContext(config, { logger: pino({ level: 'silent' }) });
}

/** Runs tasks with at most `limit` in flight, as the poller does per carrier. */
async function runLimited(tasks: Array<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) await tasks[next++]();
    }),
  );
}

/**
 * TRACKING_SHIPMENTS tracked shipments (default 2,000; sandbox numbers WB2…WB6, tracked for 20 days) created
 * through ShipmentsService on a temporary SQLite database, read with duePollsOf, answered by the sandbox
 * adapter in batches of 50 (not timed), then stored through TrackingService.applyBatch as the poller does:
 * one call (one transaction) per batch of 50, four in flight. Baseline: the same event rows inserted with
 * one prepared better-sqlite3 statement in one transaction into an empty copy of the schema.
 */
async function runStore(): Promise<ScenarioResult> {
  const count = envInteger('TRACKING_SHIPMENTS', 2_000);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-tracking-'));
  const context = await silentContext(path.join(workDir, 'data'));
  try {
    const account = await context.accounts.create({ name: 'bench' });
    const { id: accountId } = await context.database.db
      .selectFrom('accounts')
      .select('id')
      .where('account_uuid', '=', account.account_uuid)
      .executeTakeFirstOrThrow();
    await context.carrierConfigs.add(accountId, { carrier_reference: CARRIER_REFERENCE, carrier_id: 'sandbx', booking: ['outbound'] });
    const caller = { accountId, accountUuid: account.account_uuid, clientId: 'bench', features: new Set<string>(), strictFields: false };
    const runId = randomBytes(3).toString('hex');
    const createStarted = performance.now();
    for (let i = 0; i < count; i++) await context.shipments.create(caller, shipmentBody(runId, i, PREFIXES[i % PREFIXES.length]) as never);
    const createSeconds = (performance.now() - createStarted) / 1000;
    // Tracking began 20 days ago, so the sandbox tells each story to its end; the last update is recent.
    const now = new Date();
    await context.database.db
      .updateTable('shipments')
      .set({ tracking_started_at: new Date(now.getTime() - 20 * DAY_MS).toISOString(), last_tracking_update_at: now.toISOString() })
      .execute();

    const claimed: PollClaim[] = await context.repos.shipments.duePollsOf(accountId, CARRIER_REFERENCE, now.toISOString(), count);
    if (claimed.length !== count) throw new Error(`claimed ${claimed.length} of ${count} shipments`);

    const adapter = context.carriers.get('sandbx') as CarrierAdapter;
    const batches: Array<{ rows: PollClaim[]; results: TrackResult[] }> = [];
    const trackStarted = performance.now();
    for (let i = 0; i < claimed.length; i += CARRIER_BATCH) {
      const rows = claimed.slice(i, i + CARRIER_BATCH);
      const results = await adapter.track(
        rows.map((row) => ({
          tracking_number: row.tracking_number as string,
          first_polled_at: row.tracking_started_at as string,
          attempt: 0,
        })),
        {},
        { now },
      );
      batches.push({ rows, results });
    }
    const trackSeconds = (performance.now() - trackStarted) / 1000;

    // Normalization alone (the part of apply that does not touch the database), for the breakdown.
    let normalized = 0;
    const normalizeStarted = performance.now();
    for (const { rows, results } of batches) {
      results.forEach((result, i) => {
        if (result.status === 'ok') normalized += toNewEvents(adapter, rows[i].tracking_number as string, result.events).rows.length;
      });
    }
    const normalizeSeconds = (performance.now() - normalizeStarted) / 1000;

    // As TrackingPoller.pollBatch stores them: one applyBatch (one transaction) per carrier batch, four in flight.
    const latencies: number[] = [];
    const storeStarted = performance.now();
    await runLimited(
      batches.map(({ rows, results }) => async () => {
        const begin = performance.now();
        await context.tracking.applyBatch(rows, results, { adapter });
        latencies.push(performance.now() - begin);
      }),
      PER_CARRIER_CONCURRENCY,
    );
    const storeSeconds = (performance.now() - storeStarted) / 1000;
    const stored = Number((await sql<{ n: number }>`select count(*) as n from tracking_events`.execute(context.database.db)).rows[0].n);
    if (stored !== normalized) throw new Error(`stored ${stored} events, the carrier answers held ${normalized}`);
    const target = latencyMeasurement(
      `TrackingService.applyBatch (events/s; latency per batch of ${CARRIER_BATCH})`,
      latencies,
      stored,
      storeSeconds,
    );

    // Baseline: the stored rows, inserted raw into an empty schema.
    const rows = await context.database.db.selectFrom('tracking_events').selectAll().orderBy('id').execute();
    const shipments = await context.database.db.selectFrom('shipments').selectAll().execute();
    const baseDir = path.join(workDir, 'baseline');
    const handle = openDatabase({ dataDir: baseDir, databaseUrl: null });
    await migrateToLatest(handle.db);
    await handle.close();
    const raw = new SqliteDatabase(path.join(baseDir, 'waybill.sqlite'));
    let rawSeconds: number;
    try {
      raw.pragma('journal_mode = WAL');
      raw.pragma('synchronous = NORMAL');
      raw.pragma('foreign_keys = ON');
      const accounts = await context.database.db.selectFrom('accounts').selectAll().execute();
      const copy = (table: string, list: Array<Record<string, unknown>>) => {
        if (list.length === 0) return;
        const columns = Object.keys(list[0]);
        const insert = raw.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`);
        raw.transaction(() => {
          for (const row of list) insert.run(row);
        })();
      };
      copy('accounts', accounts);
      copy('orders', await context.database.db.selectFrom('orders').selectAll().execute());
      copy('shipments', shipments);
      const insert = raw.prepare(
        `insert into tracking_events (shipment_row_id, dedupe_key, origin, event, event_key, phase_key, time_text, time_utc, timezone,
           carrier_name, location, additional_info, sequence, created_at)
         values (@shipment_row_id, @dedupe_key, @origin, @event, @event_key, @phase_key, @time_text, @time_utc, @timezone,
           @carrier_name, @location, @additional_info, @sequence, @created_at)`,
      );
      const withoutIds = rows.map(({ id: _id, ...row }) => row);
      const rawStarted = performance.now();
      raw.transaction(() => {
        for (const row of withoutIds) insert.run(row);
      })();
      rawSeconds = (performance.now() - rawStarted) / 1000;
    } finally {
      raw.close();
    }
    const baseline: Measurement = {
      label: 'raw better-sqlite3 insert, one transaction',
      url: '',
      requestsPerSecond: rows.length / rawSeconds,
      latencyP50Ms: 0,
      latencyP99Ms: 0,
      totalRequests: rows.length,
    };
    return {
      name: trackingStore.name,
      description: trackingStore.description,
      target,
      baseline,
      ratio: target.requestsPerSecond / baseline.requestsPerSecond,
      goal: 0,
      goalText: `≥ ${GOAL_EVENTS_PER_SECOND.toLocaleString('en-US')} events/s`,
      goalMet: target.requestsPerSecond >= GOAL_EVENTS_PER_SECOND,
      notes: [
        `${count.toLocaleString('en-US')} shipments, ${stored.toLocaleString('en-US')} events stored in ${round(storeSeconds, 2)} s` +
          ` (${Math.round(stored / storeSeconds).toLocaleString('en-US')} events/s, ${Math.round(count / storeSeconds).toLocaleString('en-US')} shipments/s);` +
          ` raw insert ${round(rawSeconds * 1000)} ms`,
        `breakdown: toNewEvents alone ${Math.round(normalized / normalizeSeconds).toLocaleString('en-US')} events/s (${round(normalizeSeconds, 2)} s, ${round((normalizeSeconds / storeSeconds) * 100)}% of the store time);` +
          ` sandbox adapter (not in the figure) ${Math.round(normalized / trackSeconds).toLocaleString('en-US')} events/s;` +
          ` seeding through ShipmentsService.create ${Math.round(count / createSeconds).toLocaleString('en-US')} creates/s`,
      ],
    };
  } finally {
    await context.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * CLAIM_SHIPMENTS tracked shipments (default 1,000,000) of CLAIM_CONFIGURATIONS carrier configurations
 * (default 100), of which CLAIM_DUE (default 1%) are due, written straight into a migrated SQLite database;
 * then rounds as the poller's until the due set is drained, timed per round:
 * ShipmentsRepository.dueConfigurations(now, 200) and, for each configuration found, its lease taken, duePollsOf(…)
 * of its share of 200, their next polls moved in one statement (a poll's answer moves it), the lease given back.
 * Baseline: `select count(*) from shipments` on the same table, a full scan.
 */
async function runClaim(): Promise<ScenarioResult> {
  const count = envInteger('CLAIM_SHIPMENTS', 1_000_000);
  const due = envInteger('CLAIM_DUE', Math.max(1, Math.round(count / 100)));
  const configurations = envInteger('CLAIM_CONFIGURATIONS', 100);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-claim-'));
  const dataDir = path.join(workDir, 'data');
  const handle = openDatabase({ dataDir, databaseUrl: null });
  try {
    await migrateToLatest(handle.db);
    const now = new Date();
    const nowText = now.toISOString();
    const seedStarted = performance.now();
    const raw = new SqliteDatabase(path.join(dataDir, 'waybill.sqlite'));
    try {
      raw.pragma('synchronous = OFF');
      raw.pragma('cache_size = -524288');
      const accountId = Number(
        raw
          .prepare('insert into accounts (account_uuid, name, features, created_at, updated_at) values (?, ?, ?, ?, ?)')
          .run(randomUUID(), 'bench', '[]', nowText, nowText).lastInsertRowid,
      );
      const insert = raw.prepare(
        `insert into shipments (account_id, shipment_uuid, shipment_id, tracking_number, carrier_reference, carrier_id, status, phase_key,
           source, tracking_page_reference, body, created_at, updated_at, tracking_started_at, next_poll_at, last_tracking_update_at)
         values (?, ?, ?, ?, ?, 'sandbx', 'active', 'in_transit', 'api', ?, ?, ?, ?, ?, ?, ?)`,
      );
      // No trigger writes a shipment's version row on SQLite (0030): the repository does, and so does this seed.
      const insertVersion = raw.prepare('insert into shipment_versions (shipment_row_id, version) values (?, 0)');
      const body = JSON.stringify({ shipment_reference: 'REF', tags: ['bench'], weight: { amount: 1850 }, item_count: 4 });
      const started = new Date(now.getTime() - 2 * DAY_MS).toISOString();
      const every = count / due;
      const chunk = raw.transaction((from: number, to: number) => {
        for (let i = from; i < to; i++) {
          const isDue = Math.floor(i / every) !== Math.floor((i + 1) / every);
          // Due: up to an hour late. Not due: within the next two hours, beyond any lease.
          const offset = isDue ? -Math.floor(Math.random() * 3_600_000) - 1 : LEASE_MS + Math.floor(Math.random() * 7_200_000);
          const n = String(i).padStart(8, '0');
          const { lastInsertRowid } = insert.run(
            accountId,
            randomUUID(),
            `S-${n}`,
            `WB2${n}`,
            `${CARRIER_REFERENCE}-${i % configurations}`,
            randomBytes(16).toString('base64url'),
            body,
            started,
            started,
            started,
            new Date(now.getTime() + offset).toISOString(),
            started,
          );
          insertVersion.run(lastInsertRowid);
        }
      });
      for (let from = 0; from < count; from += 50_000) chunk(from, Math.min(count, from + 50_000));
      raw.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      raw.close();
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const db = handle.db;
    const dueNow = Number(
      (await sql<{ n: number }>`select count(*) as n from shipments where next_poll_at <= ${nowText}`.execute(db)).rows[0].n,
    );
    const plan = async (query: string) =>
      (await sql.raw<{ detail: string }>(`explain query plan ${query}`).execute(db)).rows.map((r) => r.detail).join('; ');
    const claimPlan = await plan(
      `select id from shipments where account_id = 1 and carrier_reference = '${CARRIER_REFERENCE}-0' and next_poll_at <= '${nowText}' order by next_poll_at limit 200`,
    );
    const countPlan = await plan('select count(*) from shipments');
    const walkPlan = await plan(
      `select n.id from shipments n where n.next_poll_at is not null and n.account_id = 1 and n.carrier_reference > '${CARRIER_REFERENCE}-0' order by n.account_id, n.carrier_reference, n.next_poll_at limit 1`,
    );

    const countLatencies: number[] = [];
    let total = 0;
    const countStarted = performance.now();
    for (let i = 0; i < 5; i++) {
      const begin = performance.now();
      total = Number((await sql<{ n: number }>`select count(*) as n from shipments`.execute(db)).rows[0].n);
      countLatencies.push(performance.now() - begin);
    }
    const countSeconds = (performance.now() - countStarted) / 1000;
    if (total !== count) throw new Error(`the table holds ${total} shipments, not ${count}`);

    // The due set picked with no index: what a claim would cost if it scanned the rows.
    const scanLatencies: number[] = [];
    for (let i = 0; i < 3; i++) {
      const begin = performance.now();
      await sql`select id from shipments not indexed where next_poll_at <= ${nowText} order by next_poll_at limit ${CLAIM_BATCH}`.execute(
        db,
      );
      scanLatencies.push(performance.now() - begin);
    }
    const scanP50 = percentile(
      [...scanLatencies].sort((a, b) => a - b),
      0.5,
    );

    const repository = new ShipmentsRepository(db, 'sqlite');
    const leases = new PollLeasesRepository(db);
    // The walk alone, over every configuration (each has polls due).
    const walkLatencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const begin = performance.now();
      await repository.dueConfigurations(nowText, CLAIM_BATCH);
      walkLatencies.push(performance.now() - begin);
    }
    const walkP50 = percentile(
      [...walkLatencies].sort((a, b) => a - b),
      0.5,
    );
    const lease = new Date(now.getTime() + LEASE_MS).toISOString();
    const latencies: number[] = [];
    let claimed = 0;
    const claimStarted = performance.now();
    for (;;) {
      const begin = performance.now();
      const found = (await repository.dueConfigurations(nowText, CLAIM_BATCH)).due;
      if (found.length === 0) break;
      const share = Math.ceil(CLAIM_BATCH / found.length);
      for (const configuration of found) {
        // As the poller: the configuration's lease, its due polls read, their next polls moved (the answers'
        // writes do that, a statement each; here one for the lot), the lease given back.
        const { account_id: accountId, carrier_reference: reference } = configuration;
        if (!(await leases.acquire(accountId, reference, 'bench', nowText, lease))) throw new Error(`${reference}: lease held`);
        const rows = await repository.duePollsOf(accountId, reference, nowText, share);
        await repository.reschedulePolls(
          rows.map((row) => row.id),
          [lease],
        );
        await leases.release(accountId, reference, 'bench');
        claimed += rows.length;
      }
      latencies.push(performance.now() - begin);
    }
    const claimSeconds = (performance.now() - claimStarted) / 1000;
    if (claimed !== dueNow) throw new Error(`claimed ${claimed} of ${dueNow} due shipments`);
    const target = latencyMeasurement(
      `dueConfigurations(…, ${CLAIM_BATCH}) and their leases, duePollsOf and next polls moved (rounds/s; latency per round)`,
      latencies,
      latencies.length,
      claimSeconds,
    );
    const baseline = latencyMeasurement('select count(*) from shipments (runs/s)', countLatencies, countLatencies.length, countSeconds);
    const sortedClaims = [...latencies].sort((a, b) => a - b);
    return {
      name: trackingClaim.name,
      description: trackingClaim.description,
      target,
      baseline,
      ratio: target.requestsPerSecond / baseline.requestsPerSecond,
      goal: 0,
      goalText: `p99 ≤ ${GOAL_CLAIM_P99_MS} ms per round`,
      goalMet: target.latencyP99Ms <= GOAL_CLAIM_P99_MS,
      notes: [
        `${count.toLocaleString('en-US')} shipments of ${configurations} configurations (${dueNow.toLocaleString('en-US')} due) seeded in ${round(seedSeconds)} s;` +
          ` ${latencies.length} rounds took ${round(claimSeconds * 1000)} ms in all to claim ${claimed.toLocaleString('en-US')}` +
          ` (max ${round(sortedClaims[sortedClaims.length - 1] ?? 0, 2)} ms per round); count(*) p50 ${round(
            percentile(
              [...countLatencies].sort((a, b) => a - b),
              0.5,
            ),
            2,
          )} ms;` +
          ` the walk over the ${configurations} configurations alone p50 ${round(walkP50, 2)} ms;` +
          ` the due set's select without an index (NOT INDEXED, a scan of the rows) p50 ${round(scanP50)} ms`,
        `slowest rounds (round number: ms): ${latencies
          .map((ms, i) => [i + 1, ms] as const)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([i, ms]) => `#${i}: ${round(ms, 1)}`)
          .join(', ')}`,
        `plans: claim "${claimPlan}"; a step of the walk "${walkPlan}"; count "${countPlan}"`,
      ],
    };
  } finally {
    await handle.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

export const trackingStore: Scenario = {
  name: 'tracking-store',
  description:
    'sandbox carrier answers stored through TrackingService.applyBatch, batched as the poller does, vs a raw insert of the same rows',
  run: () => runStore(),
};

export const trackingClaim: Scenario = {
  name: 'tracking-claim',
  description:
    'rounds of dueConfigurations(now, 200) and, per configuration, its lease, duePollsOf and next polls moved until the due 1% of CLAIM_SHIPMENTS (default 1,000,000) tracked shipments are claimed vs select count(*) on the table',
  run: () => runClaim(),
};

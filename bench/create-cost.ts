/**
 * What one create costs the database (`node --import tsx bench/create-cost.ts`): shipments made by
 * ShipmentsService.create (the create endpoint's code, without HTTP) on a fresh embedded database, each
 * statement timed, and the pages each commit wrote to the log counted by the table or index they belong to
 * (read from the log's frames, named by SQLite's `dbstat`). `CREATE_COST_SHIPMENTS` sets how many (3,000);
 * `CREATE_COST_TOGETHER` how many are made at once while the pages are counted (1; several share a commit, as
 * concurrent requests do). `CREATE_COST_SYNCHRONOUS` sets WAYBILL_SQLITE_SYNCHRONOUS (`full`, the default, waits for
 * the log's sync on the thread pool before a create returns; `normal` does not sync), and `CREATE_COST_IDLE_MS`
 * puts the thread to sleep that long after each timed create (0: none; fractions of a millisecond too), as a
 * service's thread sleeps between requests: what a create costs when it starts on a thread that was idle. The time
 * printed is the run's less the sleeps asked for; the CPU is over the timed creates: the process's, user and system
 * apart (its other threads, the checkpointer's among them, work on while the main thread sleeps), and the main
 * thread's alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import type { ShipmentWrite } from '../src/schemas/shipment-input.schemas.js';
import { shipmentBody } from './fixtures.js';
import { mainThreadCpuMs } from './harness.js';
import { addMerchant } from './merchants.js';
import { StatementTimes } from './sql-timing.js';

const shipments = Number(process.env.CREATE_COST_SHIPMENTS ?? 3000);
const warmup = 500;
const together = Number(process.env.CREATE_COST_TOGETHER ?? 1);
const synchronous = process.env.CREATE_COST_SYNCHRONOUS ?? 'full';
const idleMs = Number(process.env.CREATE_COST_IDLE_MS ?? 0);
if (!(idleMs >= 0)) throw new Error(`CREATE_COST_IDLE_MS: not a number of milliseconds: ${process.env.CREATE_COST_IDLE_MS}`);
// The thread sleeps in the kernel (a futex wait that nothing ends early), not in a timer of the event loop.
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-create-cost-'));
const times = new StatementTimes();
const context = await createContext(
  loadConfig({ WAYBILL_DATA_DIR: dataDir, LOG_LEVEL: 'silent', WAYBILL_SQLITE_SYNCHRONOUS: synchronous }),
  { logger: pino({ level: 'silent' }) },
);
try {
  const { caller } = await addMerchant(context, 'create cost');
  const create = (runId: string, i: number) =>
    context.shipments.create(caller, shipmentBody(runId, i) as ShipmentWrite & { shipment_id: string });
  for (let i = 0; i < warmup; i++) await create('warm', i);

  times.start();
  const mainCpu = mainThreadCpuMs(process.pid);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < shipments; i++) {
    await create('run', i);
    if (idleMs > 0) Atomics.wait(sleeper, 0, 0, idleMs);
  }
  const elapsed = performance.now() - started - shipments * idleMs;
  const used = process.cpuUsage(cpu);
  const mainAfter = mainThreadCpuMs(process.pid);
  // In Linux's ticks of 10 ms: over a run's thousands of creates within about 1%; unknown where there is no /proc.
  const mainUsed = mainCpu === null || mainAfter === null ? null : (mainAfter - mainCpu) * 1000;
  times.stop();
  const perCreate = (micros: number) => (micros / shipments).toFixed(0);
  console.log(
    `${shipments} creates (synchronous ${synchronous}, ${idleMs} ms asleep after each): ${perCreate(elapsed * 1000)} µs each ` +
      `less the sleeps, CPU ${perCreate(used.user + used.system)} µs (user ${perCreate(used.user)}, system ${perCreate(used.system)}), ` +
      `the main thread ${mainUsed === null ? 'unknown' : `${perCreate(mainUsed)} µs`}`,
  );
  console.log('statements, per create:');
  for (const line of times.report(shipments, 12)) console.log(`  ${line}`);

  // The log's frames each commit adds: mxFrame of the log index's header, the page number in each frame's header.
  const file = path.join(dataDir, 'waybill.sqlite');
  const pageSize = 4096;
  const lastFrame = () => fs.readFileSync(`${file}-shm`).subarray(0, 32).readUInt32LE(16);
  const names = new Map<number, string>();
  const readNames = () => {
    const reader = new Database(file, { readonly: true });
    for (const page of reader.prepare('select name, pageno from dbstat').all() as Array<{ name: string; pageno: number }>) {
      names.set(page.pageno, page.name);
    }
    reader.close();
  };
  readNames();
  const byTree = new Map<string, number>();
  const counted = 200;
  let frames = 0;
  for (let i = 0; i < counted; i++) {
    let before = lastFrame();
    await Promise.all(Array.from({ length: together }, (_, j) => create('pages', i * together + j)));
    const after = lastFrame();
    // A checkpoint restarted the log: the commit's frames are at its start.
    if (after < before) before = 0;
    const log = fs.readFileSync(`${file}-wal`);
    const pages: number[] = [];
    for (let frame = before + 1; frame <= after; frame++) pages.push(log.readUInt32BE(32 + (frame - 1) * (24 + pageSize)));
    // Pages the commit added (a split, the file grown) are named once it is visible.
    if (pages.some((page) => !names.has(page))) readNames();
    for (const page of pages) {
      const name = names.get(page) ?? '(freed again)';
      byTree.set(name, (byTree.get(name) ?? 0) + 1);
      frames++;
    }
  }
  const made = counted * together;
  console.log(`pages written to the log per create, ${together} at a time: ${(frames / made).toFixed(1)}`);
  for (const [name, count] of [...byTree].sort((a, b) => b[1] - a[1])) console.log(`  ${(count / made).toFixed(2).padStart(5)} ${name}`);
} finally {
  await context.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

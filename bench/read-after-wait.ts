/**
 * What a point read costs right after the process has waited (`node --import tsx bench/read-after-wait.ts`): an
 * order read by id over a seeded database, after a write's commit, in four ways alternated over 7 rounds of 2,000:
 * at once, after the log's sync on the thread pool (what a write request waits for), after a 1 ms timer, and after
 * `setImmediate` (a turn of the event loop, no sleep). The median round of each, in µs a read. A read after the
 * thread slept costs what one after the sync does: timings of statements that follow an await are not SQLite's alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { seedMerchants } from './merchants.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-read-after-wait-'));
try {
  await seedMerchants({ dataDir, accounts: 2, shipmentsPerAccount: 50, eventsPerShipment: 10 });
  const file = path.join(dataDir, 'waybill.sqlite');
  const db = new Database(file);
  db.pragma('synchronous = NORMAL');
  db.pragma('mmap_size = 268435456');
  const orderIds = db.prepare('select id from orders').pluck().all() as number[];
  const shipmentIds = db.prepare('select id from shipments').pluck().all() as number[];
  const read = db.prepare('select * from orders where id = ?');
  const write = db.prepare('update shipments set updated_at = ? where id = ?');
  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  const fd = fs.openSync(`${file}-wal`, 'r');
  const waits: Record<string, () => Promise<void> | null> = {
    'at once': () => null,
    'after the sync': () => new Promise((resolve, reject) => fs.fdatasync(fd, (error) => (error ? reject(error) : resolve()))),
    'after a 1 ms timer': () => new Promise((resolve) => setTimeout(resolve, 1)),
    'after setImmediate': () => new Promise((resolve) => setImmediate(resolve)),
  };
  const rounds: Record<string, number[]> = Object.fromEntries(Object.keys(waits).map((name) => [name, []]));
  for (let round = 0; round < 7; round++) {
    for (const [name, wait] of Object.entries(waits)) {
      let spent = 0n;
      for (let i = 0; i < 2000; i++) {
        begin.run();
        write.run(String(i), shipmentIds[i % shipmentIds.length]);
        commit.run();
        await wait();
        const started = process.hrtime.bigint();
        read.get(orderIds[i % orderIds.length]);
        spent += process.hrtime.bigint() - started;
      }
      rounds[name].push(Number(spent) / 2000 / 1000);
    }
  }
  for (const [name, values] of Object.entries(rounds)) {
    const sorted = values.sort((a, b) => a - b);
    console.log(`${name.padEnd(20)} ${sorted[3].toFixed(1)} µs a read (rounds ${sorted[0].toFixed(1)}–${sorted[6].toFixed(1)})`);
  }
  fs.closeSync(fd);
  db.close();
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

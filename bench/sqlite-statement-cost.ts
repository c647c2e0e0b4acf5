/**
 * What SQLite's own steps cost on this machine, with the service's settings (WAL, synchronous NORMAL, memory map,
 * 4 MiB page cache): a statement outside a transaction against the same inside one (outside, each takes and drops
 * the read mark of the shared memory and checks the file's size for the map: three system calls), and a commit by
 * the pages it writes to the log (two system calls a page). Median of 5 rounds, in µs.
 * Run: node --import tsx bench/sqlite-statement-cost.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { median } from './fixtures.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-statement-cost-'));
const ROWS = 20_000;

try {
  const db = new Database(path.join(dir, 'cost.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('mmap_size = 268435456');
  db.pragma('cache_size = -4096');
  db.pragma('wal_autocheckpoint = 16384');
  db.exec('create table t (id integer primary key, v blob)');
  const insert = db.prepare('insert into t (id, v) values (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) insert.run(i, Buffer.alloc(300, 1));
  })();

  const dataVersion = db.prepare('pragma data_version').pluck();
  const pointRead = db.prepare('select v from t where id = ?').pluck();
  const microsEach = (n: number, run: (i: number) => void) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) run(i);
    return Number(process.hrtime.bigint() - start) / n / 1000;
  };
  const statement = (label: string, run: (i: number) => void) => {
    microsEach(20_000, run);
    const outside = median(Array.from({ length: 5 }, () => microsEach(50_000, run)));
    db.exec('begin');
    const inside = median(Array.from({ length: 5 }, () => microsEach(50_000, run)));
    db.exec('commit');
    console.log(`${label}: ${outside.toFixed(2)} µs outside a transaction, ${inside.toFixed(2)} µs inside one`);
  };
  statement('pragma data_version', () => dataVersion.get());
  statement('a point read by primary key', (i) => pointRead.get(i % ROWS));

  const update = db.prepare('update t set v = ? where id = ?');
  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  let round = 0;
  for (const pages of [1, 4, 16, 32]) {
    const perCommit = median(
      Array.from({ length: 5 }, () => {
        let total = 0n;
        const commits = 200;
        for (let c = 0; c < commits; c++) {
          round++;
          begin.run();
          // Rows far apart, so that each lands on a page of its own.
          for (let p = 0; p < pages; p++) update.run(Buffer.alloc(300, round & 255), ((round * pages + p) * 1261) % ROWS);
          const start = process.hrtime.bigint();
          commit.run();
          total += process.hrtime.bigint() - start;
        }
        return Number(total) / commits / 1000;
      }),
    );
    console.log(`a commit of ${pages} page(s): ${perCommit.toFixed(1)} µs, ${(perCommit / pages).toFixed(1)} µs a page`);
  }
  db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

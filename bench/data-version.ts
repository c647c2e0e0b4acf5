/**
 * What asking SQLite whether another connection has committed costs (`node --import tsx bench/data-version.ts`):
 * `PRAGMA data_version` on a connection of a file in WAL mode, as the render cache's check makes it for a kept
 * answer (src/db/sqlite-change-watch.ts), beside a statement that reads no table (`select 1`) and a one-row read
 * on a second connection. Both reads begin a read transaction, which takes and gives back a lock on one of the
 * log's read marks: two `fcntl` calls when no other connection of the process holds that mark (see its system
 * time). A connection of the same process holding a read transaction open on the same mark makes the lock
 * the process's own (`DATA_VERSION_HELD=1`, to compare; the service never holds one open). Last, what reading
 * the log index's header costs (the `-shm` file's first 96 bytes, which every commit of any connection
 * rewrites): the check a `data_version` could be skipped by, were it cheaper than the lock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

const calls = Number(process.env.DATA_VERSION_CALLS ?? 200_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-data-version-'));
const file = path.join(dir, 'waybill.sqlite');
try {
  const writer = new Database(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('mmap_size = 268435456');
  writer.exec('create table t (a integer)');
  writer.exec('insert into t values (1)');
  const reader = new Database(file);
  reader.pragma('mmap_size = 0');
  const held = process.env.DATA_VERSION_HELD === '1' ? new Database(file) : null;
  if (held) {
    held.exec('begin');
    held.prepare('select a from t').get();
  }

  const dataVersion = writer.prepare('pragma data_version').pluck();
  const noTable = writer.prepare('select 1').pluck();
  const oneRow = reader.prepare('select a from t').pluck();
  const time = (label: string, run: () => unknown) => {
    for (let i = 0; i < calls / 10; i++) run();
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) run();
    const ns = Number(process.hrtime.bigint() - started) / calls;
    const used = process.cpuUsage(cpu);
    console.log(`${label}: ${(ns / 1000).toFixed(2)} µs a call, of which system ${(used.system / calls).toFixed(2)} µs`);
  };
  const shm = fs.openSync(`${file}-shm`, 'r');
  const header = Buffer.alloc(96);
  for (let round = 0; round < 2; round++) {
    time('pragma data_version (writing connection)', () => dataVersion.get());
    time('select 1 (no table)', () => noTable.get());
    time('one row on a second connection', () => oneRow.get());
    time("the log index's header, 96 bytes read with fs.readSync", () => fs.readSync(shm, header, 0, 96, 0));
  }
  fs.closeSync(shm);
  held?.close();
  reader.close();
  writer.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

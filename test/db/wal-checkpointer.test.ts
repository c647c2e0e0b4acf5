import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type Generated, Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/connection.js';
import { sqliteDialect } from '../../src/db/sqlite-driver.js';
import { WalCheckpointer } from '../../src/db/wal-checkpointer.js';

describe('SQLite write-ahead log', () => {
  let handle: DatabaseHandle | null = null;
  let dir = '';
  afterEach(async () => {
    await handle?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is copied into the database file by the checkpointer thread, not by the committing connection', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-wal-'));
    handle = openDatabase({ dataDir: dir, databaseUrl: null });
    const file = path.join(dir, 'waybill.sqlite');
    await sql`create table filler (id integer primary key, data text)`.execute(handle.db);
    const sizeBefore = fs.statSync(file).size;
    // About 2,500 pages: more than SQLite's default threshold of 1,000, far below the backstop.
    const blob = 'x'.repeat(4000);
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 2500; i++) await sql`insert into filler (data) values (${blob})`.execute(trx);
    });
    const autocheckpoint = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(handle.db);
    expect(autocheckpoint.rows[0].wal_autocheckpoint).toBeGreaterThan(2500);
    // The commit left the pages in the log; the thread copies them within a few of its ticks.
    const deadline = Date.now() + 5_000;
    while (fs.statSync(file).size < sizeBefore + 2500 * 4000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fs.statSync(file).size).toBeGreaterThanOrEqual(sizeBefore + 2500 * 4000);
    const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(handle.db);
    expect(Number(rows.rows[0].n)).toBe(2500);
  });
});

type Filler = { filler: { id: Generated<number>; data: string } };

describe('SQLite write-ahead log under writes that never pause', () => {
  let db: Kysely<Filler> | null = null;
  let checkpointer: WalCheckpointer | null = null;
  let dir = '';
  afterEach(async () => {
    await db?.destroy();
    db = null;
    await checkpointer?.close();
    checkpointer = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts again from its beginning: the checkpointer copies while the writes are held', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-wal-restart-'));
    const file = path.join(dir, 'waybill.sqlite');
    const raw = new SqliteDatabase(file);
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    // No automatic checkpoint in a commit: only the checkpointer's thread copies the log here.
    raw.pragma('wal_autocheckpoint = 1000000');
    raw.exec('create table filler (id integer primary key, data text not null)');
    const dialect = sqliteDialect(raw, null);
    db = new Kysely({ dialect });
    checkpointer = new WalCheckpointer(file, { intervalMs: 20, restartFrames: 200, holdWrites: (copy) => dialect.holdWrites(copy) });

    // The log's last frame, from the header of its index (the `-shm` file SQLite maps; little-endian here).
    const shm = fs.openSync(`${file}-shm`, 'r');
    const header = Buffer.alloc(20);
    const lastFrame = () => (fs.readSync(shm, header, 0, 20, 0) === 20 ? header.readUInt32LE(16) : 0);
    let restarts = 0;
    let highest = 0;
    let previous = 0;
    const watch = setInterval(() => {
      const frame = lastFrame();
      if (frame < previous) restarts++;
      highest = Math.max(highest, frame);
      previous = frame;
    }, 2);

    // Four writers, each beginning its next transaction as soon as the last one ends (after a turn of the event loop,
    // as requests arrive): no moment without writes.
    const blob = 'x'.repeat(3000);
    const until = Date.now() + 1500;
    let written = 0;
    const writer = async () => {
      while (Date.now() < until) {
        await (db as Kysely<Filler>).transaction().execute(async (trx) => {
          await trx.insertInto('filler').values({ data: blob }).execute();
        });
        written++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    clearInterval(watch);
    fs.closeSync(shm);

    expect(restarts).toBeGreaterThan(0);
    expect(highest).toBeLessThan(20_000);
    const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(db);
    expect(Number(rows.rows[0].n)).toBe(written);
  });
});

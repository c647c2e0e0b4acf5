import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/connection.js';

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

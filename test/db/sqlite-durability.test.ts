import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type Generated, Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connection.js';
import { sqliteDialect, WalSync } from '../../src/db/sqlite-driver.js';
import { settled } from '../helpers/settled.js';

/** SQLite's number for the `synchronous` setting NORMAL (the log is synced by WalSync, or not at all). */
const NORMAL = 1;

interface Table {
  t: { id: Generated<number>; v: string };
}

/** A sync the test finishes by hand, counting how often it was started. */
function manualSync() {
  const pending: Array<() => void> = [];
  let started = 0;
  return {
    started: () => started,
    finishAll: () => {
      for (const finish of pending.splice(0)) finish();
    },
    syncFile: (_fd: number) => {
      started++;
      return new Promise<void>((resolve) => pending.push(resolve));
    },
  };
}

describe('SQLite durability', () => {
  let handle: DatabaseHandle | null = null;
  let db: Kysely<Table> | null = null;
  let dir = '';
  afterEach(async () => {
    vi.restoreAllMocks();
    await handle?.close();
    await db?.destroy();
    handle = null;
    db = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function open(syncFile: (fd: number) => Promise<void>): Kysely<Table> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-sync-'));
    const file = path.join(dir, 'db.sqlite');
    const raw = new SqliteDatabase(file);
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.exec('create table t (id integer primary key, v text not null)');
    db = new Kysely<Table>({ dialect: sqliteDialect(raw, new WalSync(`${file}-wal`, syncFile)) });
    return db;
  }

  it('hands back no write before its commit is synced, and no read while a commit is not', async () => {
    const sync = manualSync();
    const kysely = open(sync.syncFile);
    const write = kysely.insertInto('t').values({ v: 'a' }).execute();
    expect(await settled(write)).toBe(false);
    expect(sync.started()).toBe(1);
    // The connection is free meanwhile (the row is there), but its result waits for the disk.
    const read = kysely.selectFrom('t').selectAll().execute();
    expect(await settled(read)).toBe(false);
    sync.finishAll();
    await write;
    expect(await read).toEqual([{ id: 1, v: 'a' }]);
    // Nothing unsynced: reads answer without a sync.
    expect(await kysely.selectFrom('t').select('v').execute()).toEqual([{ v: 'a' }]);
    expect(sync.started()).toBe(1);
  });

  it('syncs a transaction once, at its commit, and lets commits made during a sync share the next one', async () => {
    const sync = manualSync();
    const kysely = open(sync.syncFile);
    const transaction = kysely.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ v: 'one' }).execute();
      await trx.insertInto('t').values({ v: 'two' }).execute();
    });
    expect(await settled(transaction)).toBe(false);
    expect(sync.started()).toBe(1);
    const writes = Array.from({ length: 10 }, (_, i) =>
      kysely
        .insertInto('t')
        .values({ v: `w${i}` })
        .execute(),
    );
    expect(await settled(Promise.all(writes))).toBe(false);
    // All ten committed while the first sync ran; they wait for it, then share one more.
    sync.finishAll();
    expect(await settled(transaction)).toBe(true);
    expect(sync.started()).toBe(2);
    sync.finishAll();
    await Promise.all(writes);
    expect(sync.started()).toBe(2);
    const count = await kysely.selectFrom('t').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBe(12);
  });

  it('starts no sync for a transaction that only read, nor for one rolled back, and still makes them wait for an earlier one', async () => {
    const sync = manualSync();
    const kysely = open(sync.syncFile);
    const read = () => kysely.transaction().execute((trx) => trx.selectFrom('t').select('v').execute());
    const first = read();
    expect(await settled(first)).toBe(true);
    expect(await first).toEqual([]);
    const refused = kysely.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ v: 'refused' }).execute();
      throw new Error('refused after its write');
    });
    refused.catch(() => {});
    expect(await settled(refused)).toBe(true);
    await expect(refused).rejects.toThrow('refused after its write');
    expect(sync.started()).toBe(0);

    // A read-only transaction after an unsynced commit sees that commit, so it waits for its sync, and starts none of its own.
    const write = kysely.insertInto('t').values({ v: 'kept' }).execute();
    expect(await settled(write)).toBe(false);
    const after = read();
    expect(await settled(after)).toBe(false);
    expect(sync.started()).toBe(1);
    sync.finishAll();
    await write;
    expect(await after).toEqual([{ v: 'kept' }]);
    expect(sync.started()).toBe(1);
  });

  it('answers no query after a failed sync, reads included: what it covered may be lost', async () => {
    const kysely = open(async () => {
      throw new Error('EIO: i/o error');
    });
    await expect(kysely.insertInto('t').values({ v: 'a' }).execute()).rejects.toThrow(/Syncing the SQLite log failed.*EIO/);
    await expect(kysely.insertInto('t').values({ v: 'b' }).execute()).rejects.toThrow(/Syncing the SQLite log failed/);
    await expect(kysely.selectFrom('t').selectAll().execute()).rejects.toThrow(/Syncing the SQLite log failed/);
  });

  it('syncs the log of the service database at every commit by default', async () => {
    expect(loadConfig({}).sqliteSynchronous).toBe('full');
    const calls = vi.spyOn(fs, 'fdatasync');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-sync-'));
    handle = openDatabase({ dataDir: dir, databaseUrl: null, sqliteSynchronous: loadConfig({}).sqliteSynchronous });
    expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(handle.db)).rows[0].synchronous).toBe(NORMAL);
    await sql`create table t (id integer primary key)`.execute(handle.db);
    const before = calls.mock.calls.length;
    await sql`insert into t default values`.execute(handle.db);
    expect(calls.mock.calls.length).toBe(before + 1);
  });

  it('trades that away only when told to', async () => {
    const config = loadConfig({ WAYBILL_SQLITE_SYNCHRONOUS: 'NORMAL' });
    expect(config.sqliteSynchronous).toBe('normal');
    const calls = vi.spyOn(fs, 'fdatasync');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-sync-'));
    handle = openDatabase({ dataDir: dir, databaseUrl: null, sqliteSynchronous: config.sqliteSynchronous });
    await sql`create table t (id integer primary key)`.execute(handle.db);
    await sql`insert into t default values`.execute(handle.db);
    expect(calls).not.toHaveBeenCalled();
  });

  it('refuses any other value', () => {
    expect(() => loadConfig({ WAYBILL_SQLITE_SYNCHRONOUS: 'off' })).toThrow(ConfigError);
  });
});

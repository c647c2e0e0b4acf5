import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type Generated, Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { sqliteDialect, WalSync } from '../../src/db/sqlite-driver.js';
import { WritesComing } from '../../src/db/sqlite-group-commit.js';
import { settled } from '../helpers/settled.js';

interface Tables {
  t: { id: Generated<number>; v: string };
  child: { id: Generated<number>; parent: number };
}

/** SQLite's temporary files open in this process: unlinked once open, they are seen among its open files (Linux). */
const journals = () =>
  fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return /etilqs_/.test(fs.readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      return false;
    }
  }).length;

/** Resolves when `release` is called. */
function gate() {
  let release = () => {};
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release };
}

describe('SQLite group commit', () => {
  let db: Kysely<Tables> | null = null;
  let raw: SqliteDatabase.Database | null = null;
  let dir = '';
  let commits = 0;
  afterEach(async () => {
    await db?.destroy();
    db = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function open(coming: WritesComing | null = null): Kysely<Tables> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-group-'));
    const file = path.join(dir, 'db.sqlite');
    raw = new SqliteDatabase(file);
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    raw.exec('create table t (id integer primary key, v text not null unique)');
    // A deferred key is checked at the commit: the way to make a commit itself fail.
    raw.exec('create table child (id integer primary key, parent integer not null references t (id) deferrable initially deferred)');
    commits = 0;
    const walSync = new WalSync(`${file}-wal`, async () => {});
    const noteCommit = walSync.noteCommit.bind(walSync);
    walSync.noteCommit = () => {
      commits++;
      noteCommit();
    };
    db = new Kysely<Tables>({ dialect: sqliteDialect(raw, walSync, coming) });
    return db;
  }

  /** What another connection to the same file sees: committed rows only. */
  const committed = () => {
    const other = new SqliteDatabase(path.join(dir, 'db.sqlite'), { readonly: true });
    try {
      return (other.prepare('select v from t order by id').all() as Array<{ v: string }>).map((row) => row.v);
    } finally {
      other.close();
    }
  };

  it('commits transactions that wait for each other once, and answers none before that commit', async () => {
    const kysely = open();
    const hold = gate();
    const first = kysely.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ v: 'first' }).execute();
      await hold.opened;
    });
    const others = Array.from({ length: 5 }, (_, i) =>
      kysely.transaction().execute((trx) =>
        trx
          .insertInto('t')
          .values({ v: `other-${i}` })
          .execute(),
      ),
    );
    expect(await settled(first)).toBe(false);
    hold.release();
    await Promise.all([first, ...others]);
    expect(commits).toBe(1);
    expect(committed()).toEqual(['first', 'other-0', 'other-1', 'other-2', 'other-3', 'other-4']);
  });

  it('hands back nothing of a group while it is open: not the first transaction, not a read that saw it', async () => {
    const kysely = open();
    const hold = gate();
    const first = kysely.transaction().execute((trx) => trx.insertInto('t').values({ v: 'a' }).execute());
    // The second transaction runs in the same group and holds it open.
    const second = kysely.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ v: 'b' }).execute();
      await hold.opened;
    });
    const read = kysely.selectFrom('t').select('v').execute();
    expect(await settled(first)).toBe(false);
    expect(await settled(read)).toBe(false);
    expect(committed()).toEqual([]);
    hold.release();
    await Promise.all([first, second]);
    expect((await read).map((row) => row.v)).toEqual(['a', 'b']);
    expect(committed()).toEqual(['a', 'b']);
  });

  it('rolls a failed transaction back alone: the others of its group commit', async () => {
    const kysely = open();
    const results = await Promise.allSettled([
      kysely.transaction().execute((trx) => trx.insertInto('t').values({ v: 'kept-1' }).execute()),
      kysely.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ v: 'undone' }).execute();
        await trx.insertInto('t').values({ v: 'kept-1' }).execute();
      }),
      kysely.transaction().execute((trx) => trx.insertInto('t').values({ v: 'kept-2' }).execute()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(commits).toBe(1);
    expect(committed()).toEqual(['kept-1', 'kept-2']);
  });

  it('fails every transaction of a group whose commit fails, and commits the next group', async () => {
    const kysely = open();
    const results = await Promise.allSettled([
      kysely.transaction().execute((trx) => trx.insertInto('t').values({ v: 'lost' }).execute()),
      kysely.transaction().execute((trx) => trx.insertInto('child').values({ parent: 999 }).execute()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(committed()).toEqual([]);
    expect(raw?.inTransaction).toBe(false);
    await kysely.transaction().execute((trx) => trx.insertInto('t').values({ v: 'next' }).execute());
    expect(committed()).toEqual(['next']);
  });

  it('commits a transaction no one waits behind at once', async () => {
    const kysely = open();
    await kysely.transaction().execute((trx) => trx.insertInto('t').values({ v: 'alone' }).execute());
    expect(committed()).toEqual(['alone']);
    expect(raw?.inTransaction).toBe(false);
    // A statement of its own commits as before.
    await kysely.insertInto('t').values({ v: 'statement' }).execute();
    expect(committed()).toEqual(['alone', 'statement']);
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(kysely)).rows[0].n).toBe(2);
  });

  it('while writes overlap, keeps a group open to the end of its window for the writes that arrive meanwhile', async () => {
    const coming = new WritesComing(150);
    const kysely = open(coming);
    const ends = [coming.announce(), coming.announce()];
    expect(coming.busy).toBe(true);
    const started = performance.now();
    let firstDone = false;
    const first = kysely
      .transaction()
      .execute((trx) => trx.insertInto('t').values({ v: 'first' }).execute())
      .then(() => (firstDone = true));
    await settled(first);
    // Its lease ended with no one queued, and writes overlap: the group waits.
    expect(firstDone).toBe(false);
    expect(raw?.inTransaction).toBe(true);
    expect(committed()).toEqual([]);
    const second = kysely.transaction().execute((trx) => trx.insertInto('t').values({ v: 'second' }).execute());
    await settled(second);
    // Both announced writes joined, but more may come while writes overlap: still open.
    expect(committed()).toEqual([]);
    await Promise.all([first, second]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(committed()).toEqual(['first', 'second']);
    expect(commits).toBe(1);
    for (const end of ends) end();
    expect(coming.inFlight).toBe(0);
  });

  it('never holds the writes of one client sent one after another: each commits at once', async () => {
    const coming = new WritesComing(60_000);
    const kysely = open(coming);
    // The window is a minute: a commit that waited for it would time the test out.
    for (let i = 0; i < 5; i++) {
      const end = coming.announce();
      await kysely.transaction().execute((trx) =>
        trx
          .insertInto('t')
          .values({ v: `w${i}` })
          .execute(),
      );
      end();
      // Ending twice ends once.
      end();
    }
    expect(coming.inFlight).toBe(0);
    expect(coming.busy).toBe(false);
    expect(committed()).toEqual(['w0', 'w1', 'w2', 'w3', 'w4']);
    expect(commits).toBe(5);
  });

  it('does not commit at the end of its window while a transaction of the group is under way: that one ends first', async () => {
    const coming = new WritesComing(20);
    const kysely = open(coming);
    for (let i = 0; i < 3; i++) coming.announce();
    const first = kysely.transaction().execute((trx) => trx.insertInto('t').values({ v: 'first' }).execute());
    expect(await settled(first)).toBe(false);
    const hold = gate();
    const second = kysely.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ v: 'second-a' }).execute();
      // The window ends here, between two statements of this transaction.
      await new Promise((resolve) => setTimeout(resolve, 60));
      await hold.opened;
      await trx.insertInto('t').values({ v: 'second-b' }).execute();
    });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(committed()).toEqual([]);
    hold.release();
    await Promise.all([first, second]);
    expect(committed()).toEqual(['first', 'second-a', 'second-b']);
    expect(commits).toBe(1);
    expect(raw?.inTransaction).toBe(false);
  });

  it('commits when its window ends, though a write announced has not come', async () => {
    const short = new WritesComing(30);
    const other = open(short);
    short.announce();
    short.announce();
    const started = performance.now();
    await other.transaction().execute((trx) => trx.insertInto('t').values({ v: 'waited' }).execute());
    // The second announced write never came: the group committed when its window ended.
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(committed()).toEqual(['waited']);
    expect(raw?.inTransaction).toBe(false);
  });

  it('rolls a failed first transaction of a group back whole; those queued behind it commit', async () => {
    const kysely = open();
    const results = await Promise.allSettled([
      kysely.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ v: 'undone' }).execute();
        await trx.insertInto('t').values({ v: 'undone' }).execute();
      }),
      kysely.transaction().execute((trx) => trx.insertInto('t').values({ v: 'kept-1' }).execute()),
      kysely.transaction().execute((trx) => trx.insertInto('t').values({ v: 'kept-2' }).execute()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(committed()).toEqual(['kept-1', 'kept-2']);
    expect(raw?.inTransaction).toBe(false);
  });

  // SQLite's temporary files are unlinked once open: they are seen among the process's open files (Linux).
  it.skipIf(!fs.existsSync('/proc/self/fd'))(
    "journals no page of a group's first transaction; a later one's changes are journaled to be undone alone",
    async () => {
      const kysely = open();
      // SQLite keeps a savepoint's journal in memory up to 64 KiB, then in a temporary file it has already unlinked.
      const rows = Array.from({ length: 400 }, (_, i) => ({ v: `${i}-${'x'.repeat(1000)}` }));
      await kysely.insertInto('t').values(rows).execute();
      const before = journals();
      const hold = gate();
      const seen: number[] = [];
      const first = kysely.transaction().execute(async (trx) => {
        // One row per statement: a statement that may change many rows keeps a journal of its own.
        for (let id = 1; id <= rows.length; id++) await trx.updateTable('t').set({ v: sql`v || 'a'` }).where('id', '=', id).execute();
        seen.push(journals() - before);
      });
      const second = kysely.transaction().execute(async (trx) => {
        for (let id = 1; id <= rows.length; id++) await trx.updateTable('t').set({ v: sql`v || 'b'` }).where('id', '=', id).execute();
        seen.push(journals() - before);
        await hold.opened;
      });
      await settled(first);
      hold.release();
      await Promise.all([first, second]);
      expect(seen).toEqual([0, 1]);
      expect(commits).toBe(2);
    },
  );
});

describe("the service's SQLite connection", () => {
  it.skipIf(!fs.existsSync('/proc/self/fd'))("keeps a savepoint's journal in memory, with no temporary file made for it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-group-'));
    const handle = openDatabase({ dataDir: dir, databaseUrl: null });
    const kysely = handle.db as unknown as Kysely<Tables>;
    try {
      await sql`create table t (id integer primary key, v text not null)`.execute(kysely);
      const rows = Array.from({ length: 400 }, (_, i) => ({ v: `${i}-${'x'.repeat(1000)}` }));
      await kysely.insertInto('t').values(rows).execute();
      const before = journals();
      const hold = gate();
      const seen: number[] = [];
      const change = (suffix: string) => async (trx: Kysely<Tables>) => {
        for (let id = 1; id <= rows.length; id++)
          await trx
            .updateTable('t')
            .set({ v: sql`v || ${suffix}` })
            .where('id', '=', id)
            .execute();
        seen.push(journals() - before);
      };
      const first = kysely.transaction().execute(change('a'));
      // The second is a savepoint of the first's group, and its journal holds the 400 KiB of pages the first changed.
      const second = kysely.transaction().execute(async (trx) => {
        await change('b')(trx);
        await hold.opened;
      });
      await settled(first);
      hold.release();
      await Promise.all([first, second]);
      expect(seen).toEqual([0, 0]);
      expect(handle.commitCounts()).toEqual({ transactions: 2, commits: 1 });
    } finally {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

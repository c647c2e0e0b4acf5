import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteDialect } from '../../src/db/sqlite-driver.js';

// The driver hands rows back as objects it makes from SQLite's values; they must be the objects better-sqlite3
// makes, whatever the columns, and follow the schema when it changes.
describe('rows of the embedded database as objects', () => {
  let dir: string;
  let raw: SqliteDatabase.Database;
  let other: SqliteDatabase.Database;
  let db: Kysely<any>;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-rows-'));
    const file = path.join(dir, 'rows.sqlite');
    raw = new SqliteDatabase(file);
    raw.pragma('journal_mode = WAL');
    raw.exec(`create table t (id integer primary key, name text, amount real, note text, data blob);
      insert into t values (1, 'a', 1.5, null, x'0102'), (2, 'b', -3, 'n', null);
      create table u (id integer primary key, t_id integer, name text);
      insert into u values (7, 1, 'u7');`);
    other = new SqliteDatabase(file);
    db = new Kysely({ dialect: sqliteDialect(raw, null) });
  });
  afterEach(async () => {
    await db.destroy();
    other.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const rows = async (query: string) => (await sql.raw(query).execute(db)).rows as Array<Record<string, unknown>>;
  const own = (query: string) => other.prepare(query).all() as Array<Record<string, unknown>>;

  it('answers what better-sqlite3 answers: the same members in the same order, blobs, nulls and reals', async () => {
    for (const query of [
      'select * from t order by id',
      'select id, name as label, amount * 2 as twice from t order by id desc',
      'select count(*) as n from t',
      'select * from t where id = 99',
    ]) {
      const mine = await rows(query);
      expect(mine).toStrictEqual(own(query));
      expect(mine.map((row) => Object.keys(row))).toEqual(own(query).map((row) => Object.keys(row)));
      // Run again: the second run goes through the kept statement and its shape.
      expect(await rows(query)).toStrictEqual(own(query));
    }
    expect((await rows('select data from t where id = 1'))[0].data).toEqual(Buffer.from([1, 2]));
  });

  it('keeps the last value of a name two columns share, at the first one’s place, as better-sqlite3 does', async () => {
    const query = 'select t.id, u.name, t.name, u.id from t join u on u.t_id = t.id';
    const mine = await rows(query);
    expect(mine).toStrictEqual(own(query));
    expect(mine).toStrictEqual([{ id: 7, name: 'a' }]);
  });

  it('answers a column named __proto__ as better-sqlite3 does, a blob or a null one included', async () => {
    for (const query of [
      'select 1 as "__proto__", 2 as b',
      'select x\'01\' as "__proto__", 2 as b',
      'select null as "__proto__", 2 as b',
    ]) {
      const [row] = await rows(query);
      const [theirs] = own(query);
      expect(Object.getPrototypeOf(row)).toEqual(Object.getPrototypeOf(theirs));
      expect(Object.getPrototypeOf(row) === null).toBe(Object.getPrototypeOf(theirs) === null);
      expect(Object.keys(row)).toEqual(Object.keys(theirs));
      expect(row.b).toBe(2);
    }
  });

  it('answers the rows an insert returns, and streams rows as objects', async () => {
    expect(await rows("insert into u (id, t_id, name) values (8, 2, 'u8') returning id, name")).toStrictEqual([{ id: 8, name: 'u8' }]);
    const streamed: unknown[] = [];
    for await (const row of db.selectFrom('u').select(['id', 'name']).orderBy('id').stream()) streamed.push(row);
    expect(streamed).toStrictEqual([
      { id: 7, name: 'u7' },
      { id: 8, name: 'u8' },
    ]);
  });

  it('follows a column renamed through this connection', async () => {
    expect(await rows('select * from u')).toStrictEqual([{ id: 7, t_id: 1, name: 'u7' }]);
    await sql`alter table u rename column name to title`.execute(db);
    expect(await rows('select * from u')).toStrictEqual([{ id: 7, t_id: 1, title: 'u7' }]);
  });

  it('follows a column added by another connection to a statement it keeps', async () => {
    expect(await rows('select * from u')).toStrictEqual([{ id: 7, t_id: 1, name: 'u7' }]);
    other.exec("alter table u add column colour text default 'red'");
    expect(await rows('select * from u')).toStrictEqual([{ id: 7, t_id: 1, name: 'u7', colour: 'red' }]);
  });
});

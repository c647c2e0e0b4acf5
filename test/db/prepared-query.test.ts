import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { flattenRows, PreparedQuery, PreparedQueryFamily, preparedForRow } from '../../src/db/prepared-query.js';
import type { Database as Schema } from '../../src/db/schema.js';

describe('PreparedQuery', () => {
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

  it('binds thousands of arguments of a multi-row insert, compiled once in well under a second (10,000 arguments)', async () => {
    await sql`create table t (a text, b integer)`.execute(db);
    const rows = 5_000;
    const insert = new PreparedQuery((k, ...args: unknown[]) =>
      k
        .insertInto('t' as never)
        .values(Array.from({ length: rows }, (_, r) => ({ a: args[2 * r], b: args[2 * r + 1] })) as never)
        .returning(sql<number>`b`.as('b') as never),
    );
    const values = Array.from({ length: rows }, (_, r) => [`row-${r}`, r]).flat();
    const started = performance.now();
    const first = await insert.execute(db, ...values);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(first).toHaveLength(rows);
    await insert.execute(db, ...values.map((v) => (typeof v === 'number' ? v + rows : v)));
    const stored = await sql<{ n: number; max: number }>`select count(*) as n, max(b) as max from t`.execute(db);
    expect(stored.rows[0]).toEqual({ n: 2 * rows, max: 2 * rows - 1 });
  });

  it('refuses a query that does not bind one of its arguments', async () => {
    const unbound = new PreparedQuery((k, a: string, _b: string) =>
      k
        .selectFrom('t' as never)
        .select(sql`1`.as('one'))
        .where(sql`a`, '=', a),
    );
    await expect(unbound.execute(db, 'x', 'y')).rejects.toThrow(/argument 1 is not a bound parameter/);
    const inlined = new PreparedQuery((k, a: string) => k.selectFrom('t' as never).select(sql.lit(a).as('one')));
    await expect(inlined.execute(db, 'x')).rejects.toThrow(/argument 0 is not a bound parameter/);
  });
});

describe('flattenRows', () => {
  it("lays rows out as one flat list of values in the first row's column order", () => {
    expect(flattenRows([{ a: 'x', b: 1 }])).toEqual({ columns: ['a', 'b'], values: ['x', 1], bindable: true });
    expect(
      flattenRows([
        { a: 'x', b: 1 },
        { a: null, b: 2n },
      ]),
    ).toEqual({ columns: ['a', 'b'], values: ['x', 1, null, 2n], bindable: true });
  });

  it('says rows cannot share a statement when a later row has other columns, the same in another order, or more', () => {
    const first = { a: 'x', b: 1 };
    expect(flattenRows([first, { a: 'y' }]).bindable).toBe(false);
    expect(flattenRows([first, { b: 2, a: 'y' }]).bindable).toBe(false);
    expect(flattenRows([first, { a: 'y', b: 2, c: 3 }]).bindable).toBe(false);
    expect(flattenRows([first, { a: 'y', c: 2 }]).bindable).toBe(false);
  });

  it('says rows cannot share a statement when a value does not bind as it is, in any row', () => {
    expect(flattenRows([{ a: { nested: true } }]).bindable).toBe(false);
    expect(flattenRows([{ a: 'x' }, { a: undefined }]).bindable).toBe(false);
    expect(flattenRows([{ a: 'x' }, { a: new Date(0) }]).bindable).toBe(false);
  });
});

describe('PreparedQueryFamily.forColumns', () => {
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  const family = new PreparedQueryFamily<unknown[], never>();
  const insert = (row: Record<string, unknown>) => {
    const prepared = preparedForRow(family, row, (k, r) => k.insertInto('t' as never).values(r as never));
    if (!prepared) throw new Error('not prepared');
    return prepared;
  };

  it('answers one query for one shape, another for the same columns in another order or count', async () => {
    await sql`create table t (a text, b text)`.execute(db);
    const first = insert({ a: 'a1', b: 'b1' });
    expect(insert({ a: 'a2', b: 'b2' }).query).toBe(first.query);
    const swapped = insert({ b: 'b3', a: 'a3' });
    expect(swapped.query).not.toBe(first.query);
    expect(insert({ a: 'a4' }).query).not.toBe(first.query);
    // The first shape again, after others: the same query, from the family's map.
    expect(insert({ a: 'a5', b: 'b5' }).query).toBe(first.query);
    const build = () => () => {
      throw new Error('not built again');
    };
    expect(family.forColumns(1, ['a', 'b'], build)).toBe(first.query);
    expect(family.forColumns(2, ['a', 'b'], () => (k) => k.insertInto('t' as never).values([] as never))).not.toBe(first.query);
  });

  it("keeps its own copy of the columns asked for last: a caller's array changed afterwards names another shape", () => {
    const own = new PreparedQueryFamily<unknown[], never>();
    const build = () => (k: Kysely<Schema>) => k.insertInto('t' as never).values([] as never);
    const columns = ['a', 'b'];
    const ab = own.forColumns(1, columns, build);
    columns[1] = 'c';
    const ac = own.forColumns(1, columns, build);
    expect(ac).not.toBe(ab);
    expect(own.forColumns(1, ['a', 'b'], build)).toBe(ab);
  });

  it('binds each value to its own column whatever order the columns came in', async () => {
    for (const row of [
      { a: 'x1', b: 'y1' },
      { b: 'y2', a: 'x2' },
      { a: 'x3', b: 'y3' },
      { b: 'y4', a: 'x4' },
    ]) {
      const { query, values } = insert(row);
      await query.execute(db, ...values);
    }
    const stored = await sql<{ a: string; b: string }>`select a, b from t where a like 'x%' order by a`.execute(db);
    expect(stored.rows).toEqual([
      { a: 'x1', b: 'y1' },
      { a: 'x2', b: 'y2' },
      { a: 'x3', b: 'y3' },
      { a: 'x4', b: 'y4' },
    ]);
  });
});

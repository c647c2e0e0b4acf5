import SqliteDatabase from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { limitsAsExpressions } from '../../src/db/sqlite-driver.js';
import { createTestApp, type TestAccount, type TestApp, usingPostgres } from '../helpers/app.js';

describe('limitsAsExpressions', () => {
  it('writes every bare LIMIT parameter as an expression and leaves the rest of the statement alone', () => {
    expect(limitsAsExpressions('select "id" from "shipments" where "account_id" = ? order by "id" desc limit ?')).toBe(
      'select "id" from "shipments" where "account_id" = ? order by "id" desc limit +?',
    );
    expect(limitsAsExpressions('select id from a where id in (select id from b limit ?) limit ? offset ?')).toBe(
      'select id from a where id in (select id from b limit +?) limit +? offset ?',
    );
    expect(limitsAsExpressions('select 1 limit 1')).toBe('select 1 limit 1');
    expect(limitsAsExpressions('select ? as limits')).toBe('select ? as limits');
  });

  it('answers as many rows as the bare parameter would, for every limit', () => {
    const db = new SqliteDatabase(':memory:');
    db.exec('create table t (id integer primary key); insert into t (id) values (1), (2), (3), (4), (5);');
    const bare = db.prepare('select id from t order by id desc limit ? offset ?').pluck();
    const expression = db.prepare(limitsAsExpressions('select id from t order by id desc limit ? offset ?')).pluck();
    for (const [limit, offset] of [
      [0, 0],
      [1, 0],
      [2, 1],
      [5, 0],
      [9, 3],
      [-1, 2],
      ['2', 0],
    ]) {
      expect(expression.all(limit, offset)).toEqual(bare.all(limit, offset));
    }
    db.close();
  });
});

// SQLite plans `limit ?` with the value bound at the statement's first run, and compiles the statement again at
// every later run: the embedded database must never be handed one.
describe.skipIf(usingPostgres)('limits on the embedded database', () => {
  let t: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    account = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      await t.call(account.token, 'POST', '/v5/shipment/', { shipment_id: `LIMIT-${i}`, tags: ['limits'] });
    }
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('prepares list pages, plain and filtered, with their limit as an expression, and pages through them', async () => {
    const prepared = vi.spyOn(SqliteDatabase.prototype, 'prepare');
    const list = (query: Record<string, string>) => t.call(account.token, 'GET', '/v5/shipment/list/', undefined, query);
    const ids = (res: Awaited<ReturnType<typeof list>>) => res.json().data.map((s: { shipment_id: string }) => s.shipment_id);

    const first = await list({ limit: '2' });
    expect(ids(first)).toEqual(['LIMIT-4', 'LIMIT-3']);
    expect(ids(await list({ next_page: first.json().next_page }))).toEqual(['LIMIT-2', 'LIMIT-1']);
    expect(ids(await list({ limit: '3', tag: 'limits' }))).toEqual(['LIMIT-4', 'LIMIT-3', 'LIMIT-2']);

    const statements = prepared.mock.calls.map(([source]) => source);
    expect(statements.filter((source) => source.includes(' limit '))).not.toHaveLength(0);
    expect(statements.filter((source) => /limit \?/i.test(source))).toEqual([]);
  });
});

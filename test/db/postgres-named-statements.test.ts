import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connection.js';
import { PreparedQuery } from '../../src/db/prepared-query.js';
import type { Database } from '../../src/db/schema.js';
import { createDatabase, reachablePostgres } from '../reliability/postgres.js';

/**
 * On PostgreSQL the statements of PreparedQuery are prepared once on each connection and then only bound and run
 * (src/db/postgres-named-statements.ts). Each handle here has one connection, so that the session whose prepared
 * statements `pg_prepared_statements` lists is the one that ran the queries.
 */
const postgres = await reachablePostgres();
let database: { url: string; drop(): Promise<void> } | null = null;
const handles: DatabaseHandle[] = [];

const open = (pgPreparedStatements?: boolean) => {
  const handle = openDatabase({ dataDir: '', databaseUrl: (database as { url: string }).url, poolSize: 1, pgPreparedStatements });
  handles.push(handle);
  return handle.db;
};

const prepared = async (db: Kysely<Database>, table: string) =>
  (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows
    .map((row) => row.statement)
    .filter((statement) => statement.includes(`"${table}"`));

/** Changes a table from a connection of its own, as another process's migration would. */
const alter = async (statement: string) => {
  const client = new pg.Client({ connectionString: (database as { url: string }).url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  if (postgres.url === null) return;
  database = await createDatabase(postgres.url, 'wb_named');
  await alter('create table versions (id bigint primary key, version bigint not null, note text)');
  await alter(`insert into versions values (1, 7, 'a'), (2, 8, 'b')`);
});
afterAll(async () => {
  for (const handle of handles) await handle.close();
  await database?.drop();
});

const versionOf = new PreparedQuery((k, id: number) =>
  k
    .selectFrom('versions' as never)
    .select(sql<number>`version`.as('version'))
    .where(sql`id`, '=', id),
);

describe.skipIf(postgres.url === null)('PostgreSQL: fixed statements prepared once on each connection', () => {
  it('runs a PreparedQuery as a statement prepared once on the connection, and only when asked to', async () => {
    const db = open();
    for (const id of [1, 2, 1]) await versionOf.execute(db, id);
    expect(await versionOf.execute(db, 2)).toEqual([{ version: 8 }]);
    expect(await prepared(db, 'versions')).toEqual(['select version as "version" from "versions" where id = $1']);

    const unprepared = open(false);
    expect(await versionOf.execute(unprepared, 1)).toEqual([{ version: 7 }]);
    expect(await prepared(unprepared, 'versions')).toEqual([]);
  });

  it('leaves a statement whose result is * unprepared, so that it reads a column added meanwhile', async () => {
    const db = open();
    const whole = new PreparedQuery((k, id: number) =>
      k
        .selectFrom('versions' as never)
        .selectAll()
        .where(sql`id`, '=', id),
    );
    expect(await whole.execute(db, 1)).toEqual([{ id: 1, version: 7, note: 'a' }]);
    await alter('alter table versions add column added text');
    expect(await whole.execute(db, 1)).toEqual([{ id: 1, version: 7, note: 'a', added: null }]);
    expect(await prepared(db, 'versions')).toEqual([]);
    await alter('alter table versions drop column added');
  });

  it('prepares again when a column changed under a statement: at once outside a transaction, failing only the transaction it was in', async () => {
    const db = open();
    expect(await versionOf.execute(db, 1)).toEqual([{ version: 7 }]);
    await alter('alter table versions alter column version type text');
    // Outside a transaction the failed run undid nothing, and it is run again on the statement prepared anew.
    expect(await versionOf.execute(db, 1)).toEqual([{ version: '7' }]);

    await alter('alter table versions alter column version type bigint using version::bigint');
    await expect(db.transaction().execute((trx) => versionOf.execute(trx, 1))).rejects.toThrow(/cached plan must not change result type/);
    expect(await db.transaction().execute((trx) => versionOf.execute(trx, 1))).toEqual([{ version: 7 }]);
  });
});

describe('WAYBILL_PG_PREPARED_STATEMENTS', () => {
  it('is on unless set to false, and refuses a value that is not a yes or a no', () => {
    expect(loadConfig({}).pgPreparedStatements).toBe(true);
    expect(loadConfig({ WAYBILL_PG_PREPARED_STATEMENTS: 'false' }).pgPreparedStatements).toBe(false);
    expect(loadConfig({ WAYBILL_PG_PREPARED_STATEMENTS: 'true' }).pgPreparedStatements).toBe(true);
    expect(() => loadConfig({ WAYBILL_PG_PREPARED_STATEMENTS: 'sometimes' })).toThrow(ConfigError);
  });
});

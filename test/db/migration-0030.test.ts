import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, reachablePostgres } from '../reliability/postgres.js';
import { bareShipment, migratedTo, upgradedAccount } from './upgraded-database.js';

/**
 * Migration 0030 on a database left by the release before it: on SQLite the trigger that wrote a new shipment's
 * version row is gone, and the shipments written before keep their versions, which updates still move and deletes
 * still remove. On PostgreSQL nothing changes: an insert still gets its version row from the trigger.
 */
const postgres = await reachablePostgres();
const drops: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const drop of drops) await drop();
});

const now = '2026-12-06T10:00:00.000Z';

async function addShipment(db: Kysely<any>, accountId: number, id: string): Promise<number> {
  const row = await db
    .insertInto('shipments')
    .values(bareShipment(accountId, id, now))
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function versionOf(db: Kysely<any>, id: number): Promise<number | undefined> {
  const row = await db.selectFrom('shipment_versions').select('version').where('shipment_row_id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : Number(row.version);
}

async function check(db: Kysely<any>, postgres: boolean): Promise<void> {
  const migrator = await migratedTo(db, '0029_shipment_tags_without_rowid');
  const accountId = await upgradedAccount(db, 'acc-0030', now);
  const old = await addShipment(db, accountId, 'before');
  expect(await versionOf(db, old)).toBe(0);

  const after = await migrator.migrateToLatest();
  if (after.error) throw after.error;
  expect(after.results?.map((result) => [result.migrationName, result.status])).toContainEqual([
    '0030_shipment_version_insert_without_trigger',
    'Success',
  ]);

  expect(await versionOf(db, old)).toBe(0);
  await db.updateTable('shipments').set({ status: 'active' }).where('id', '=', old).execute();
  expect(await versionOf(db, old)).toBe(1);

  // A row inserted as it is now gets its version from the trigger on PostgreSQL only; on SQLite, from the
  // repository (test/db/shipment-version-rows.test.ts).
  const fresh = await addShipment(db, accountId, 'after');
  expect(await versionOf(db, fresh)).toBe(postgres ? 0 : undefined);

  await db.deleteFrom('shipments').where('id', '=', old).execute();
  expect(await versionOf(db, old)).toBeUndefined();
}

describe('migration 0030: no insert trigger for shipment versions on SQLite', () => {
  it('SQLite', async () => {
    const raw = new Database(':memory:');
    raw.pragma('foreign_keys = ON');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
    try {
      await check(db, false);
      const triggers = raw
        .prepare("select name from sqlite_master where type = 'trigger' and name like 'shipment_versions_shipment_%' order by name")
        .pluck()
        .all();
      expect(triggers).toEqual(['shipment_versions_shipment_delete', 'shipment_versions_shipment_update']);
    } finally {
      await db.destroy();
    }
  });

  it.skipIf(postgres.url === null)('PostgreSQL', async () => {
    const database = await createDatabase(postgres.url as string, 'wb_mig');
    drops.push(() => database.drop());
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
    try {
      await check(db, true);
    } finally {
      await db.destroy();
    }
  });
});

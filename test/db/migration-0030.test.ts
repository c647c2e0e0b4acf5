import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { reachablePostgres } from '../reliability/postgres.js';
import { insertBareShipment, migratedTo, onPostgres, onSqlite, upgradedAccount, versionOf } from './upgraded-database.js';

/**
 * Migration 0030 on a database left by the release before it: on SQLite the trigger that wrote a new shipment's
 * version row is gone, and the shipments written before keep their versions, which updates still move and deletes
 * still remove. On PostgreSQL nothing changes: an insert still gets its version row from the trigger.
 */
const postgres = await reachablePostgres();
const now = '2026-12-06T10:00:00.000Z';

async function check(db: Kysely<any>, postgres: boolean): Promise<void> {
  const migrator = await migratedTo(db, '0029_shipment_tags_without_rowid');
  const accountId = await upgradedAccount(db, 'acc-0030', now);
  const old = await insertBareShipment(db, accountId, 'before', now);
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
  const fresh = await insertBareShipment(db, accountId, 'after', now);
  expect(await versionOf(db, fresh)).toBe(postgres ? 0 : undefined);

  await db.deleteFrom('shipments').where('id', '=', old).execute();
  expect(await versionOf(db, old)).toBeUndefined();
}

describe('migration 0030: no insert trigger for shipment versions on SQLite', () => {
  it('SQLite', () =>
    onSqlite(async (db, raw) => {
      await check(db, false);
      const triggers = raw
        .prepare("select name from sqlite_master where type = 'trigger' and name like 'shipment_versions_shipment_%' order by name")
        .pluck()
        .all();
      expect(triggers).toEqual(['shipment_versions_shipment_delete', 'shipment_versions_shipment_update']);
    }));

  it.skipIf(postgres.url === null)('PostgreSQL', () => onPostgres(postgres.url as string, (db) => check(db, true)));
});

import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { reachablePostgres } from '../reliability/postgres.js';
import { insertBareShipment, migratedTo, onPostgres, onSqlite, upgradedAccount } from './upgraded-database.js';

/**
 * Migration 0029 on a database left by the release before it: the tags are all still there, on SQLite in a table
 * WITHOUT ROWID whose primary key still refuses a shipment's tag twice, the account's index still serves the
 * tag filter, and deleting a shipment still deletes its tags.
 */
const postgres = await reachablePostgres();
const now = '2026-12-02T10:00:00.000Z';

async function upgraded(db: Kysely<any>): Promise<number[]> {
  const migrator = await migratedTo(db, '0028_tracking_lookups_by_key');
  const accountId = await upgradedAccount(db, 'acc-0029', now);
  const ids = [await insertBareShipment(db, accountId, 'first', now), await insertBareShipment(db, accountId, 'second', now)];
  await db
    .insertInto('shipment_tags')
    .values([
      { shipment_row_id: ids[0], account_id: accountId, tag: 'fragile' },
      { shipment_row_id: ids[0], account_id: accountId, tag: 'gift' },
      { shipment_row_id: ids[1], account_id: accountId, tag: 'gift' },
    ])
    .execute();

  const after = await migrator.migrateToLatest();
  if (after.error) throw after.error;
  expect(after.results?.map((r) => `${r.migrationName}:${r.status}`)).toContain('0029_shipment_tags_without_rowid:Success');
  return [accountId, ...ids];
}

/** What the migration must keep: every tag, the key, the account's filter and the cascade. */
async function expectTagsKept(db: Kysely<any>, [accountId, first, second]: number[]): Promise<void> {
  const tags = await db.selectFrom('shipment_tags').select(['shipment_row_id', 'tag']).orderBy('shipment_row_id').orderBy('tag').execute();
  expect(tags.map((row) => [Number(row.shipment_row_id), row.tag])).toEqual([
    [first, 'fragile'],
    [first, 'gift'],
    [second, 'gift'],
  ]);
  await expect(
    db.insertInto('shipment_tags').values({ shipment_row_id: first, account_id: accountId, tag: 'gift' }).execute(),
  ).rejects.toThrow(/unique|duplicate/i);
  const gifts = await db
    .selectFrom('shipment_tags')
    .select('shipment_row_id')
    .where('account_id', '=', accountId)
    .where('tag', '=', 'gift')
    .execute();
  expect(gifts.map((row) => Number(row.shipment_row_id)).sort()).toEqual([first, second].sort());
  await db.deleteFrom('shipments').where('id', '=', first).execute();
  const left = await db.selectFrom('shipment_tags').select(['shipment_row_id', 'tag']).execute();
  expect(left.map((row) => [Number(row.shipment_row_id), row.tag])).toEqual([[second, 'gift']]);
}

describe('migration 0029 on an upgraded database', () => {
  it('SQLite: the tags move to a table without rowid, with their key, index and cascade', () =>
    onSqlite(async (db, raw) => {
      const ids = await upgraded(db);
      const table = raw.prepare("select sql from sqlite_master where type = 'table' and name = 'shipment_tags'").get() as { sql: string };
      expect(table.sql).toMatch(/without rowid\s*$/i);
      const indexes = (
        raw.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'shipment_tags'").all() as Array<{ name: string }>
      ).map((row) => row.name);
      expect(indexes).toContain('shipment_tags_account_tag');
      const plan = raw
        .prepare("explain query plan select shipment_row_id from shipment_tags where account_id = ? and tag = 'gift'")
        .all(ids[0]) as Array<{ detail: string }>;
      expect(plan.map((step) => step.detail).join(' ')).toContain('shipment_tags_account_tag');
      expect(raw.pragma('foreign_key_check')).toEqual([]);
      await expectTagsKept(db, ids);
    }));

  it('SQLite: a migration that fails part way leaves the tags where they were, and runs whole on the next start', () =>
    onSqlite(async (db, raw) => {
      const migrator = await migratedTo(db, '0028_tracking_lookups_by_key');
      const accountId = await upgradedAccount(db, 'acc-0029-stop', now);
      const kept = await insertBareShipment(db, accountId, 'kept', now);
      raw.prepare("insert into shipment_tags (shipment_row_id, account_id, tag) values (?, ?, 'kept')").run(kept, accountId);
      // A tag whose shipment is gone, as a write with foreign keys off leaves it.
      raw.pragma('foreign_keys = OFF');
      raw.prepare("insert into shipment_tags (shipment_row_id, account_id, tag) values (99, ?, 'orphan')").run(accountId);
      raw.pragma('foreign_keys = ON');
      // A view over the table makes the rename, the fourth of the migration's five statements, fail.
      raw.exec('create view tags_seen as select tag from shipment_tags');
      const failed = await migrator.migrateToLatest();
      expect(String(failed.error)).toMatch(/tags_seen/);
      expect(raw.prepare('select shipment_row_id, tag from shipment_tags order by tag').all()).toEqual([
        { shipment_row_id: 1, tag: 'kept' },
        { shipment_row_id: 99, tag: 'orphan' },
      ]);
      expect(raw.prepare("select name from sqlite_master where name = 'shipment_tags_rebuilt'").all()).toEqual([]);

      raw.exec('drop view tags_seen');
      const after = await migrator.migrateToLatest();
      if (after.error) throw after.error;
      expect(raw.prepare('select shipment_row_id, tag from shipment_tags').all()).toEqual([{ shipment_row_id: 1, tag: 'kept' }]);
    }));

  it.skipIf(postgres.url === null)('PostgreSQL: the table is kept as it was, with every tag', () =>
    onPostgres(postgres.url as string, async (db) => expectTagsKept(db, await upgraded(db))),
  );
});

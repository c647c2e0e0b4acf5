import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { reachablePostgres } from '../reliability/postgres.js';
import { bareShipment, migratedTo, onPostgres, upgradedAccount } from './upgraded-database.js';

/**
 * Migration 0019 on a database left by the release before it: the index of every next poll is dropped, and a
 * shipment scheduled without a carrier configuration (out of the new poller's sight) stops being tracked, while
 * every other shipment keeps its next poll.
 */
const postgres = await reachablePostgres();

async function upgraded(db: Kysely<any>): Promise<void> {
  const migrator = await migratedTo(db, '0018_tracking_fingerprint');

  const now = '2026-11-27T10:00:00.000Z';
  const accountId = await upgradedAccount(db, 'acc-0019', now);
  const shipment = (id: string, carrierReference: string | null, nextPoll: string | null) => ({
    ...bareShipment(accountId, id, now),
    tracking_number: `1Z${id}`,
    carrier_reference: carrierReference,
    next_poll_at: nextPoll,
  });
  await db
    .insertInto('shipments')
    .values([
      shipment('configured', 'ups', '2026-11-27T10:30:00.000Z'),
      shipment('unconfigured', null, '2026-11-27T10:05:00.000Z'),
      shipment('untracked', null, null),
      shipment('ended', 'ups', null),
    ])
    .execute();

  const after = await migrator.migrateToLatest();
  if (after.error) throw after.error;
  expect(after.results?.map((r) => `${r.migrationName}:${r.status}`)).toContain('0019_poll_claims_without_global_index:Success');
}

async function nextPolls(db: Kysely<any>): Promise<Record<string, string | null>> {
  const rows = await db.selectFrom('shipments').select(['shipment_id', 'next_poll_at']).orderBy('id').execute();
  return Object.fromEntries(
    rows.map((row) => [row.shipment_id, row.next_poll_at === null ? null : new Date(row.next_poll_at).toISOString()]),
  );
}

const expected = {
  configured: '2026-11-27T10:30:00.000Z',
  unconfigured: null,
  untracked: null,
  ended: null,
};

describe('migration 0019 on an upgraded database', () => {
  it('SQLite: ends the tracking of shipments without a configuration, keeps the others, drops the index', async () => {
    const raw = new Database(':memory:');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
    try {
      await upgraded(db);
      expect(await nextPolls(db)).toEqual(expected);
      const indexes = (
        raw.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'shipments'").all() as Array<{ name: string }>
      ).map((row) => row.name);
      expect(indexes).not.toContain('shipments_next_poll');
      expect(indexes).toContain('shipments_configuration_next_poll');
    } finally {
      await db.destroy();
    }
  });

  it.skipIf(postgres.url === null)('PostgreSQL: the same', () =>
    onPostgres(postgres.url as string, async (db) => {
      await upgraded(db);
      expect(await nextPolls(db)).toEqual(expected);
      const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'shipments'`.execute(db);
      const names = indexes.rows.map((row) => row.indexname);
      expect(names).not.toContain('shipments_next_poll');
      expect(names).toContain('shipments_configuration_next_poll');
    }),
  );
});

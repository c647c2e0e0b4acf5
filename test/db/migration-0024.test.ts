import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { reachablePostgres } from '../reliability/postgres.js';
import { migratedTo, onPostgres, upgradedAccount } from './upgraded-database.js';

/**
 * Migration 0024 on a database with delivery rollups by lane only (0023): the rows by carrier configuration and
 * service are summed from them (weeks and months) and from the daily rows (days), counters and transit
 * histograms, so that a year by carrier or by week reads the same answer after the upgrade as before.
 */
const postgres = await reachablePostgres();

const COUNTERS = {
  shipments: 0,
  accepted: 0,
  first_attempts: 0,
  first_attempt_successes: 0,
  delivered: 0,
  on_time: 0,
  promised: 0,
  exceptions: 0,
  returned_to_sender: 0,
};

async function upgraded(db: Kysely<any>): Promise<void> {
  const migrator = await migratedTo(db, '0023_delivery_intelligence');
  const now = '2026-11-27T10:00:00.000Z';
  const accountId = await upgradedAccount(db, 'acc-0024', now);
  const lane = (destination: string) => ({
    account_id: accountId,
    lane_key: JSON.stringify(['dhl', 'dhlpde', '', 'DE', destination, '10']),
    carrier_reference: 'dhl',
    carrier_id: 'dhlpde',
    shipping_service: '',
    origin_country: 'DE',
    destination_country: destination,
    destination_prefix: '10',
  });
  const counts = (shipments: number) => ({ ...COUNTERS, shipments, accepted: shipments });
  // One day of two lanes, as 0023 kept it: the daily rows, their transits, and their week and month.
  await db
    .insertInto('delivery_daily')
    .values([
      { ...lane('DE'), day: '2026-11-03', ...counts(3) },
      { ...lane('AT'), day: '2026-11-03', ...counts(2) },
    ])
    .execute();
  const transit = (destination: string, value: number, timing: string, shipments: number) => ({
    account_id: accountId,
    day: '2026-11-03',
    lane_key: lane(destination).lane_key,
    transit: value,
    timing,
    shipments,
  });
  await db
    .insertInto('delivery_daily_transits')
    .values([transit('DE', 1, 'on_time', 2), transit('DE', 2, 'late', 1), transit('AT', 2, 'early', 1), transit('AT', 2, 'on_time', 1)])
    .execute();
  const rollup = (unit: string, start: string, destination: string, shipments: number, transits: number[][]) => ({
    ...lane(destination),
    unit,
    start,
    ...counts(shipments),
    transits: JSON.stringify(transits),
  });
  await db
    .insertInto('delivery_rollups')
    .values([
      rollup('week', '2026-11-02', 'DE', 3, [
        [1, 0, 2, 0, 0],
        [2, 0, 0, 1, 0],
      ]),
      rollup('week', '2026-11-02', 'AT', 2, [[2, 1, 1, 0, 0]]),
      rollup('month', '2026-11-01', 'DE', 3, [
        [1, 0, 2, 0, 0],
        [2, 0, 0, 1, 0],
      ]),
      rollup('month', '2026-11-01', 'AT', 2, [[2, 1, 1, 0, 0]]),
    ])
    .execute();
  const after = await migrator.migrateToLatest();
  if (after.error) throw after.error;
}

async function carrierRows(db: Kysely<any>) {
  const rows = await db
    .selectFrom('delivery_rollups')
    .select(['unit', 'start', 'lane_key', 'destination_country', 'shipments', 'accepted', 'transits'])
    .where('unit', 'like', 'carrier_%')
    .orderBy('unit')
    .execute();
  return rows.map((row) => ({ ...row, shipments: Number(row.shipments), accepted: Number(row.accepted) }));
}

const START = { carrier_day: '2026-11-03', carrier_month: '2026-11-01', carrier_week: '2026-11-02' };
const expected = Object.entries(START).map(([unit, start]) => ({
  unit,
  start,
  lane_key: '["dhl","dhlpde",""]',
  destination_country: '',
  shipments: 5,
  accepted: 5,
  transits: '[[1,0,2,0,0],[2,1,1,1,0]]',
}));

describe('migration 0024 on a database with rollups by lane', () => {
  it('SQLite: sums the rows by configuration and service from the lanes', async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    try {
      await upgraded(db);
      expect(await carrierRows(db)).toEqual(expected);
    } finally {
      await db.destroy();
    }
  });

  it.skipIf(postgres.url === null)('PostgreSQL: the same', () =>
    onPostgres(postgres.url as string, async (db) => {
      await upgraded(db);
      expect(await carrierRows(db)).toEqual(expected);
    }),
  );
});

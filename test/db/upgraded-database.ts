import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrations } from '../../src/db/migrate.js';
import { createDatabase } from '../reliability/postgres.js';

/**
 * A database as the release before a migration left it: every migration up to `last` applied. Returns the
 * migrator, whose `migrateToLatest` then plays the upgrade.
 */
export async function migratedTo(db: Kysely<any>, last: string): Promise<Migrator> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const before = await migrator.migrateTo(last);
  if (before.error) throw before.error;
  return migrator;
}

/** An account row of such a database; answers its id. */
export async function upgradedAccount(db: Kysely<any>, accountUuid: string, now: string): Promise<number> {
  const account = await db
    .insertInto('accounts')
    .values({ account_uuid: accountUuid, name: 'Upgraded', features: '[]', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(account.id);
}

/** A shipment row with only the columns every release requires, keyed by `id` (uuid, shipment_id, page). */
export function bareShipment(accountId: number, id: string, now: string) {
  return {
    account_id: accountId,
    shipment_uuid: `uuid-${id}`,
    shipment_id: id,
    status: 'pending',
    source: 'api',
    tracking_page_reference: `page-${id}`,
    body: '{}',
    created_at: now,
    updated_at: now,
  };
}

/** `bareShipment` inserted as a row; answers its id. */
export async function insertBareShipment(db: Kysely<any>, accountId: number, id: string, now: string): Promise<number> {
  const row = await db
    .insertInto('shipments')
    .values(bareShipment(accountId, id, now))
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A shipment's version (0026_shipment_versions); undefined when it has none. */
export async function versionOf(db: Kysely<any>, shipmentRowId: number): Promise<number | undefined> {
  const row = await db.selectFrom('shipment_versions').select('version').where('shipment_row_id', '=', shipmentRowId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.version);
}

/** Runs `check` on a fresh in-memory SQLite database, its foreign keys on as the service keeps them. */
export async function onSqlite(check: (db: Kysely<any>, raw: Database.Database) => Promise<void>): Promise<void> {
  const raw = new Database(':memory:');
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
  try {
    await check(db, raw);
  } finally {
    await db.destroy();
  }
}

/**
 * Runs `check` on a fresh PostgreSQL database made through `adminUrl`, dropped once it has run. The pool's `end`
 * settles before the server has read each connection's goodbye, so the drop (`WITH (FORCE)`) can end a backend still
 * waiting for it; the server's "terminating connection" then reaches an idle client, which a pool with no `error`
 * listener throws as an uncaught exception. The listener keeps such errors, as the service's own pool does.
 */
export async function onPostgres(adminUrl: string, check: (db: Kysely<any>) => Promise<void>): Promise<void> {
  const database = await createDatabase(adminUrl, 'wb_mig');
  const idleErrors: Error[] = [];
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  pool.on('error', (error) => idleErrors.push(error));
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  try {
    await check(db);
    // Nothing ends a connection while the check runs: an error by then is the check's.
    if (idleErrors.length > 0) throw idleErrors[0];
  } finally {
    await db.destroy();
    await database.drop();
  }
}

import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { createDatabase, reachablePostgres } from '../reliability/postgres.js';

/**
 * PostgreSQL ends idle connections when it restarts, fails over or is told to (`pg_terminate_backend`): the
 * process that held them goes on, and its next query runs on a new connection.
 */
const postgres = await reachablePostgres();
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

describe.skipIf(postgres.url === null)('PostgreSQL connections ended by the server', () => {
  it('an idle connection ended by the server neither stops the process nor fails the next query', async () => {
    const database = await createDatabase(postgres.url as string, 'wb_term');
    drops.push(database.drop);
    const told: Error[] = [];
    const handle = openDatabase({
      dataDir: '',
      databaseUrl: database.url,
      poolSize: 2,
      onIdleConnectionError: (error) => told.push(error),
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      // Two connections in the pool, both idle.
      await Promise.all([sql`select pg_sleep(0.05)`.execute(handle.db), sql`select pg_sleep(0.05)`.execute(handle.db)]);
      const admin = new pg.Client({ connectionString: postgres.url as string });
      await admin.connect();
      const name = new URL(database.url).pathname.slice(1);
      const ended = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      await admin.end();
      expect(ended.rowCount).toBe(2);
      // The pool learns of each ending when its socket reports it; under load that can take a while, so wait
      // for both (the listener is what production gives it) rather than for a fixed time.
      const deadline = Date.now() + 10_000;
      while (told.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(told).toHaveLength(2);
      const row = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
      expect(row.rows[0].one).toBe(1);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await handle.close();
    }
  });
});

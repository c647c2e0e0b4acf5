import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createDatabase, reachablePostgres } from '../reliability/postgres.js';

/**
 * A database the service shares: other schemas are created, altered and dropped while it starts (another
 * deployment's migrations, a test run's cleanup). Its migrations look for their bookkeeping tables in its own
 * schema alone, so what happens elsewhere cannot stop it (src/db/postgres-dialect.ts).
 */
const postgres = await reachablePostgres();
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

describe.skipIf(postgres.url === null)('migrations on a database whose other schemas change meanwhile (PostgreSQL)', () => {
  it('start again and again while another schema is created, given tables and dropped', async () => {
    const database = await createDatabase(postgres.url as string, 'wb_ddl');
    drops.push(database.drop);
    const handle = openDatabase({ dataDir: '', databaseUrl: database.url, poolSize: 2 });
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    let churning = true;
    let churned = 0;
    // Each statement commits on its own, so the service's reads see schemas and tables appear and go.
    const churn = (async () => {
      while (churning) {
        const schema = `other_${randomBytes(4).toString('hex')}`;
        await other.query(`create schema ${schema}`);
        for (let t = 0; t < 8; t++) await other.query(`create table ${schema}.t${t} (id serial primary key, note text, n int)`);
        await other.query(`alter table ${schema}.t0 drop column note`);
        await other.query(`drop schema ${schema} cascade`);
        churned++;
      }
    })();
    const started: string[][] = [];
    try {
      for (let i = 0; i < 80; i++) started.push(await migrateToLatest(handle.db, 'public'));
    } finally {
      churning = false;
      await churn;
      await other.end();
      await handle.close();
    }
    expect(churned).toBeGreaterThan(5);
    expect(started[0].length).toBeGreaterThan(20);
    expect(started.slice(1).every((applied) => applied.length === 0)).toBe(true);
  });
});

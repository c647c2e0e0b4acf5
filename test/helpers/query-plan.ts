import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { usingPostgres } from './app.js';

/**
 * The database's plan for `query`, as text (SQLite's `explain query plan`, PostgreSQL's `explain`), to check which
 * index a query uses. The test tables are small: PostgreSQL is told not to read tables whole, or it would whatever
 * the index.
 */
export async function queryPlan(db: Kysely<Database>, query: CompiledQuery): Promise<string> {
  const plan = await db.connection().execute(async (connection) => {
    const explain = (prefix: string) => connection.executeQuery(CompiledQuery.raw(`${prefix} ${query.sql}`, [...query.parameters]));
    if (!usingPostgres) return explain('explain query plan');
    await sql`set enable_seqscan = off`.execute(connection);
    try {
      return await explain('explain');
    } finally {
      await sql`reset enable_seqscan`.execute(connection);
    }
  });
  return JSON.stringify(plan.rows);
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';

const FALLBACK_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The server to create throwaway databases on: DATABASE_URL's, else a local one; null when none answers. */
export async function reachablePostgres(): Promise<{ url: string } | { url: null; reason: string }> {
  const url = process.env.DATABASE_URL || FALLBACK_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { url };
  } catch (error) {
    return { url: null, reason: `PostgreSQL not reachable at ${url.replace(/\/\/[^@]*@/, '//')} (${(error as Error).message})` };
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh database on that server, for a service process of its own (schema `public`, as in production). */
export async function createDatabase(adminUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

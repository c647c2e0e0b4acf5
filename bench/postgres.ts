import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { statCpuMs } from './harness.js';

/**
 * A fresh PostgreSQL database for one benchmark run, dropped afterwards. The server is the one of
 * BENCH_DATABASE_URL or DATABASE_URL (any database on it), by default postgres://postgres@127.0.0.1:5432/postgres.
 */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = new URL(process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  const name = `wb_bench_${randomBytes(4).toString('hex')}`;
  const admin = new URL(server);
  admin.pathname = '/postgres';
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/**
 * CPU (ms) of each server process serving the database of `url` now, by its pid, read from /proc: the server must
 * run on this machine, else null. Read before and after a measurement, the difference is the server's part of it.
 */
export async function backendCpuMs(url: string): Promise<Map<number, number> | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      const ms = statCpuMs(`/proc/${pid}/stat`);
      if (ms === null) return null;
      cpu.set(pid, ms);
    }
    return cpu;
  } finally {
    await client.end();
  }
}

/** The server's CPU (ms) between two readings of backendCpuMs; a process begun between them counts whole. */
export function backendCpuBetween(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}

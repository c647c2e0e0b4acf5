import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { WalCheckpointer } from './wal-checkpointer.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, for logs (file path or host/database, never a password). */
  description: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL only: a schema to work in (tests give each run its own). */
  pgSchema?: string;
  poolSize?: number;
  /** SQLite only: `full` (the default) syncs the log at every commit, so no acknowledged write is lost to a power cut. */
  sqliteSynchronous?: 'full' | 'normal';
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options)
    : openSqlite(options.dataDir, options.sqliteSynchronous ?? 'full');
}

function openSqlite(dataDir: string, synchronous: 'full' | 'normal'): DatabaseHandle {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'waybill.sqlite');
  const raw = new SqliteDatabase(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  // A page cache and memory map in proportion to a service's working set, instead of the 2 MB default.
  raw.pragma('cache_size = -65536');
  raw.pragma('mmap_size = 268435456');
  // Checkpoints run on their own thread (WalCheckpointer); the automatic one, in the commit that crosses
  // the threshold, stays only as a backstop far above what the thread lets the log grow to.
  raw.pragma('wal_autocheckpoint = 16384');
  raw.pragma('journal_size_limit = 67108864');
  const checkpointer = new WalCheckpointer(file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
  return {
    db,
    dialect: 'sqlite',
    description: file,
    close: async () => {
      await db.destroy();
      await checkpointer.close();
    },
  };
}

/**
 * Keeps prepared statements by SQL text: the query layer asks for a fresh statement on every execution,
 * and preparing costs more than running a point query. Statements run to completion synchronously, so
 * one statement is never in use twice at once. Also makes every transaction `begin immediate`.
 */
function withStatementCache(raw: SqliteDatabase.Database, limit = 500): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= limit) cache.clear();
      // Transactions take the write lock when they begin (waiting up to busy_timeout for it). A deferred one
      // that read first could not upgrade once another process had committed, and fails at once with
      // SQLITE_BUSY: that is what several processes on one file (serve --workers, serve + worker) would hit.
      statement = raw.prepare(sql === 'begin' ? 'begin immediate' : sql);
      cache.set(sql, statement);
    }
    return statement;
  };
  return new Proxy(raw, {
    get(target, property, receiver) {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

// COUNT(*) and BIGINT come back as strings by default; every count we make fits a JS number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

function openPostgres(url: string, options: DatabaseOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    options: options.pgSchema ? `-c search_path=${options.pgSchema}` : undefined,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const parsed = new URL(url);
  return {
    db,
    dialect: 'postgres',
    description: `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}${options.pgSchema ? ` (schema ${options.pgSchema})` : ''}`,
    close: () => db.destroy(),
  };
}

export async function ping(handle: DatabaseHandle): Promise<void> {
  await sql`select 1`.execute(handle.db);
}

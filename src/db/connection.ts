import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import type { ChangeWatch } from './change-watch.js';
import { SchemaPostgresDialect } from './postgres-dialect.js';
import { NamingClient } from './postgres-named-statements.js';
import { allowDirectReads } from './prepared-query.js';
import type { Database } from './schema.js';
import { SqliteChangeWatch } from './sqlite-change-watch.js';
import { sqliteDialect, WalSync } from './sqlite-driver.js';
import { WritesComing } from './sqlite-group-commit.js';
import { WalCheckpointer } from './wal-checkpointer.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, for logs (file path or host/database, never a password). */
  description: string;
  /** Changes to shipments known without reading them (embedded SQLite only). */
  changes: ChangeWatch | null;
  /** Embedded SQLite only: the transactions of the query layer committed so far, and the commits that held them. */
  commitCounts(): { transactions: number; commits: number } | null;
  /** Embedded SQLite only: how long a commit may wait for more writes to share it (ms; 0 never waits). */
  commitWindowMs: number | null;
  /**
   * Embedded SQLite only: announces a write on its way (an HTTP request that may write) until the function returned
   * is called. While announced writes overlap, a commit waits up to the commit window for more (CommitGroups).
   */
  announceWrite: (() => () => void) | null;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL only: a schema to work in (tests give each run its own). */
  pgSchema?: string;
  poolSize?: number;
  /**
   * PostgreSQL only: the statements of PreparedQuery prepared once on each connection (the default); false parses
   * every one every time, for a pooler in front that hands a session's statements to other clients.
   */
  pgPreparedStatements?: boolean;
  /**
   * SQLite only: `full` (the default) has every commit on disk before any caller learns of it, so no
   * acknowledged write is lost to a power cut; `normal` leaves the last commits to the operating system.
   */
  sqliteSynchronous?: 'full' | 'normal';
  /** SQLite only: how long a commit may wait for more writes to share it (ms, default 0: never waits). */
  sqliteCommitWindowMs?: number;
  /**
   * PostgreSQL only: told when the server ends an idle connection (a restart, a failover, an operator). The pool
   * drops that connection and opens a new one for the next query; without a listener the error would stop the
   * process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options)
    : openSqlite(options.dataDir, options.sqliteSynchronous ?? 'full', options.sqliteCommitWindowMs ?? 0);
}

function openSqlite(dataDir: string, synchronous: 'full' | 'normal', commitWindowMs: number): DatabaseHandle {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'waybill.sqlite');
  const raw = new SqliteDatabase(file);
  const wal = raw.pragma('journal_mode = WAL', { simple: true }) === 'wal';
  // `full` syncs the log after every commit, but on the thread pool (WalSync) rather than inside the commit,
  // which would stop the event loop for each sync; SQLite's own setting is then NORMAL. Where the file
  // system refuses the log, SQLite syncs every commit itself.
  const walSync = synchronous === 'full' && wal ? new WalSync(`${file}-wal`) : null;
  raw.pragma(`synchronous = ${synchronous === 'full' && !wal ? 'FULL' : 'NORMAL'}`);
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  // A page cache of 4 MiB, twice the 2 MB default, and the file read through a memory map: a read transaction takes
  // a page from the map, not the cache, unless the log holds a newer copy. Not more: while the file is under 1 GiB,
  // a commit whose B-tree balance renumbered pages (through the page number past 1 GiB) ends by walking every page
  // of the cache, which with 64 MiB cost a create about 90 µs, and with 16 MiB 1.5% of the mixed load's CPU
  // (docs/performance.md, the mixed load).
  raw.pragma('cache_size = -4096');
  raw.pragma('mmap_size = 268435456');
  // Checkpoints run on their own thread (WalCheckpointer); the automatic one, in the commit that crosses
  // the threshold, stays only as a backstop far above what the thread lets the log grow to.
  raw.pragma('wal_autocheckpoint = 16384');
  raw.pragma('journal_size_limit = 67108864');
  // Temporary tables and indexes, and the journal of a savepoint (each transaction of a shared commit after the
  // first holds one), in memory: beyond 64 KiB, which a create's journal passes, SQLite would make and remove a
  // temporary file for each.
  raw.pragma('temp_store = MEMORY');
  const coming = new WritesComing(commitWindowMs);
  const changes = new SqliteChangeWatch(raw, () => walSync?.failed ?? false);
  const dialect = sqliteDialect(raw, walSync, coming, {
    reader: wal ? openReader(file) : null,
    onCommit: () => changes.committed(),
  });
  const checkpointer = new WalCheckpointer(file, { holdWrites: (copy) => dialect.holdWrites(copy) });
  const db = new Kysely<Database>({ dialect });
  allowDirectReads(db, dialect.directReads);
  return {
    db,
    dialect: 'sqlite',
    description: file,
    changes,
    commitCounts: () => ({ ...dialect.commitCounts }),
    commitWindowMs,
    announceWrite: () => coming.announce(),
    close: async () => {
      await db.destroy();
      await checkpointer.close();
    },
  };
}

/**
 * The connection that reads while the writing one has a transaction open (a commit group waiting for its window to
 * end): in WAL mode a reader reads the last commit without waiting for the writer, so reads are not held for the
 * window (SqliteDirectReads). It only reads (`query_only`), with a smaller cache of its own.
 *
 * It reads with `pread`, not through a memory map. Each commit of the writing connection makes SQLite drop the
 * reader's whole cache at its next read, and with a map it also unmaps the whole file and maps it again: in the
 * mixed load a shipment's head or a list page's stamps then cost 330–410 µs on the reader against 55 µs on the
 * writing connection; without the map, 55–65 µs (docs/performance.md, the mixed load).
 */
export function openReader(file: string): SqliteDatabase.Database {
  const reader = new SqliteDatabase(file);
  reader.pragma('query_only = ON');
  reader.pragma('busy_timeout = 5000');
  reader.pragma('cache_size = -2048');
  reader.pragma('mmap_size = 0');
  reader.pragma('temp_store = MEMORY');
  return reader;
}

// COUNT(*) and BIGINT come back as strings by default; every count we make fits a JS number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

function openPostgres(url: string, options: DatabaseOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    options: options.pgSchema ? `-c search_path=${options.pgSchema}` : undefined,
    Client: options.pgPreparedStatements === false ? undefined : NamingClient,
  });
  pool.on('error', (error) => options.onIdleConnectionError?.(error));
  const db = new Kysely<Database>({ dialect: new SchemaPostgresDialect({ pool }, options.pgSchema ?? 'public') });
  const parsed = new URL(url);
  return {
    db,
    dialect: 'postgres',
    changes: null,
    commitCounts: () => null,
    commitWindowMs: null,
    announceWrite: null,
    description: `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}${options.pgSchema ? ` (schema ${options.pgSchema})` : ''}`,
    close: () => db.destroy(),
  };
}

export async function ping(handle: DatabaseHandle): Promise<void> {
  await sql`select 1`.execute(handle.db);
}

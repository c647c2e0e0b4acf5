import fs from 'node:fs';
import type SqliteDatabase from 'better-sqlite3';
import { type DatabaseConnection, type Driver, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from 'kysely';
import { FifoLock } from './fifo-lock.js';
import type { DirectReads, WriteResult } from './prepared-query.js';
import { CommitGroups, type WritesComing } from './sqlite-group-commit.js';

// `fs.fdatasync` is looked up at each call (tests observe it).
const fdatasync = (fd: number) => new Promise<void>((resolve, reject) => fs.fdatasync(fd, (error) => (error ? reject(error) : resolve())));

/**
 * Makes commits of a WAL database durable without stopping the event loop: SQLite runs with
 * `synchronous = NORMAL` (a commit writes its frames to the log but does not sync it) and this syncs the log
 * file on libuv's thread pool instead. One sync covers every commit written before it started, so commits
 * that arrive while a sync runs share the next one (group commit).
 *
 * A failed sync may have lost what it covered: from then on every barrier fails, so no query result is
 * handed back (writes nor reads, and the health check fails), and a restart recovers from what the log holds.
 */
export class WalSync {
  private committed = 0;
  private synced = 0;
  private running: Promise<void> | null = null;
  private fd: number | null = null;
  private failure: Error | null = null;

  constructor(
    private readonly walFile: string,
    private readonly syncFile: (fd: number) => Promise<void> = fdatasync,
  ) {}

  /** A commit has been written to the log (and is visible to readers of this connection). */
  noteCommit(): void {
    this.committed++;
  }

  /** True while a commit is written but not yet on disk. */
  get behind(): boolean {
    return this.synced < this.committed || this.failure !== null;
  }

  /** True once a sync has failed: nothing may be answered until a restart. */
  get failed(): boolean {
    return this.failure !== null;
  }

  /** Resolves once every commit noted so far is on disk. */
  async barrier(): Promise<void> {
    const target = this.committed;
    while (this.synced < target || this.failure) {
      if (this.failure) throw this.failure;
      this.running ??= this.syncOnce();
      await this.running;
    }
  }

  private async syncOnce(): Promise<void> {
    // Everything noted now was written before the sync starts, so the sync covers it.
    const upTo = this.committed;
    try {
      this.fd ??= fs.openSync(this.walFile, 'r');
      await this.syncFile(this.fd);
      this.synced = Math.max(this.synced, upTo);
    } catch (error) {
      this.failure = new Error(`Syncing the SQLite log failed; no query is answered until a restart: ${(error as Error).message}`);
    } finally {
      this.running = null;
    }
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}

type Statement = SqliteDatabase.Statement;

/**
 * `limit ?` written `limit +?`. The SQLite better-sqlite3 builds (3.53) plans a statement whose LIMIT is a bare
 * parameter with the value bound at its first run, and marks the statement to be compiled again whenever that
 * parameter is bound again, even to the same value (`sqlite3ExprIsInteger` on a `TK_VARIABLE`): every run of a kept
 * statement with `limit ?` was parsed and planned anew (in the service 217-267 µs for a list page's 21 stamps against
 * 95-127 µs without it). An expression is not read at planning, so the statement is compiled once, with the plan of
 * a limit not known in advance. Kysely writes every limit, and the raw queries theirs, as a bare parameter; no SQL
 * we write holds the text `limit ?` inside a string literal, which this would change.
 */
export function limitsAsExpressions(sql: string): string {
  return sql.includes('limit ?') ? sql.replaceAll('limit ?', 'limit +?') : sql;
}

/**
 * The connection as Kysely's SQLite driver uses it: statements cached by SQL text (the query layer asks
 * for a fresh statement on every execution, and preparing costs more than running a point query), limits as
 * expressions (`limitsAsExpressions`), every transaction `begin immediate`, and each commit reported to `onCommit`.
 */
class TrackedDatabase {
  private readonly cache = new Map<string, TrackedStatement>();
  /** A statement that changes data ran since the last commit. */
  wrote = false;

  /** Another connection whose kept statements a schema change here makes stale too (the reader's). */
  companion: TrackedDatabase | null = null;

  constructor(
    readonly raw: SqliteDatabase.Database,
    readonly onCommit: (() => void) | null,
    private readonly limit = 500,
  ) {}

  prepare(sql: string): TrackedStatement {
    let statement = this.cache.get(sql);
    if (!statement) {
      if (this.cache.size >= this.limit) this.cache.clear();
      // Transactions take the write lock when they begin (waiting up to busy_timeout for it). A deferred one
      // that read first could not upgrade once another process had committed, and fails at once with
      // SQLITE_BUSY: that is what several processes on one file (serve --workers, serve + worker) would hit.
      statement = new TrackedStatement(this.raw.prepare(sql === 'begin' ? 'begin immediate' : limitsAsExpressions(sql)), this, sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }

  /** Drops the kept statements (after a schema change: each is prepared, and its columns read, anew). */
  forgetStatements(): void {
    this.cache.clear();
    this.companion?.forgetStatements();
  }

  close(): void {
    this.raw.close();
  }
}

/**
 * A statement's rows as objects, made here from the values SQLite returns. better-sqlite3 builds each row's object
 * through V8's API, one property at a time: for a shipment's ten events (15 columns) that took 71 µs, against 46 µs
 * for the values alone and one object literal per row (`bench/row-objects.ts`). The literal is compiled once per
 * statement from its column names, so every row of a statement has one shape. The objects are better-sqlite3's:
 * a name repeated by two columns holds the last one's value at the first one's place, and a column named
 * `__proto__` is not a member (a literal's `__proto__`, like better-sqlite3's assignment, sets the prototype when
 * the value is a blob or null and is ignored otherwise).
 */
export class RowShape {
  private constructor(
    private make: (values: unknown[]) => Record<string, unknown>,
    private columns: number,
  ) {}

  static of(statement: Statement): RowShape {
    const names = statement.columns().map((column) => column.name);
    return new RowShape(RowShape.literal(names), names.length);
  }

  private static literal(names: string[]): (values: unknown[]) => Record<string, unknown> {
    const members = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ');
    return new Function('values', `return {${members}};`) as (values: unknown[]) => Record<string, unknown>;
  }

  objects(rows: unknown[][], statement: Statement): Array<Record<string, unknown>> {
    const objects = new Array<Record<string, unknown>>(rows.length);
    for (let i = 0; i < rows.length; i++) objects[i] = this.object(rows[i], statement);
    return objects;
  }

  object(values: unknown[], statement: Statement): Record<string, unknown> {
    // SQLite prepares a statement again when the schema changed under it (another connection's migration):
    // its columns are then read again.
    if (values.length !== this.columns) {
      const names = statement.columns().map((column) => column.name);
      this.make = RowShape.literal(names);
      this.columns = names.length;
    }
    return this.make(values);
  }
}

/** A transaction's begin, in any of its forms. */
const BEGIN = /^\s*begin\b/i;
/** A rollback of the whole transaction: `rollback` or `rollback transaction`, not `rollback to` a savepoint. */
const ROLLBACK = /^\s*rollback\s*(?:transaction\s*)?;?\s*$/i;

class TrackedStatement {
  readonly reader: boolean;
  readonly readonly: boolean;
  /** Makes a row's object from its values, for a statement that returns rows (see `RowShape`). */
  private readonly shape: RowShape | null;
  /** Changes the schema: the statements kept before it may return other columns. */
  private readonly changesSchema: boolean;
  /** Rolls a whole transaction back (not to a savepoint): what it wrote is gone, and there is nothing to sync. */
  private readonly endsTransaction: boolean;

  constructor(
    private readonly statement: Statement,
    private readonly owner: TrackedDatabase,
    sql: string,
  ) {
    this.reader = statement.reader;
    // Transaction control (begin, commit, savepoints) counts as read-only: what a transaction wrote is known from
    // its other statements. SQLite calls `begin immediate` a write (it takes the write lock), which would have
    // made every transaction, one that only read or was refused before it wrote included, wait for a sync.
    this.readonly = statement.readonly || BEGIN.test(sql);
    this.endsTransaction = ROLLBACK.test(sql);
    this.shape = statement.reader ? RowShape.of(statement) : null;
    if (this.shape) statement.raw(true);
    this.changesSchema = /^\s*(create|alter|drop)\b/i.test(sql);
  }

  all(parameters: readonly unknown[]): unknown[] {
    const rows = this.statement.all(parameters);
    this.ran();
    return this.shape ? this.shape.objects(rows as unknown[][], this.statement) : rows;
  }

  run(parameters: readonly unknown[]): SqliteDatabase.RunResult {
    const result = this.statement.run(parameters);
    this.ran();
    if (this.changesSchema) this.owner.forgetStatements();
    return result;
  }

  iterate(parameters: readonly unknown[]): IterableIterator<unknown> {
    const rows = this.statement.iterate(parameters) as IterableIterator<unknown[]>;
    const { shape, statement } = this;
    if (!shape) return rows;
    return (function* () {
      for (const values of rows) yield shape.object(values, statement);
    })();
  }

  private ran(): void {
    const { owner } = this;
    if (this.endsTransaction && !owner.raw.inTransaction) {
      owner.wrote = false;
      return;
    }
    if (!this.readonly) owner.wrote = true;
    // Out of a transaction after a write: a statement committed on its own, or a transaction ended.
    if (owner.wrote && !owner.raw.inTransaction) {
      owner.wrote = false;
      owner.onCommit?.();
    }
  }
}

/**
 * Kysely's SQLite driver, with a connection released before it waits for its commits to reach the disk:
 * the next transaction runs (and writes into the same sync) while this one's caller waits. Transactions that
 * queue for the connection together share one commit (CommitGroups). No result is handed back while a commit made
 * before it is not made or not on disk, so no caller acts on data a power cut could still take away.
 */
class DurableSqliteDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly walSync: WalSync | null,
    private readonly lease: ConnectionLease,
    private readonly groups: CommitGroups,
    /** Who has the connection next, in the order they asked. */
    private readonly queue: FifoLock,
    private readonly reader: TrackedDatabase | null,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    // Waiters queue here, one woken per release; the query layer's own mutex behind it is then never contended.
    await this.queue.lock();
    const connection = await super.acquireConnection();
    this.lease.held = true;
    return connection;
  }

  override async beginTransaction(): Promise<void> {
    this.groups.begin();
  }

  override async commitTransaction(): Promise<void> {
    this.groups.commit();
  }

  override async rollbackTransaction(): Promise<void> {
    this.groups.rollback();
  }

  override async releaseConnection(): Promise<void> {
    this.lease.held = false;
    const grouped = this.groups.leaseEnded(this.queue.waiting > 0);
    try {
      await super.releaseConnection();
    } finally {
      this.queue.unlock();
    }
    if (grouped) await grouped;
    if (this.walSync?.behind) await this.walSync.barrier();
  }

  override async destroy(): Promise<void> {
    this.groups.flush();
    await super.destroy();
    this.reader?.close();
    this.walSync?.close();
  }
}

/** Whether the query layer holds the connection (a query, a transaction, a stream) between its awaits. */
interface ConnectionLease {
  held: boolean;
}

/**
 * Read-only statements run at once, without the query layer's connection queue:
 * - on the connection, when no one holds it and no transaction is open on it: the queue would run the read at once
 *   too;
 * - on the reader, a second connection to the same file that only reads, while a transaction is open on the
 *   connection (a group waiting for its commit window to end, or a transaction between its awaits). SQLite's log lets
 *   a reader read the last commit while another connection writes, so the read neither waits for that transaction nor
 *   sees what it wrote: nothing of it is acknowledged yet.
 * Without a reader, a read while a group waits for its commit runs in the group's transaction and is handed back once
 * the group has committed (and fails with it); while a transaction is under way it takes the query layer's path.
 * Rows are handed back as the durable driver hands back any result: once every commit made before the read is on
 * disk (at once when none waits for its sync; after the one sync that covers them otherwise; never after a failed
 * sync). Otherwise the read returns undefined and takes the query layer's path.
 */
export class SqliteDirectReads implements DirectReads {
  constructor(
    private readonly database: TrackedDatabase,
    private readonly walSync: WalSync | null,
    private readonly lease: ConnectionLease,
    private readonly groups: CommitGroups,
    private readonly reader: TrackedDatabase | null = null,
  ) {}

  tryAll(sql: string, parameters: readonly unknown[]): unknown[] | Promise<unknown[]> | undefined {
    const busy = this.lease.held || this.database.raw.inTransaction;
    if (!busy || this.reader) {
      const statement = (busy ? (this.reader as TrackedDatabase) : this.database).prepare(sql);
      if (!statement.readonly || !statement.reader) return undefined;
      return this.synced(statement.all(parameters));
    }
    if (this.lease.held) return undefined;
    // Between two leases a group's transaction may be open, waiting for its commit: the read sees what the group
    // wrote, so it is handed back once the group has committed, and fails with it.
    const group = this.groups.pending;
    if (!group) return undefined;
    const statement = this.database.prepare(sql);
    if (!statement.readonly || !statement.reader) return undefined;
    const rows = statement.all(parameters);
    return group.then(() => this.synced(rows));
  }

  runInTransaction(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    // The lease is the transaction's from its begin to its end: the query layer holds the connection for it.
    if (!this.lease.held || !this.database.raw.inTransaction) return undefined;
    const statement = this.database.prepare(sql);
    if (statement.reader) return statement.all(parameters);
    statement.run(parameters);
    return [];
  }

  writeInTransaction(sql: string, parameters: readonly unknown[]): WriteResult | undefined {
    if (!this.lease.held || !this.database.raw.inTransaction) return undefined;
    const { changes, lastInsertRowid } = this.database.prepare(sql).run(parameters);
    return { changes, lastInsertRowid: Number(lastInsertRowid) };
  }

  /** The rows, once every commit made so far is on disk. */
  private synced(rows: unknown[]): unknown[] | Promise<unknown[]> {
    const { walSync } = this;
    return walSync?.behind ? walSync.barrier().then(() => rows) : rows;
  }
}

export class DurableSqliteDialect extends SqliteDialect {
  private readonly lease: ConnectionLease = { held: false };
  private readonly queue = new FifoLock();
  private readonly groups: CommitGroups;
  /** Reads a prepared query may run without the query layer (see SqliteDirectReads). */
  readonly directReads: SqliteDirectReads;
  /** Transactions committed, and the commits that held them (several share one in a group). */
  get commitCounts(): { readonly transactions: number; readonly commits: number } {
    return this.groups.counts;
  }

  constructor(
    private readonly database: TrackedDatabase,
    private readonly walSync: WalSync | null,
    coming: WritesComing | null,
    private readonly reader: TrackedDatabase | null = null,
  ) {
    super({ database: database as unknown as SqliteDialectConfig['database'] });
    this.groups = new CommitGroups(database, undefined, coming, () => this.lease.held);
    this.directReads = new SqliteDirectReads(database, walSync, this.lease, this.groups, reader);
    database.companion = reader;
  }

  /**
   * Runs `run` while no transaction or statement of the query layer runs on the connection: it waits its turn in the
   * connection's queue, commits the group a commit window left open, and keeps its turn until `run` ends. Writes
   * queue meanwhile; reads that need no turn (SqliteDirectReads) go on.
   */
  async holdWrites(run: () => Promise<void>): Promise<void> {
    await this.queue.lock();
    try {
      this.groups.flush();
      await run();
    } finally {
      this.queue.unlock();
    }
  }

  override createDriver(): Driver {
    return new DurableSqliteDriver(
      { database: this.database as unknown as SqliteDialectConfig['database'] },
      this.walSync,
      this.lease,
      this.groups,
      this.queue,
      this.reader,
    );
  }
}

/**
 * The Kysely dialect for a better-sqlite3 database in WAL mode. With a `walSync`, SQLite itself must run
 * with `synchronous = NORMAL`: durability comes from the sync. With `coming`, a commit group waits up to its
 * window for the writes announced there (CommitGroups).
 */
export function sqliteDialect(
  raw: SqliteDatabase.Database,
  walSync: WalSync | null,
  coming: WritesComing | null = null,
  options: {
    /** A second connection to the same file, for reads while a transaction is open (SqliteDirectReads); closed with the dialect. */
    reader?: SqliteDatabase.Database | null;
    /** Told after each commit of the connection that wrote something. */
    onCommit?: () => void;
  } = {},
): DurableSqliteDialect {
  const { onCommit } = options;
  const noted =
    walSync || onCommit
      ? () => {
          walSync?.noteCommit();
          onCommit?.();
        }
      : null;
  const database = new TrackedDatabase(raw, noted);
  const reader = options.reader ? new TrackedDatabase(options.reader, null) : null;
  return new DurableSqliteDialect(database, walSync, coming, reader);
}

import {
  type Compilable,
  type CompiledQuery,
  createQueryId,
  type Kysely,
  PostgresAdapter,
  type QueryResult,
  type Transaction,
  type Updateable,
} from 'kysely';
import { nameStatement } from './postgres-named-statements.js';
import type { Database } from './schema.js';

interface Template {
  sql: string;
  query: CompiledQuery['query'];
  /** The compiled parameters; the argument slots are overwritten on each run. */
  parameters: readonly unknown[];
  /** [parameter index, argument index] pairs. */
  slots: Array<[number, number]>;
}

/**
 * A database that can run a read-only statement itself, synchronously, when doing so answers exactly what the
 * query layer would (embedded SQLite: see SqliteDirectReads): its rows, or a promise of them when they may be
 * handed back only later. undefined: take the query layer's path.
 */
export interface DirectReads {
  tryAll(sql: string, parameters: readonly unknown[]): unknown[] | Promise<unknown[]> | undefined;
  /**
   * Runs a statement of the transaction that holds the connection, at once, as the query layer would run it there:
   * its rows (none for a statement that returns none). undefined when no transaction holds the connection.
   */
  runInTransaction(sql: string, parameters: readonly unknown[]): unknown[] | undefined;
  /**
   * Runs a statement that returns no rows in the transaction that holds the connection, at once, as
   * `runInTransaction` does: what it changed. undefined when no transaction holds the connection.
   */
  writeInTransaction(sql: string, parameters: readonly unknown[]): WriteResult | undefined;
}

/** What a statement that returns no rows did on SQLite: the rows it changed, and the connection's last row id. */
export interface WriteResult {
  changes: number;
  /** The row id of the row the connection inserted last: this statement's, if it inserted one (`changes` > 0). */
  lastInsertRowid: number;
}

/** Keyed by the Kysely instance itself: transactions and instances derived from it are other objects. */
const directReadsByDatabase = new WeakMap<Kysely<Database>, DirectReads>();

/** Transactions under way whose prepared queries run directly, each with its database's DirectReads. */
const directTransactions = new WeakMap<Kysely<Database>, DirectReads>();

/** Lets prepared queries on `db` read through `reads`, and those of its transactions opened by `withDirectStatements` run through it. */
export function allowDirectReads(db: Kysely<Database>, reads: DirectReads): void {
  directReadsByDatabase.set(db, reads);
}

/**
 * Runs `work`, the body of transaction `trx` of `db`, with the prepared queries it runs on `trx` handed to the
 * database directly (DirectReads.runInTransaction) rather than through the query layer, which for each statement
 * builds an executor, queues for the connection the transaction already holds and awaits several promises. Only
 * while `work` runs: a statement sent on `trx` after it settled takes the query layer's path, which refuses it once
 * the transaction has ended. Without direct reads on `db` (PostgreSQL), `work` runs as it is.
 */
export async function withDirectStatements<T>(db: Kysely<Database>, trx: Transaction<Database>, work: () => Promise<T>): Promise<T> {
  const direct = directReadsByDatabase.get(db);
  if (!direct) return work();
  directTransactions.set(trx, direct);
  try {
    return await work();
  } finally {
    directTransactions.delete(trx);
  }
}

/** Stands for argument `i` while the query is compiled; never a value a caller would pass. */
const placeholder = (i: number) => `\u0000wb-arg-${i}\u0000`;

/**
 * A query of fixed shape, built and compiled once per dialect and then run with new argument values.
 * Building and compiling a query costs more than running a point query, and hot paths run the same few
 * queries on every request. Every argument must end up as a bound parameter of the compiled query
 * (a value compared to or inserted, never an identifier, a list of varying length, or a value the builder
 * branches on). Runs on the database or on a transaction alike.
 */
export class PreparedQuery<A extends unknown[], R> {
  private readonly templates = new WeakMap<object, Template>();

  constructor(private readonly build: (db: Kysely<Database>, ...args: A) => Compilable<R>) {}

  async execute(db: Kysely<Database>, ...args: A): Promise<R[]> {
    const executor = db.getExecutor();
    // Plugins transform queries as they are compiled; such an executor gets a freshly built query every time.
    if (executor.plugins.length > 0) return (await db.executeQuery(this.build(db, ...args))).rows;
    const { template, parameters } = this.bind(db, args);
    const inTransaction = directTransactions.get(db)?.runInTransaction(template.sql, parameters);
    if (inTransaction) return inTransaction as R[];
    const rows = directReadsByDatabase.get(db)?.tryAll(template.sql, parameters);
    if (rows) return (await rows) as R[];
    const result = await executor.executeQuery<R>({ sql: template.sql, parameters, query: template.query, queryId: createQueryId() });
    return result.rows;
  }

  /**
   * Runs a statement that returns no rows, on SQLite, and answers what it changed: an insert of one row written
   * without `returning` learns its row id from it (better-sqlite3's `lastInsertRowid` of this very statement, so no
   * other insert can come between). SQLite runs an insert with `returning` as a trigger, which costs a statement
   * journal inside a transaction (docs/decisions.md, on a new shipment's version row).
   */
  async executeWrite(db: Kysely<Database>, ...args: A): Promise<WriteResult> {
    const executor = db.getExecutor();
    let result: QueryResult<unknown> | undefined;
    if (executor.plugins.length > 0) {
      result = await db.executeQuery(this.build(db, ...args));
    } else {
      const { template, parameters } = this.bind(db, args);
      const direct = directTransactions.get(db)?.writeInTransaction(template.sql, parameters);
      if (direct) return direct;
      result = await executor.executeQuery({ sql: template.sql, parameters, query: template.query, queryId: createQueryId() });
    }
    if (result.numAffectedRows === undefined || result.insertId === undefined) {
      throw new Error('PreparedQuery.executeWrite: the database did not say what the statement changed');
    }
    return { changes: Number(result.numAffectedRows), lastInsertRowid: Number(result.insertId) };
  }

  /** The query's template (compiled on first use for this database's adapter) and its parameters for `args`. */
  private bind(db: Kysely<Database>, args: A): { template: Template; parameters: unknown[] } {
    const { adapter } = db.getExecutor();
    let template = this.templates.get(adapter);
    if (!template) {
      template = this.compile(db, args.length);
      this.templates.set(adapter, template);
      if (adapter instanceof PostgresAdapter) nameStatement(template.sql, template.parameters.length);
    }
    const parameters = template.parameters.slice();
    for (const [at, arg] of template.slots) parameters[at] = args[arg];
    return { template, parameters };
  }

  async executeTakeFirst(db: Kysely<Database>, ...args: A): Promise<R | undefined> {
    return (await this.execute(db, ...args))[0];
  }

  private compile(db: Kysely<Database>, arity: number): Template {
    const placeholders = Array.from({ length: arity }, (_, i) => placeholder(i));
    const compiled = this.build(db, ...(placeholders as A)).compile();
    // Lookups by map, not by scanning: multi-row inserts have thousands of arguments.
    const argOf = new Map(placeholders.map((text, i) => [text, i]));
    const bound = new Set<number>();
    const slots: Array<[number, number]> = [];
    compiled.parameters.forEach((value, at) => {
      const arg = typeof value === 'string' ? argOf.get(value) : undefined;
      if (arg !== undefined) {
        slots.push([at, arg]);
        bound.add(arg);
      }
    });
    const inlined = compiled.sql.includes('\u0000wb-arg-');
    for (let i = 0; i < arity; i++) {
      if (!bound.has(i) || (inlined && compiled.sql.includes(placeholders[i]))) {
        throw new Error(`PreparedQuery: argument ${i} is not a bound parameter of "${compiled.sql}"`);
      }
    }
    return { sql: compiled.sql, query: compiled.query, parameters: compiled.parameters, slots };
  }
}

/** Values a query can bind as they are: anything else (objects, raw SQL, undefined) takes the builder's path. */
export function isBindable(value: unknown): boolean {
  return (
    value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean'
  );
}

/**
 * Rows as the flat argument list of a multi-row prepared insert: their columns (the first row's), every value
 * in row order, and whether they can share one statement (every row has the same columns and every value binds
 * as it is). The statement is the family's for the rows' count and columns (`PreparedQueryFamily.forColumns`).
 */
export function flattenRows<T extends object>(rows: T[]): { columns: Array<keyof T>; values: unknown[]; bindable: boolean } {
  const columns = Object.keys(rows[0]) as Array<keyof T>;
  const values: unknown[] = new Array(rows.length * columns.length);
  let sameColumns = true;
  let bindable = true;
  for (let r = 0, at = 0; r < rows.length; r++) {
    const row = rows[r];
    // The first row's columns are the columns; every other row is compared with them, name by name.
    if (r > 0 && sameColumns) sameColumns = hasColumns(row, columns);
    for (let c = 0; c < columns.length; c++, at++) {
      const value = row[columns[c]];
      values[at] = value;
      if (bindable && !isBindable(value)) bindable = false;
    }
  }
  // Rows with other columns than the first cannot share its statement: the caller's builder path takes them.
  return { columns, values, bindable: sameColumns && bindable };
}

/** Whether `row`'s own enumerable keys are `columns`, in that order. */
function hasColumns(row: object, columns: readonly PropertyKey[]): boolean {
  return sameKeys(Object.keys(row), columns);
}

function sameKeys(a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The rows a multi-row prepared insert binds, rebuilt from its flat arguments (the inverse of flattenRows). */
export function rowsFromArgs<T>(count: number, columns: Array<keyof T>, args: readonly unknown[]): T[] {
  return Array.from(
    { length: count },
    (_, r) => Object.fromEntries(columns.map((column, c) => [column, args[r * columns.length + c]])) as T,
  );
}

/**
 * Prepared queries of one family by shape (for example an update by the columns it sets), made on first use.
 * At most `limit` shapes are kept; an unusual shape beyond that is built on each call instead.
 */
export class PreparedQueryFamily<A extends unknown[], R> {
  private readonly queries = new Map<string, PreparedQuery<A, R>>();
  /** The shape `forColumns` was asked for last, and its query: a hot path asks for one shape over and over. */
  private last: { count: number; columns: readonly PropertyKey[]; query: PreparedQuery<A, R> } | null = null;

  constructor(private readonly limit = 64) {}

  /**
   * The query of `count` rows of these columns, in this order (`get` with the shape `count:column,column,…`).
   * The shape asked for last is recognized by comparing the columns one by one, without writing its name.
   */
  forColumns(
    count: number,
    columns: readonly PropertyKey[],
    build: () => (db: Kysely<Database>, ...args: A) => Compilable<R>,
  ): PreparedQuery<A, R> | null {
    const { last } = this;
    if (last !== null && last.count === count && sameKeys(last.columns, columns)) return last.query;
    const query = this.get(`${count}:${columns.join(',')}`, build);
    // A copy: the caller's array is the caller's to change.
    if (query) this.last = { count, columns: columns.slice(), query };
    return query;
  }

  get(shape: string, build: () => (db: Kysely<Database>, ...args: A) => Compilable<R>): PreparedQuery<A, R> | null {
    let query = this.queries.get(shape);
    if (!query) {
      if (this.queries.size >= this.limit) return null;
      query = new PreparedQuery(build());
      this.queries.set(shape, query);
    }
    return query;
  }
}

/**
 * Runs a query over a list of ids, prepared once per list length (lists of at most 100; the family keeps as
 * many lengths as its limit), built afresh for longer lists.
 */
export async function executeForIds<R>(
  db: Kysely<Database>,
  family: PreparedQueryFamily<number[], R>,
  ids: number[],
  build: (db: Kysely<Database>, ids: number[]) => Compilable<R>,
): Promise<R[]> {
  const prepared =
    ids.length <= 100
      ? family.get(
          String(ids.length),
          () =>
            (db, ...args) =>
              build(db, args),
        )
      : null;
  return prepared ? prepared.execute(db, ...ids) : (await db.executeQuery(build(db, ids))).rows;
}

/** A single-row statement prepared by the row's columns, with the row's values; null when it cannot share one. */
export function preparedForRow<T extends object, R>(
  family: PreparedQueryFamily<unknown[], R>,
  row: T,
  build: (db: Kysely<Database>, row: T) => Compilable<R>,
): { query: PreparedQuery<unknown[], R>; values: unknown[] } | null {
  const { columns, values, bindable } = flattenRows([row]);
  const query = bindable
    ? family.forColumns(
        1,
        columns,
        () =>
          (db, ...args) =>
            build(db, rowsFromArgs(1, columns, args)[0]),
      )
    : null;
  return query ? { query, values } : null;
}

/** Tables written by row id through `writeById`. */
type WrittenById = 'shipments' | 'notifications';

/**
 * `UPDATE table SET … WHERE id = ?` without reading the row back, prepared by the columns it sets (one statement
 * per shape in `family`), or built afresh when a value cannot be bound as it is or the family is full.
 */
export async function writeById<T extends WrittenById>(
  db: Kysely<Database>,
  family: PreparedQueryFamily<unknown[], never>,
  table: T,
  id: number,
  changes: Updateable<Database[T]>,
): Promise<void> {
  const columns = Object.keys(changes);
  if (columns.length === 0) return;
  const values = columns.map((column) => (changes as Record<string, unknown>)[column]);
  // One table's builder stands for both: the statement is the same text for either.
  const update = (on: Kysely<Database>, rowId: number, set: object) =>
    on
      .updateTable(table as 'shipments')
      .set(set)
      .where('id', '=', rowId);
  const prepared = values.every(isBindable)
    ? family.forColumns(
        1,
        columns,
        () =>
          (on, rowId, ...set) =>
            update(on, rowId as number, Object.fromEntries(columns.map((c, i) => [c, set[i]]))),
      )
    : null;
  if (prepared) await prepared.execute(db, id, ...values);
  else await update(db, id, changes).execute();
}

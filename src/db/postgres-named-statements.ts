import pg from 'pg';

/** Statements of fixed text the server keeps prepared on each connection, by their name. */
const names = new Map<string, string>();

/** No more than this many statements are named; later ones are parsed on every run, as any other. */
const NAMED_MAX = 2_000;
/** A statement with more parameters than this (a multi-row insert) costs the server more to keep than to parse. */
const PARAMETERS_MAX = 100;

/** PostgreSQL's `feature_not_supported`, which a prepared statement gets when its result's columns changed. */
const RESULT_CHANGED = '0A000';

/**
 * Asks for a statement of fixed text, run again and again with new values (a PreparedQuery's), to be prepared once
 * on each connection and then only bound and executed: the server parses and plans the text once a connection,
 * not on every run. Statements whose result is `*` stay unnamed: their columns are the table's, and once a
 * migration adds one (a newer release rolling out beside this process), a prepared statement fails with "cached
 * plan must not change result type" where an unnamed one reads the new column.
 */
export function nameStatement(text: string, parameterCount: number): void {
  if (names.has(text) || names.size >= NAMED_MAX || parameterCount > PARAMETERS_MAX || text.includes('*')) return;
  names.set(text, `wb_${names.size + 1}`);
}

/**
 * A client of the pool that runs the statements named by `nameStatement` as named prepared statements (the
 * extended protocol's Parse once on each connection, Bind and Execute on each run); every other query goes as
 * before. When a named statement's result changed (a column's type altered under it), the connection's names
 * start over, so that the next run prepares the text again; a statement that failed so outside a transaction is
 * run again at once, where nothing was undone by the failure.
 */
export class NamingClient extends pg.Client {
  /** Bumped when this connection's prepared statements can no longer be trusted. */
  private generation = 0;

  override query(...args: any[]): any {
    const [text, values, callback] = args;
    const name = typeof text === 'string' && Array.isArray(values) && callback === undefined ? names.get(text) : undefined;
    if (name === undefined) return (super.query as (...a: unknown[]) => unknown)(...args);
    const idle = this.getTransactionStatus() === 'I';
    const run = () => super.query({ name: `${name}_${this.generation}`, text, values });
    return run().catch((error: { code?: string }) => {
      if (error?.code !== RESULT_CHANGED) throw error;
      this.generation++;
      if (!idle) throw error;
      return run();
    });
  }
}

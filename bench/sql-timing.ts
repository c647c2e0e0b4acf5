import Database from 'better-sqlite3';

/**
 * Time spent in SQLite statements, by statement (for finding where a scenario's database time goes): patches
 * better-sqlite3's statements in this process so that `all`, `get`, `run` and `iterate` are timed. Off unless
 * a scenario asks for it; the timing itself costs about a microsecond a statement.
 */
export class StatementTimes {
  private readonly totals = new Map<string, { ms: number; calls: number }>();
  private active = false;

  constructor() {
    const probe = new Database(':memory:');
    const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
    probe.close();
    for (const method of ['all', 'get', 'run', 'iterate'] as const) {
      const original = prototype[method] as (...args: unknown[]) => unknown;
      const times = this;
      prototype[method] = function (this: { source: string }, ...args: unknown[]) {
        if (!times.active) return original.apply(this, args);
        const started = performance.now();
        try {
          return original.apply(this, args);
        } finally {
          times.add(this.source, performance.now() - started);
        }
      };
    }
  }

  start(): void {
    this.totals.clear();
    this.active = true;
  }

  stop(): void {
    this.active = false;
  }

  /** The statements that took longest, as lines: total ms, calls, µs per `per` (e.g. per polled number), the SQL's start. */
  report(per: number, top = 15): string[] {
    return [...this.totals]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, top)
      .map(
        ([sql, t]) =>
          `${t.ms.toFixed(0).padStart(6)} ms ${String(t.calls).padStart(6)} calls ${((t.ms * 1000) / per).toFixed(1).padStart(6)} µs each: ${sql.slice(0, 110)}`,
      );
  }

  private add(source: string, ms: number): void {
    // Multi-row statements differ by their row count only: one line for them all.
    const key = source.replace(/\s+/g, ' ').replace(/(\(\?(, \?)*\))(, \(\?(, \?)*\))+/g, '$1, …');
    const entry = this.totals.get(key);
    if (entry) {
      entry.ms += ms;
      entry.calls++;
    } else this.totals.set(key, { ms, calls: 1 });
  }
}

/**
 * Times the service's SQLite statements for a while (`BENCH_SERVICE_FLAGS="--require ./bench/statement-times.cjs"`,
 * the service's own directory being the runner's): better-sqlite3's `all`, `get`, `run` and `iterate` are timed,
 * by statement, from STATEMENT_TIMES_FROM to STATEMENT_TIMES_TO seconds after the process started (60 and 84: the
 * second half of the mixed load's warm-up and its measurement, with `MIXED_WARMUP=30`), then written to
 * STATEMENT_TIMES_OUT (`/tmp/waybill-statement-times.txt`), longest first: total ms, calls, µs a call, the SQL. Pass
 * the settings with BENCH_SERVICE_ENV. The timing costs about a microsecond a statement.
 */
const fs = require('node:fs');
const Database = require('better-sqlite3');

const from = Number(process.env.STATEMENT_TIMES_FROM ?? 60) * 1000;
const to = Number(process.env.STATEMENT_TIMES_TO ?? 84) * 1000;
const out = process.env.STATEMENT_TIMES_OUT ?? '/tmp/waybill-statement-times.txt';
const started = Date.now();
const totals = new Map();

const probe = new Database(':memory:');
const prototype = Object.getPrototypeOf(probe.prepare('select 1'));
probe.close();
for (const method of ['all', 'get', 'run', 'iterate']) {
  const original = prototype[method];
  prototype[method] = function (...args) {
    const at = Date.now() - started;
    if (at < from || at >= to) return original.apply(this, args);
    const began = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      const sql = this.source.replace(/\s+/g, ' ').trim().slice(0, 200);
      const total = totals.get(sql) ?? { ms: 0, calls: 0 };
      total.ms += performance.now() - began;
      total.calls++;
      totals.set(sql, total);
    }
  };
}

setTimeout(() => {
  const lines = [...totals].sort((a, b) => b[1].ms - a[1].ms);
  fs.writeFileSync(
    out,
    lines
      .map(
        ([sql, { ms, calls }]) =>
          `${ms.toFixed(0).padStart(7)} ms ${String(calls).padStart(7)} calls ${((1000 * ms) / calls).toFixed(1).padStart(7)} µs  ${sql}`,
      )
      .join('\n') + '\n',
  );
}, to + 1000).unref();

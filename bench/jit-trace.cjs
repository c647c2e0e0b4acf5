/**
 * What V8's optimizing compiler does while a benchmark measures: `--require`d into the service
 * (`BENCH_SERVICE_FLAGS="--require ./bench/jit-trace.cjs" BENCH_CHILD_OUTPUT=<file>`), it turns on
 * `--trace-opt` and `--trace-deopt` JIT_TRACE_FROM_S seconds after the process starts (default 20: after
 * start-up) and writes `=== T <ISO time>` once a second, so that the functions compiled and dropped can be
 * counted second by second against the benchmark's phases.
 */
const v8 = require('node:v8');

const from = Number(process.env.JIT_TRACE_FROM_S ?? 20) * 1000;
setTimeout(() => {
  v8.setFlagsFromString('--trace-opt');
  v8.setFlagsFromString('--trace-deopt');
  setInterval(() => process.stdout.write(`=== T ${new Date().toISOString()}\n`), 1000).unref();
}, from).unref();

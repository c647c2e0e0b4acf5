import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** How hard and how long every target of a run is loaded; the same for a target and its baseline. */
export interface LoadSettings {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Where the service keeps its data, for scenarios that run on both (default SQLite). */
  database?: 'sqlite' | 'postgres';
}

export interface Measurement {
  label: string;
  url: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  totalRequests: number;
  /**
   * CPU time the server process spent per answered request (user + system, µs), when its pid was given.
   * Unlike req/s this hardly moves when other work shares the machine, so it is the figure to compare
   * between runs on a busy machine.
   */
  cpuMicrosPerRequest?: number;
}

export interface ScenarioResult {
  name: string;
  description: string;
  target: Measurement;
  baseline: Measurement;
  /** target req/s ÷ baseline req/s. */
  ratio: number;
  /** The ratio this scenario should reach. */
  goal: number;
  /** A goal that is not a ratio (an absolute rate or latency), shown instead of the ratio goal. */
  goalText?: string;
  /** Whether `goalText` was met; left out when the scenario only reports. */
  goalMet?: boolean;
  /** Further figures of the scenario, one line each, printed under the table. */
  notes?: string[];
}

/** One load scenario: it starts what it needs, measures a target against its baseline, and stops everything. */
export interface Scenario {
  name: string;
  description: string;
  /** The databases this scenario can run on (`--database`); SQLite only when left out. */
  databases?: Array<'sqlite' | 'postgres'>;
  run(settings: LoadSettings): Promise<ScenarioResult>;
}

// autocannon ships no type declarations; this is the part of its API the benchmarks use.
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
/** One request shape for autocannon; `setupRequest` may change it before each send (unique ids, random keys). */
export interface LoadRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: LoadRequest) => LoadRequest;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: LoadRequest[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Warms the target up, then loads it; every response must be a 2xx or the figure means nothing. */
export async function measure(
  label: string,
  url: string,
  settings: LoadSettings,
  headers: Record<string, string> = {},
  requests?: LoadRequest[],
  serverPid?: number,
): Promise<Measurement> {
  if (settings.warmupSeconds > 0) {
    await autocannon({ url, headers, requests, connections: settings.connections, duration: settings.warmupSeconds });
  }
  const cpuBefore = serverPid ? processCpuMs(serverPid) : null;
  const result = await autocannon({ url, headers, requests, connections: settings.connections, duration: settings.durationSeconds });
  const cpuAfter = serverPid ? processCpuMs(serverPid) : null;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${label}: ${result.non2xx} non-2xx responses, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return {
    label,
    url,
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    totalRequests: result.requests.total,
    ...(cpuBefore !== null && cpuAfter !== null && result.requests.total > 0
      ? { cpuMicrosPerRequest: Math.round(((cpuAfter - cpuBefore) * 1000) / result.requests.total) }
      : {}),
  };
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); null elsewhere. */
export function processCpuMs(pid: number): number | null {
  return treeCpuMs(pid, statCpuMs);
}

/** The kernel's part of `processCpuMs` (system time: system calls, page faults), ms; null elsewhere. */
export function processSystemCpuMs(pid: number): number | null {
  return treeCpuMs(pid, statSystemCpuMs);
}

function treeCpuMs(pid: number, read: (file: string) => number | null): number | null {
  let total: number | null = null;
  // The process and the ones it started (`serve --workers N` forks its HTTP processes).
  for (const id of processTree(pid)) {
    const ms = read(`/proc/${id}/stat`);
    if (ms !== null) total = (total ?? 0) + ms;
  }
  return total;
}

/** CPU time of a process's main thread (its JavaScript, where requests are handled), ms; null when gone. */
export function mainThreadCpuMs(pid: number): number | null {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

/**
 * How often a process's main thread gave up the CPU: `voluntary` when it waited (for the event loop's next event,
 * a lock, a disk), `involuntary` when the scheduler took the CPU from it; null when gone or on a system without /proc.
 */
export function mainThreadSwitches(pid: number): { voluntary: number; involuntary: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)$`, 'm').exec(status)?.[1]);
    const voluntary = field('voluntary_ctxt_switches');
    const involuntary = field('nonvoluntary_ctxt_switches');
    return Number.isFinite(voluntary) && Number.isFinite(involuntary) ? { voluntary, involuntary } : null;
  } catch {
    return null;
  }
}

/** utime + stime of a `/proc/…/stat` file, ms; null when the process or thread is gone. */
export function statCpuMs(file: string): number | null {
  const ticks = statTicks(file);
  return ticks && ((ticks.user + ticks.system) * 1000) / 100;
}

/** stime of a `/proc/…/stat` file, ms; null when the process or thread is gone. */
function statSystemCpuMs(file: string): number | null {
  const ticks = statTicks(file);
  return ticks && (ticks.system * 1000) / 100;
}

function statTicks(file: string): { user: number; system: number } | null {
  try {
    const stat = fs.readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 per second on Linux).
    return { user: Number(fields[11]), system: Number(fields[12]) };
  } catch {
    return null;
  }
}

export function processTree(pid: number): number[] {
  const found = [pid];
  for (let i = 0; i < found.length; i++) {
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${found[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = fs.readFileSync(`/proc/${found[i]}/task/${task}/children`, 'utf8').trim();
        if (children) found.push(...children.split(/\s+/).map(Number));
      } catch {
        // no such task any more
      }
    }
  }
  return found;
}

export function compare(
  scenario: Pick<Scenario, 'name' | 'description'>,
  target: Measurement,
  baseline: Measurement,
  goal: number,
): ScenarioResult {
  return { ...scenario, target, baseline, ratio: target.requestsPerSecond / baseline.requestsPerSecond, goal };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ChildServer {
  url: string;
  /** The child's process id (for its memory figures). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a server as a child process and waits until `readyPath` answers 2xx. Its output is kept and
 * shown only if it fails to start; with `BENCH_CHILD_OUTPUT=file` it is written to that file instead (each child
 * appends), for what V8 flags such as `--trace-deopt` print (`BENCH_SERVICE_FLAGS`).
 */
export async function startChild(options: {
  label: string;
  args: string[];
  env: Record<string, string>;
  port: number;
  readyPath: string;
  timeoutMs?: number;
}): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, options.args, {
    cwd: repoRoot,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const outputFile = process.env.BENCH_CHILD_OUTPUT;
  const file = outputFile ? fs.createWriteStream(outputFile, { flags: 'a' }) : null;
  const keep = (chunk: Buffer) => {
    if (file) file.write(chunk);
    else output += chunk.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => {
    running = false;
    file?.end();
  });

  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (!running) throw new Error(`${options.label} exited before it was ready:\n${output || `(its output is in ${outputFile})`}`);
    const ok = await fetch(`${url}${options.readyPath}`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `${options.label} was not ready within ${options.timeoutMs ?? 30_000} ms:\n${output || `(its output is in ${outputFile})`}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    pid: child.pid ?? 0,
    async stop() {
      if (!running) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident memory of a process from /proc (Linux), in MiB: anonymous (heap, stacks) and file-backed (mapped files). */
export function residentMemory(pid: number): { totalMiB: number; anonMiB: number; fileMiB: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    const mib = (value: number) => Math.round((value / 1024) * 10) / 10;
    return { totalMiB: mib(kib('VmRSS')), anonMiB: mib(kib('RssAnon')), fileMiB: mib(kib('RssFile') + kib('RssShmem')) };
  } catch {
    return null;
  }
}

/** The environment of a child process: this one's, minus anything that would change what is measured. */
export function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(DATABASE_URL|REDIS_URL|TLS_|WAYBILL_|PORT$|HOST$|LOG_LEVEL$)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

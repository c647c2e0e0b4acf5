import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '../..');
export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const adminPostgresUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A `waybill` command running as a real process, with everything it printed kept. */
export interface WaybillProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
  /** Parsed log lines (pino JSON) printed so far. */
  logs(): Array<Record<string, any>>;
}

/** `nodeArgs` go to node before the script (V8 flags such as `--trace-gc-nvp`). */
export function startWaybill(args: string[], env: Record<string, string>, nodeArgs: string[] = []): WaybillProcess {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(root, 'src/main.ts'), ...args], {
    cwd: root,
    env: { ...process.env, WAYBILL_BANNER: 'false', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  // Lines are kept whole: a chunk may end in the middle of one.
  const lines = () => {
    let partial = '';
    return (chunk: Buffer) => {
      const parts = (partial + chunk.toString('utf8')).split('\n');
      partial = parts.pop() ?? '';
      output.push(...parts.filter(Boolean));
    };
  };
  child.stdout?.on('data', lines());
  child.stderr?.on('data', lines());
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const logs = () =>
    output.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, any>];
      } catch {
        return [];
      }
    });
  return { child, output, exited, logs };
}

/** Stops a process with a signal and waits for it to exit; returns its exit code. */
export async function stopWaybill(proc: WaybillProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.child.exitCode;
  proc.child.kill(signal);
  return proc.exited;
}

export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function waitHealthy(base: string, proc?: WaybillProcess, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    `${base}/healthz`,
    async () => {
      if (proc && proc.child.exitCode !== null) throw new Error(`process exited early:\n${proc.output.join('\n')}`);
      return (await fetch(`${base}/healthz`)).ok;
    },
    timeoutMs,
  ).catch((error) => {
    throw new Error(`${error.message}${proc ? `\n${proc.output.slice(-20).join('\n')}` : ''}`);
  });
}

/** A port nobody listens on now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Process ids of a process's Node children (not the compiler helper the TypeScript loader starts). */
export function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-x', '-P', String(pid), 'node'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

export async function redisReachable(): Promise<boolean> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** A new, empty PostgreSQL database for one test file, and the means to drop it. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const name = `wb_scale_${randomBytes(5).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminPostgresUrl, connectionTimeoutMillis: 3000 });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  try {
    await admin(`CREATE DATABASE ${name}`);
  } catch {
    return null;
  }
  const url = new URL(adminPostgresUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Runs one query against a database and returns its rows. */
export async function queryRows<T = Record<string, any>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  // BIGINT ids and counts as numbers, as the service reads them.
  const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser;
  const client = new pg.Client({ connectionString: url, types: { getTypeParser } });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

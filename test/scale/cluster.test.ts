import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, freshConnectionCall } from './api-client.js';
import {
  childPids,
  freePort,
  freshPostgresDatabase,
  redisReachable,
  redisUrl,
  startWaybill,
  stopWaybill,
  type WaybillProcess,
  waitFor,
  waitHealthy,
} from './processes.js';

const usingPostgres = Boolean(process.env.DATABASE_URL);
const redisUp = await redisReachable();

describe('waybill serve --workers N, refused', () => {
  // Both refusals come before any file or database is touched.
  const env = { WAYBILL_DATA_DIR: path.join(os.tmpdir(), 'waybill-cluster-unused'), DATABASE_URL: '' };

  it('refuses more than one process without REDIS_URL, saying why', async () => {
    const proc = startWaybill(['serve', '--workers', '2'], { ...env, REDIS_URL: '', PORT: String(await freePort()) });
    expect(await proc.exited).toBe(1);
    expect(proc.output.join('\n')).toMatch(/--workers 2 needs REDIS_URL.*2 × 40 requests per second/);
    expect(fs.existsSync(env.WAYBILL_DATA_DIR)).toBe(false);
  }, 30_000);

  it('refuses a process count that is not a number', async () => {
    const proc = startWaybill(['serve', '--workers', 'many'], { ...env, REDIS_URL: redisUrl });
    expect(await proc.exited).toBe(1);
    expect(proc.output.join('\n')).toContain('--workers must be auto or an integer from 1 to 256, got "many"');
  }, 30_000);
});

describe.skipIf(!redisUp)('waybill serve --workers N, with Redis', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-cluster-'));
  const adminToken = `wbadm_${randomBytes(16).toString('hex')}`;
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>> = null;
  let primary: WaybillProcess;
  let base: string;

  beforeAll(async () => {
    if (usingPostgres) {
      database = await freshPostgresDatabase();
      if (!database) throw new Error('DATABASE_URL is set but a database could not be created from it');
    }
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    primary = startWaybill(['serve', '--workers', '2'], {
      WAYBILL_DATA_DIR: dataDir,
      WAYBILL_ADMIN_TOKEN: adminToken,
      DATABASE_URL: database?.url ?? '',
      REDIS_URL: redisUrl,
      WAYBILL_RATE_LIMIT_PREFIX: `waybill:test:${randomBytes(6).toString('hex')}:`,
      PORT: String(port),
      // debug: the primary logs each child that starts listening.
      LOG_LEVEL: 'debug',
    });
    await waitHealthy(base, primary);
    await waitFor('both processes listening', () => listeningPids().size === 2, 60_000);
  }, 90_000);
  afterAll(async () => {
    if (primary) await stopWaybill(primary, 'SIGKILL');
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const listeningPids = () =>
    new Set(
      primary
        .logs()
        .filter((l) => l.msg === 'API process listening')
        .map((l) => l.child_pid as number),
    );

  it('serves from N processes on one port over a database the primary migrated, with one rate limit for all', async () => {
    const pid = primary.child.pid as number;
    expect(childPids(pid).sort()).toEqual([...listeningPids()].sort());
    // Children open the database without migrating: the primary did it once before forking.
    const client = apiClient(base, adminToken);
    const merchant = await client.merchant();
    // 45 calls, each on a new connection so both processes accept some, inside one one-second window.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
    const statuses = await Promise.all(
      Array.from({ length: 45 }, () =>
        freshConnectionCall(base, 'GET', '/v5/carrier-configs/', { authorization: `Bearer ${merchant.token}` }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  }, 30_000);

  it('gives its processes no commit window on the embedded database: they wait for each other in SQLite, not in a window', async () => {
    // Fresh connections, so that both processes answer some.
    const windows = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const text = (await freshConnectionCall(base, 'GET', '/metrics', {})).body;
        return /^waybill_sqlite_commit_window_seconds (\S+)$/m.exec(text)?.[1] ?? 'absent';
      }),
    );
    expect(windows).toEqual(Array(12).fill(usingPostgres ? 'absent' : '0'));
  });

  it('writes from both processes into one database at once without refusing any', async () => {
    const client = apiClient(base, adminToken);
    const merchants = await Promise.all([client.merchant(), client.merchant(), client.merchant(), client.merchant()]);
    // 4 merchants × 30 creates, all at once, each on a new connection so both processes write.
    const answers = await Promise.all(
      merchants.flatMap((merchant, m) =>
        Array.from({ length: 30 }, (_, n) =>
          freshConnectionCall(base, 'POST', '/v5/shipment/', { authorization: `Bearer ${merchant.token}` }, { shipment_id: `W-${m}-${n}` }),
        ),
      ),
    );
    const failed = answers.filter((a) => a.status !== 200 && a.status !== 429);
    expect(failed.map((a) => `${a.status} ${a.body}`)).toEqual([]);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(4 * 30 - 4 * 5);
  }, 60_000);

  it('replaces a process that dies, and keeps serving meanwhile', async () => {
    const pid = primary.child.pid as number;
    const [victim, survivor] = childPids(pid);
    process.kill(victim, 'SIGKILL');
    const restarting = () => primary.logs().find((l) => l.msg === 'API process exited; restarting it');
    await waitFor('the primary to see the exit', () => restarting() !== undefined, 10_000);
    expect(restarting()).toMatchObject({ child_pid: victim, signal: 'SIGKILL', restart_in_ms: 500 });
    // Until the replacement listens, the survivor takes every connection.
    const health = await Promise.all(Array.from({ length: 6 }, () => freshConnectionCall(base, 'GET', '/healthz', {})));
    expect(health.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    await waitFor('a replacement process', () => childPids(pid).length === 2 && !childPids(pid).includes(victim), 30_000);
    const replacement = childPids(pid).find((p) => p !== survivor) as number;
    await waitFor('the replacement listening', () => listeningPids().has(replacement), 60_000);
  }, 90_000);

  it('on SIGTERM drains every process and exits 0', async () => {
    const pid = primary.child.pid as number;
    const children = childPids(pid);
    expect(children).toHaveLength(2);
    expect(await stopWaybill(primary, 'SIGTERM')).toBe(0);
    expect(childPids(pid)).toEqual([]);
    for (const child of children) expect(() => process.kill(child, 0)).toThrow();
    expect(
      primary
        .logs()
        .filter((l) => l.msg === 'shutting down')
        .map((l) => l.pid)
        .sort(),
    ).toEqual(children.sort());
  }, 60_000);
});

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../scale/api-client.js';
import {
  freePort,
  freshPostgresDatabase,
  redisReachable,
  redisUrl,
  startWaybill,
  stopWaybill,
  type WaybillProcess,
  waitHealthy,
} from '../scale/processes.js';
import { RawConnection } from './raw-http.js';

/**
 * SIGTERM to the real service, watched from raw sockets: a request in flight finishes and closes its
 * connection, a request sent on a kept-alive connection during the drain is refused in the envelope (or the
 * connection is closed), idle connections are closed at once, and the process exits within its drain deadline
 * whatever the clients do. On the pass's database (SQLite, or a fresh PostgreSQL database with DATABASE_URL).
 */
const usingPostgres = Boolean(process.env.DATABASE_URL);
const redisUp = await redisReachable();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ADMIN_TOKEN = `wbadm_${randomBytes(16).toString('hex')}`;

/** The exit code, or 'running' if the process has not exited within `ms`. */
const exitWithin = (proc: WaybillProcess, ms: number) => Promise.race([proc.exited, sleep(ms).then(() => 'running' as const)]);

describe('graceful shutdown on SIGTERM', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>> = null;
  const started: WaybillProcess[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    if (usingPostgres) {
      database = await freshPostgresDatabase();
      if (!database) throw new Error('DATABASE_URL is set but a database could not be created from it');
    }
  });

  afterAll(async () => {
    await Promise.all(started.map((proc) => stopWaybill(proc, 'SIGKILL')));
    await database?.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function service(args: string[] = ['start'], env: Record<string, string> = {}) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-shutdown-'));
    dirs.push(dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const proc = startWaybill(args, {
      WAYBILL_DATA_DIR: dataDir,
      WAYBILL_ADMIN_TOKEN: ADMIN_TOKEN,
      DATABASE_URL: database?.url ?? '',
      REDIS_URL: '',
      WAYBILL_RATE_LIMIT_PREFIX: `waybill:test:${randomBytes(6).toString('hex')}:`,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    });
    started.push(proc);
    await waitHealthy(base, proc, 90_000);
    return { proc, port, base };
  }

  /** A connection that made one request, kept alive by the server, and now sits idle. */
  async function idleConnection(port: number): Promise<RawConnection> {
    const connection = await RawConnection.open(port);
    await connection.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const answer = await connection.response(10_000);
    expect(answer?.status).toBe(200);
    expect(answer?.headers.connection).toBe('keep-alive');
    return connection;
  }

  /** An operator's create whose head and half its body are sent; `finish` sends the rest and reads the answer. */
  async function halfSentRequest(port: number) {
    const connection = await RawConnection.open(port);
    const body = JSON.stringify({ name: `shutdown-${randomBytes(4).toString('hex')}`, features: [] });
    const half = Math.floor(body.length / 2);
    await connection.write(
      `POST /admin/v1/accounts/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, half)}`,
    );
    await sleep(300);
    const finish = async () => {
      await connection.write(body.slice(half));
      const answer = await connection.response(10_000);
      expect(answer?.status, connection.unread).toBeLessThan(300);
      return answer;
    };
    return { connection, finish };
  }

  it('finishes a request in flight with Connection: close, refuses requests begun during the drain in the envelope, and closes their connections', async () => {
    const { proc, port, base } = await service();
    const merchant = await apiClient(base, ADMIN_TOKEN).merchant({ carriers: [{ carrier_reference: 'sb' }] });
    const body = JSON.stringify({ shipment_id: 'in-flight-1', carrier_reference: 'sb', tracking_number: 'WB4000001' });
    const half = Math.floor(body.length / 2);
    const connection = await RawConnection.open(port);
    // The head and half the body: the request is routed and waits for the rest when SIGTERM arrives.
    await connection.write(
      `POST /v5/shipment/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${merchant.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    // Another client is in the middle of its request head: its request starts during the drain.
    const late = await RawConnection.open(port);
    await late.write(`POST /v5/shipment/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${merchant.token}\r\n`);
    await sleep(500);
    const signalled = Date.now();
    proc.child.kill('SIGTERM');
    await sleep(500);
    await late.write(
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.replace('in-flight-1', 'late-1')}`,
    );
    const refused = await late.response(5_000);
    expect(refused?.status, late.unread).toBe(503);
    expect(JSON.parse(refused?.body ?? '{}')).toEqual({ api_response: '500', message: expect.any(String) });
    expect(refused?.headers['retry-after']).toBe('1');
    expect(refused?.headers.connection).toBe('close');
    expect(await late.closedWithin(2_000)).toBe(true);

    await connection.write(body.slice(half));

    const answer = await connection.response(10_000);
    expect(answer?.status, connection.unread).toBe(200);
    expect(JSON.parse(answer?.body ?? '{}').api_response).toBe('200');
    expect(answer?.headers.connection).toBe('close');

    // The next request on that connection: the connection is gone, or the answer is the API's refusal.
    const sent = await connection.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const next = sent ? await connection.response(5_000) : null;
    if (next) {
      expect(next.status).toBe(503);
      expect(JSON.parse(next.body)).toEqual({ api_response: '500', message: expect.any(String) });
      expect(next.headers['retry-after']).toBeDefined();
      expect(next.headers.connection).toBe('close');
    }
    expect(await connection.closedWithin(2_000)).toBe(true);
    expect(await exitWithin(proc, 5_000)).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(5_000);
  }, 120_000);

  it('closes idle keep-alive connections, those idle since SIGTERM too, and exits well within the drain deadline', async () => {
    const { proc, port } = await service();
    const idle = await idleConnection(port);
    const inFlight = await halfSentRequest(port);
    const signalled = Date.now();
    proc.child.kill('SIGTERM');
    await sleep(300);
    // The request in flight is answered; its client then leaves the connection idle.
    expect((await inFlight.finish())?.headers.connection).toBe('close');
    expect(await idle.closedWithin(2_000)).toBe(true);
    expect(await inFlight.connection.closedWithin(2_000)).toBe(true);
    expect(await exitWithin(proc, 5_000)).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(5_000);
  }, 120_000);

  it('exits at the drain deadline when a client never finishes its request, closing its connection', async () => {
    const { proc, port } = await service(['start'], { WAYBILL_SHUTDOWN_TIMEOUT_SECONDS: '2' });
    const stuck = await RawConnection.open(port);
    await stuck.write('POST /v5/shipment/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    await sleep(300);
    const signalled = Date.now();
    proc.child.kill('SIGTERM');
    expect(await exitWithin(proc, 6_000)).toBe(0);
    const took = Date.now() - signalled;
    // It waited for the request until the deadline (2 s), then closed the connection and exited.
    expect(took).toBeGreaterThanOrEqual(1_900);
    expect(took).toBeLessThan(5_000);
    expect(await stuck.closedWithin(1_000)).toBe(true);
  }, 120_000);

  it.skipIf(!redisUp)(
    'serve --workers 2: SIGTERM to the supervisor drains both processes and it exits within the deadline',
    async () => {
      const { proc, port } = await service(['serve', '--workers', '2'], { REDIS_URL: redisUrl });
      // Connections are handed to the processes in turn: several reach both.
      const idle = await Promise.all([1, 2].map(() => idleConnection(port)));
      const inFlight = await Promise.all([1, 2, 3, 4].map(() => halfSentRequest(port)));
      const signalled = Date.now();
      proc.child.kill('SIGTERM');
      await sleep(300);
      for (const request of inFlight) expect((await request.finish())?.headers.connection).toBe('close');
      for (const connection of [...idle, ...inFlight.map((request) => request.connection)]) {
        expect(await connection.closedWithin(2_000)).toBe(true);
      }
      expect(await exitWithin(proc, 5_000)).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(5_000);
    },
    120_000,
  );
});

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
 * SIGTERM to the real service, watched from raw sockets: connections stay open for the grace
 * (WAYBILL_SHUTDOWN_GRACE_SECONDS, 1 by default), so a request in flight at the signal (routed, or its head still
 * arriving) and a request sent on an idle kept-alive connection just after it are served, with
 * `Connection: close`; a request begun after the grace is refused in the envelope (or its connection closed),
 * connections idle past the grace are closed, and the process exits within its drain deadline whatever the
 * clients do. On the pass's database (SQLite, or a fresh PostgreSQL database with DATABASE_URL).
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

  it('serves what was on its connections at SIGTERM or is sent on them within the grace, with Connection: close, and closes them', async () => {
    const { proc, port, base } = await service();
    const merchant = await apiClient(base, ADMIN_TOKEN).merchant({ carriers: [{ carrier_reference: 'sb' }] });
    const body = (shipmentId: string, trackingNumber: string) =>
      JSON.stringify({ shipment_id: shipmentId, carrier_reference: 'sb', tracking_number: trackingNumber });
    const head = `POST /v5/shipment/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${merchant.token}\r\n`;
    const routedBody = body('in-flight-1', 'WB4000001');
    const half = Math.floor(routedBody.length / 2);
    const routed = await RawConnection.open(port);
    // The head and half the body: the request is routed and waits for the rest when SIGTERM arrives.
    await routed.write(`${head}Content-Type: application/json\r\nContent-Length: ${routedBody.length}\r\n\r\n${routedBody.slice(0, half)}`);
    // Another client is in the middle of its request head: it reached the process before the stop.
    const late = await RawConnection.open(port);
    await late.write(head);
    // Another picked its idle kept-alive connection just before the stop, and sends on it just after.
    const idle = await idleConnection(port);
    const leftIdle = await idleConnection(port);
    await sleep(300);
    const signalled = Date.now();
    proc.child.kill('SIGTERM');
    await sleep(200);

    await idle.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const picked = await idle.response(5_000);
    expect(picked?.status, idle.unread).toBe(200);
    expect(picked?.headers.connection).toBe('close');
    expect(await idle.closedWithin(2_000)).toBe(true);
    // Within the grace (1 s by default) the connection left idle stays open; past it, it is closed.
    expect(leftIdle.closed).toBe(false);
    expect(await leftIdle.closedWithin(2_000)).toBe(true);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(900);

    // Past the grace, the request whose head was arriving at SIGTERM is run like any other in flight.
    const lateBody = body('late-1', 'WB4000002');
    await late.write(`Content-Type: application/json\r\nContent-Length: ${lateBody.length}\r\n\r\n${lateBody}`);
    const served = await late.response(5_000);
    expect(served?.status, late.unread).toBe(200);
    expect(JSON.parse(served?.body ?? '{}').api_response).toBe('200');
    expect(served?.headers.connection).toBe('close');
    expect(await late.closedWithin(2_000)).toBe(true);

    await routed.write(routedBody.slice(half));
    const answer = await routed.response(10_000);
    expect(answer?.status, routed.unread).toBe(200);
    expect(JSON.parse(answer?.body ?? '{}').api_response).toBe('200');
    expect(answer?.headers.connection).toBe('close');

    // The next request on that connection began after the grace: the connection is gone, or it is refused.
    const sent = await routed.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const next = sent ? await routed.response(5_000) : null;
    if (next) {
      expect(next.status).toBe(503);
      expect(JSON.parse(next.body)).toEqual({ api_response: '500', message: expect.any(String) });
      expect(next.headers['retry-after']).toBe('1');
      expect(next.headers.connection).toBe('close');
    }
    expect(await routed.closedWithin(2_000)).toBe(true);
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
    'serve --workers 2: SIGTERM to the supervisor drains both processes, serving what their connections carry within the grace, and it exits within the deadline',
    async () => {
      const { proc, port } = await service(['serve', '--workers', '2'], { REDIS_URL: redisUrl });
      // Connections are handed to the processes in turn: several reach both.
      const idle = await Promise.all([1, 2, 3, 4].map(() => idleConnection(port)));
      const inFlight = await Promise.all([1, 2, 3, 4].map(() => halfSentRequest(port)));
      const late = await Promise.all(
        [1, 2, 3, 4].map(async () => {
          const connection = await RawConnection.open(port);
          await connection.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
          return connection;
        }),
      );
      await sleep(300);
      const signalled = Date.now();
      proc.child.kill('SIGTERM');
      await sleep(200);
      // Requests sent on idle kept-alive connections just after the stop are answered.
      await Promise.all(idle.map((connection) => connection.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')));
      for (const connection of idle) {
        const answer = await connection.response(5_000);
        expect(answer?.status, connection.unread).toBe(200);
        expect(answer?.headers.connection).toBe('close');
      }
      for (const request of inFlight) expect((await request.finish())?.headers.connection).toBe('close');
      // Heads that were arriving at SIGTERM, finished after the grace: served.
      await sleep(Math.max(0, signalled + 1_300 - Date.now()));
      await Promise.all(late.map((connection) => connection.write('\r\n')));
      for (const connection of late) {
        const answer = await connection.response(5_000);
        expect(answer?.status, connection.unread).toBe(200);
        expect(answer?.headers.connection).toBe('close');
      }
      for (const connection of [...idle, ...late, ...inFlight.map((request) => request.connection)]) {
        expect(await connection.closedWithin(2_000)).toBe(true);
      }
      expect(await exitWithin(proc, 5_000)).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(5_000);
    },
    120_000,
  );
});

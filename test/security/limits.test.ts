import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { type RunningServer, startServer } from '../../src/server.js';

/**
 * Limits on the connection, proved against a real listening server with raw sockets: an oversized request
 * head, a client that sends its headers or its body slowly (slowloris), an idle socket, an idle keep-alive
 * connection. Small limits here; the defaults are in docs/reliability.md.
 */
const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;
const KEEP_ALIVE_TIMEOUT_MS = 1000;
const MAX_HEADER_BYTES = 4096;

interface Exchange {
  /** Everything the server sent before it closed the connection. */
  received: string;
  /** Milliseconds from connecting to the close. */
  closedAfterMs: number;
}

/**
 * Connects, runs `talk` (which writes whatever it likes, as slowly as it likes, until the socket closes),
 * and resolves when the server closes the connection.
 */
/** The body of a raw HTTP answer, parsed. */
function bodyOf(received: string): unknown {
  return JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4));
}

const timedOut = { api_response: '4000', message: 'Request timeout: the request was not received in time' };

function converse(port: number, talk: (socket: net.Socket, closed: () => boolean) => Promise<void>): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let received = '';
    let closed = false;
    const socket = net.connect(port, '127.0.0.1');
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      resolve({ received, closedAfterMs: Date.now() - started });
    });
    socket.on('connect', () => {
      talk(socket, () => closed).catch(reject);
    });
    setTimeout(() => {
      if (!closed) {
        socket.destroy();
        reject(new Error(`the server kept the connection open for 15 s; received: ${JSON.stringify(received)}`));
      }
    }, 15_000).unref();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `text` one byte at a time, `everyMs` apart, while the socket is open. */
async function drip(socket: net.Socket, closed: () => boolean, text: string, everyMs: number): Promise<void> {
  for (const byte of text) {
    if (closed()) return;
    socket.write(byte);
    await sleep(everyMs);
  }
}

describe('connection limits on a listening server', () => {
  let server: RunningServer;
  let port: number;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-limits-'));
    server = await startServer(
      loadConfig({
        WAYBILL_DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'silent',
        WAYBILL_HEADERS_TIMEOUT_SECONDS: String(HEADERS_TIMEOUT_MS / 1000),
        WAYBILL_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_MS / 1000),
        WAYBILL_KEEP_ALIVE_TIMEOUT_SECONDS: String(KEEP_ALIVE_TIMEOUT_MS / 1000),
        WAYBILL_CONNECTION_TIMEOUT_SECONDS: '5',
        WAYBILL_MAX_HEADER_BYTES: String(MAX_HEADER_BYTES),
      }),
    );
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 431 to a request head over the limit, and serves one under it', async () => {
    const under = await fetch(`${server.url}/healthz`, { headers: { 'x-padding': 'a'.repeat(MAX_HEADER_BYTES - 1024) } });
    expect(under.status).toBe(200);
    const over = await fetch(`${server.url}/healthz`, { headers: { 'x-padding': 'a'.repeat(MAX_HEADER_BYTES + 1) } });
    expect(over.status).toBe(431);
    expect(await over.json()).toEqual({ api_response: '4000', message: 'Request headers too large' });
    // Many small headers count together.
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x-h${i}`, 'a'.repeat(30)]));
    expect((await fetch(`${server.url}/healthz`, { headers: many })).status).toBe(431);
  });

  it('cuts off a client that sends half a request head and waits: 408, at the headers timeout', async () => {
    const { received, closedAfterMs } = await converse(port, async (socket) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: waybill.test\r\n');
    });
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(received)).toEqual(timedOut);
    expect(closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    // Node checks the timeouts at most every second (connectionsCheckingInterval); the margin is for a busy machine.
    expect(closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 3000);
  });

  it('cuts off a slowloris that keeps the socket busy with one header byte at a time', async () => {
    const head = `GET /healthz HTTP/1.1\r\nHost: waybill.test\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`;
    const { received, closedAfterMs } = await converse(port, (socket, closed) => drip(socket, closed, head, 50));
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(received)).toEqual(timedOut);
    expect(closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 3000);
  });

  it('cuts off a client that sends its body slowly: 408, at the request timeout', async () => {
    const body = `grant_type=client_credentials&padding=${'a'.repeat(200)}`;
    const { received, closedAfterMs } = await converse(port, async (socket, closed) => {
      socket.write(
        `POST /auth/oauth/token/ HTTP/1.1\r\nHost: waybill.test\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      await drip(socket, closed, body, 50);
    });
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(received)).toEqual(timedOut);
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 3000);
  });

  it('closes a connection that never sends anything', async () => {
    const { received, closedAfterMs } = await converse(port, async () => {});
    expect(closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 3000);
    expect(received === '' || /^HTTP\/1\.1 408 /.test(received)).toBe(true);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const { received, closedAfterMs } = await converse(port, async (socket) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: waybill.test\r\nConnection: keep-alive\r\n\r\n');
    });
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toMatch(/keep-alive: timeout=1/i);
    expect(closedAfterMs).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT_MS - 50);
    expect(closedAfterMs).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + 3000);
  });

  it('answers bytes that are not HTTP with 400 in the envelope', async () => {
    const { received } = await converse(port, async (socket) => {
      socket.write('HELLO THERE\r\n\r\n');
    });
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(received)).toEqual({ api_response: '4000', message: 'Invalid request format: not a valid HTTP request' });
  });

  it('keeps serving well-behaved clients meanwhile', async () => {
    const slow = converse(port, async (socket) => {
      socket.write('GET /healthz HTTP/1.1\r\n');
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => fetch(`${server.url}/healthz`).then((r) => r.status)));
    expect(answers).toEqual([200, 200, 200, 200, 200]);
    expect((await slow).received).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('connection limit settings', () => {
  it('have defaults, and refuse a headers timeout longer than the request timeout', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      connectionTimeoutMs: 60_000,
      keepAliveTimeoutMs: 72_000,
      maxHeaderBytes: 16_384,
      jobLeaseMs: 60_000,
      pollLeaseMs: 120_000,
      idempotencyLeaseMs: 60_000,
      bookingLeaseMs: 300_000,
    });
    expect(() => loadConfig({ WAYBILL_HEADERS_TIMEOUT_SECONDS: '40' })).toThrow(ConfigError);
    expect(() => loadConfig({ WAYBILL_MAX_HEADER_BYTES: '10' })).toThrow(/WAYBILL_MAX_HEADER_BYTES/);
    expect(() => loadConfig({ WAYBILL_REQUEST_TIMEOUT_SECONDS: 'soon' })).toThrow(/WAYBILL_REQUEST_TIMEOUT_SECONDS/);
  });
});

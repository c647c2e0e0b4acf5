import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { HttpDrain } from '../../src/http/drain.js';
import { RawConnection } from '../reliability/raw-http.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('HttpDrain', () => {
  let server: http.Server;
  let drain: HttpDrain;
  let url: string;
  const agent = new Agent({ connections: 8 });
  beforeAll(async () => {
    const handler = (_request: http.IncomingMessage, response: http.ServerResponse) => response.end('ok');
    server = http.createServer(handler);
    drain = new HttpDrain(server, handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await agent.close();
    await drain.close(Date.now() + 1000);
  });

  it('holds on to finished responses only until the next pruning, a few requests later, however many it served', async () => {
    for (let round = 0; round < 40; round++) {
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          const { body } = await request(url, { dispatcher: agent });
          expect(await body.text()).toBe('ok');
        }),
      );
    }
    // Eight connections: at most eight in flight, so a pruning comes after 16 responses at most. Held for longer, at
    // thousands of requests a second they outlive the young generation's collections and fill the old one.
    expect(drain.held).toBeLessThanOrEqual(16);
  });
});

describe('HttpDrain.close, with a grace', () => {
  const GRACE_MS = 400;
  const open: Array<{ server: http.Server; drain: HttpDrain }> = [];
  afterAll(async () => {
    for (const { server, drain } of open) {
      await drain.close(Date.now());
      server.closeAllConnections();
    }
  });

  /**
   * A server behind a drain whose handler answers `GET /` at once and `GET /slow` in two parts: its head (which
   * says keep-alive) at once, its body `slowMs` later. `served` lists the paths the handler ran.
   */
  async function drainedServer(slowMs = 0) {
    const served: string[] = [];
    const handler = (request: http.IncomingMessage, response: http.ServerResponse) => {
      served.push(request.url ?? '');
      request.resume();
      request.on('end', () => {
        if (request.url !== '/slow') return response.end('ok');
        response.writeHead(200, { 'content-length': 2 });
        response.flushHeaders();
        setTimeout(() => response.end('ok'), slowMs);
      });
    };
    const server = http.createServer(handler);
    const drain = new HttpDrain(server, handler, { graceMs: GRACE_MS });
    open.push({ server, drain });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, drain, served, port: (server.address() as AddressInfo).port };
  }

  async function idleConnection(port: number): Promise<RawConnection> {
    const connection = await RawConnection.open(port);
    await connection.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const answer = await connection.response(2_000);
    expect(answer?.headers.connection).toBe('keep-alive');
    return connection;
  }

  it('serves a request sent on an idle kept-alive connection just after the stop, then closes the connection', async () => {
    const { drain, port } = await drainedServer();
    const idle = await idleConnection(port);
    const untouched = await idleConnection(port);
    const closing = drain.close(Date.now() + 5_000);
    await sleep(50);
    expect(idle.closed).toBe(false);
    await idle.write('GET /?after-stop HTTP/1.1\r\nHost: x\r\n\r\n');
    const answer = await idle.response(2_000);
    expect(answer?.status, idle.unread).toBe(200);
    expect(answer?.headers.connection).toBe('close');
    expect(await idle.closedWithin(500)).toBe(true);
    // A connection left idle is closed when the grace ends, and the drain ends with it.
    expect(untouched.closed).toBe(false);
    const began = Date.now();
    expect(await closing).toBe(true);
    expect(Date.now() - began).toBeLessThan(GRACE_MS + 200);
    expect(await untouched.closedWithin(500)).toBe(true);
  });

  it('serves a request whose head was still arriving at the stop, even when it ends after the grace', async () => {
    const { drain, served, port } = await drainedServer();
    const late = await RawConnection.open(port);
    await late.write('GET /?half-head HTTP/1.1\r\nHost: x\r\n');
    await sleep(50);
    const closing = drain.close(Date.now() + 5_000);
    await sleep(GRACE_MS + 200);
    await late.write('Accept: */*\r\n\r\n');
    const answer = await late.response(2_000);
    expect(answer?.status, late.unread).toBe(200);
    expect(answer?.headers.connection).toBe('close');
    expect(served).toEqual(['/?half-head']);
    expect(await closing).toBe(true);
  });

  it('refuses a request begun after the grace on a connection kept open by an answer under way, without running it', async () => {
    const { drain, served, port } = await drainedServer(GRACE_MS + 300);
    const busy = await RawConnection.open(port);
    await busy.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(50);
    const closing = drain.close(Date.now() + 5_000);
    // Its head went out before the stop, saying keep-alive: the client may send its next request on it.
    const answer = await busy.response(2_000);
    expect(answer?.headers.connection).toBe('keep-alive');
    const sent = await busy.write('GET /?after-grace HTTP/1.1\r\nHost: x\r\n\r\n');
    const next = sent ? await busy.response(2_000) : null;
    if (next) {
      expect(next.status).toBe(503);
      expect(JSON.parse(next.body)).toEqual({ api_response: '500', message: expect.any(String) });
      expect(next.headers['retry-after']).toBe('1');
      expect(next.headers.connection).toBe('close');
    }
    expect(await busy.closedWithin(500)).toBe(true);
    expect(served).toEqual(['/slow']);
    expect(await closing).toBe(true);
  });

  it('closes every connection at the deadline, whatever its client does', async () => {
    const { drain, port } = await drainedServer();
    const stuck = await RawConnection.open(port);
    await stuck.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{');
    await sleep(50);
    const began = Date.now();
    expect(await drain.close(began + GRACE_MS + 300)).toBe(false);
    expect(Date.now() - began).toBeGreaterThanOrEqual(GRACE_MS + 290);
    expect(Date.now() - began).toBeLessThan(GRACE_MS + 600);
    expect(await stuck.closedWithin(500)).toBe(true);
  });
});

describe('the shutdown grace setting', () => {
  it('is 1 s by default, 0 closes idle connections at once, and it may not outlast the shutdown timeout', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(1000);
    expect(loadConfig({ WAYBILL_SHUTDOWN_GRACE_SECONDS: '0' }).shutdownGraceMs).toBe(0);
    expect(loadConfig({ WAYBILL_SHUTDOWN_GRACE_SECONDS: '2', WAYBILL_SHUTDOWN_TIMEOUT_SECONDS: '2' }).shutdownGraceMs).toBe(2000);
    expect(() => loadConfig({ WAYBILL_SHUTDOWN_GRACE_SECONDS: '3', WAYBILL_SHUTDOWN_TIMEOUT_SECONDS: '2' })).toThrow(ConfigError);
    expect(() => loadConfig({ WAYBILL_SHUTDOWN_GRACE_SECONDS: '0.5' })).toThrow(/WAYBILL_SHUTDOWN_GRACE_SECONDS/);
  });
});

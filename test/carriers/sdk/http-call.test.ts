import dc from 'node:diagnostics_channel';
import { getEventListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { CarrierError } from '../../../src/carriers/carrier.js';
import { CarrierMetrics } from '../../../src/carriers/sdk/carrier-metrics.js';
import { CarrierHttp, unanswered } from '../../../src/carriers/sdk/http.js';

/**
 * Whether a failed call may have reached the carrier (`unanswered`: a booking is then checked, never sent again)
 * follows what happened to the request, not the error's code: EHOSTUNREACH ends connections that never opened
 * as well as one the request went out on.
 */
describe('CarrierHttp: a request that went out is never reported as not sent', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  /** A booking-like call, sent once: whether it may have been made is what `unanswered` says. */
  const book = (client: CarrierHttp, port: number) =>
    client.call({ carrier: 'test', method: 'POST', url: `http://127.0.0.1:${port}/shipments`, body: '{}', retry: false });

  it('reports a request the carrier received as unanswered when its connection then fails with EHOSTUNREACH', async () => {
    let socket: Socket | null = null;
    const onConnected = (message: unknown) => {
      socket = (message as { socket: Socket }).socket;
    };
    dc.subscribe('undici:client:connected', onConnected);
    closers.push(async () => dc.unsubscribe('undici:client:connected', onConnected));
    let received = 0;
    const server = http.createServer(() => {
      received++;
      // The request reached the carrier; then the route to it is lost before the answer comes back.
      setTimeout(() => socket?.destroy(Object.assign(new Error('read EHOSTUNREACH'), { code: 'EHOSTUNREACH', syscall: 'read' })), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const client = new CarrierHttp(new CarrierMetrics());
    closers.push(() => client.close());

    const result = await book(client, (server.address() as AddressInfo).port);
    expect(received).toBe(1);
    expect('status' in result && result.status).toBe('error');
    expect(unanswered(result as CarrierError)).toBe(true);
  });

  it('reports a refused connection as not sent', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const client = new CarrierHttp(new CarrierMetrics());
    closers.push(() => client.close());

    const result = await book(client, port);
    expect('status' in result && result.status).toBe('error');
    expect(unanswered(result as CarrierError)).toBe(false);
  });
});

describe("CarrierHttp: the caller's signal", () => {
  it('holds no listener of a call once it is over, retries included', async () => {
    let calls = 0;
    const server = http.createServer((_request, response) => {
      calls++;
      response.writeHead(calls === 1 ? 503 : 200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new CarrierHttp(new CarrierMetrics(), { random: () => 0 });
    try {
      const deadline = new AbortController();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/track`;
      const result = await client.call({ carrier: 'test', method: 'GET', url, signal: deadline.signal });
      expect(calls).toBe(2);
      expect('status' in result && result.status === 'error').toBe(false);
      expect(getEventListeners(deadline.signal, 'abort')).toHaveLength(0);
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('CarrierHttp: faults the adapter reads itself', () => {
  it('returns a 500 its isFault recognises as it came, without a retry; other 500s are retried and reported', async () => {
    let calls = 0;
    const server = http.createServer((request, response) => {
      calls++;
      const fault = request.url === '/fault';
      response.writeHead(500, { 'content-type': 'text/xml' }).end(fault ? '<Fault>session expired</Fault>' : '<Fault>busy</Fault>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new CarrierHttp(new CarrierMetrics(), { random: () => 0 });
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const isFault = (answer: { text(): string }) => answer.text().includes('session expired');
      const read = await client.call({ carrier: 'test', method: 'POST', url: `${base}/fault`, body: '<x/>', isFault });
      expect('status' in read && read.status).toBe(500);
      expect(calls).toBe(1);
      const other = await client.call({ carrier: 'test', method: 'POST', url: `${base}/other`, body: '<x/>', isFault });
      expect(other).toMatchObject({ status: 'error', retryable: true, http_status: 500 });
      expect(calls).toBe(3);
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

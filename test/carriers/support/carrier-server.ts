import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the local carrier server received. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When it arrived (ms since the epoch), for rate checks. */
  at: number;
}

/** What a route answers: a status, headers and a body (objects are sent as JSON). `hang` never answers. */
export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  hang?: boolean;
  /** Waits this long before answering (to observe concurrency). */
  delayMs?: number;
}

export type Route = (request: ReceivedRequest) => ScriptedReply | Promise<ScriptedReply>;

/**
 * A local HTTP server standing in for a carrier's API on 127.0.0.1:0, reached through
 * `WAYBILL_CARRIER_<ID>_BASE_URL`. Routes are matched by method and path (a RegExp or an exact path);
 * it records every request, the highest number in flight at once, and can script one-off replies.
 */
export class CarrierServer {
  readonly requests: ReceivedRequest[] = [];
  maxInFlight = 0;
  private inFlight = 0;
  private readonly routes: Array<{ method: string; path: string | RegExp; route: Route }> = [];
  private readonly scripted: Array<{ path: string | RegExp; reply: ScriptedReply }> = [];
  private readonly server: http.Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  url = '';

  constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void this.handle(req, res, Buffer.concat(chunks).toString('utf8'));
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  on(method: string, path: string | RegExp, route: Route): this {
    this.routes.push({ method: method.toUpperCase(), path, route });
    return this;
  }

  /** The next request to a matching path gets this reply instead of its route's (scripts are used in order). */
  once(path: string | RegExp, reply: ScriptedReply): this {
    this.scripted.push({ path, reply });
    return this;
  }

  /** Requests whose path matches. */
  to(path: string | RegExp): ReceivedRequest[] {
    return this.requests.filter((r) => matches(path, r.path));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const received: ReceivedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      at: Date.now(),
    };
    this.requests.push(received);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const scriptIndex = this.scripted.findIndex((s) => matches(s.path, received.path));
      let reply: ScriptedReply;
      if (scriptIndex >= 0) {
        reply = this.scripted[scriptIndex].reply;
        this.scripted.splice(scriptIndex, 1);
      } else {
        const route = this.routes.find((r) => r.method === received.method && matches(r.path, received.path));
        reply = route ? await route.route(received) : { status: 404, body: { error: 'no such route in the local carrier server' } };
      }
      if (reply.hang) return;
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      const isText = typeof reply.body === 'string' || Buffer.isBuffer(reply.body);
      const payload = reply.body === undefined ? '' : isText ? (reply.body as string | Buffer) : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, {
        ...(isText || reply.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...reply.headers,
      });
      res.end(payload);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    } finally {
      this.inFlight--;
    }
  }
}

function matches(path: string | RegExp, actual: string): boolean {
  return typeof path === 'string' ? path === actual : path.test(actual);
}

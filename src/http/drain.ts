import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

const REFUSAL = JSON.stringify({
  api_response: '500',
  message: 'Service unavailable: this process is shutting down; send the request again',
});

export interface DrainOptions {
  /**
   * How long connections stay open once `close` begins (ms): a client may have picked an idle keep-alive
   * connection, or begun a request on one, a moment before the stop. 0 closes idle connections at once.
   */
  graceMs?: number;
}

/**
 * The graceful stop of a listening HTTP server. It stands between the server and the application's request
 * handler, so that once `close` begins:
 * - no new connection is accepted;
 * - for a grace (`graceMs`, cut short by the deadline) every connection stays open, and every request on one
 *   is served, answered with `Connection: close` (its connection closes after the answer). Requests already in
 *   flight are answered the same way, whether they had been routed or their head was still arriving;
 * - when the grace ends, idle connections are closed (and each that goes idle later). A request whose first
 *   bytes came before that is still served; one begun after it, on a connection kept open by an answer under
 *   way then, is refused in the envelope, 503 with `Retry-After`, and its connection closed: it was not run, so
 *   the client can send it again (to another process);
 * - at the deadline, every connection still open is closed, whatever its client is doing.
 */
export class HttpDrain {
  private phase: 'serving' | 'grace' | 'closing' = 'serving';
  /**
   * Responses begun, some of them long finished: pruned of the finished ones when it grows, so that a request
   * costs a push rather than a listener and a closure to learn when its response ends.
   */
  private begun: ServerResponse[] = [];
  /** The length at which it is pruned next: twice what a pruning leaves, so that many requests in flight stay cheap. */
  private pruneAt = PRUNE_AT;
  /**
   * After the grace: connections with an answer under way when it ended, or served since. A request they carry
   * next began after the grace; on any other connection still open, the request's first bytes came before it
   * (the connection was not idle when the idle ones were closed).
   */
  private spent = new WeakSet<Socket>();
  private readonly graceMs: number;

  constructor(
    private readonly server: Server,
    handler: RequestHandler,
    options: DrainOptions = {},
  ) {
    if (!server.listeners('request').includes(handler)) throw new Error('the request handler is not listening on this server');
    this.graceMs = options.graceMs ?? 0;
    server.removeListener('request', handler);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (this.phase !== 'serving') {
        if (this.phase === 'closing') {
          if (this.spent.has(request.socket)) return refuse(response);
          this.spent.add(request.socket);
        }
        response.setHeader('connection', 'close');
      }
      if (this.begun.length >= this.pruneAt) {
        this.begun = this.begun.filter(inProgress);
        this.pruneAt = Math.max(PRUNE_AT, 2 * this.begun.length);
      }
      this.begun.push(response);
      handler(request, response);
    });
  }

  /** How many responses it holds (finished ones until the next pruning): bounded by about twice those in flight. */
  get held(): number {
    return this.begun.length;
  }

  /** Drains the server; resolves true when every connection ended by itself before `deadline` (epoch ms). */
  async close(deadline: number): Promise<boolean> {
    this.phase = 'grace';
    for (const response of this.begun) if (!response.headersSent && !response.destroyed) response.setHeader('connection', 'close');
    // http.Server#close would also close the idle connections at once, which the grace keeps open; this only
    // stops listening. Node's checks of slow request heads and bodies go on meanwhile.
    const closed = new Promise<true>((resolve) => net.Server.prototype.close.call(this.server, () => resolve(true)));
    if (await settledBefore(closed, Math.min(deadline, Date.now() + this.graceMs))) return true;

    this.phase = 'closing';
    for (const response of this.begun) if (inProgress(response) && response.socket) this.spent.add(response.socket);
    this.begun = [];
    this.server.closeIdleConnections();
    // An answer whose headers went out before the drain said keep-alive: its connection is idle once it ends.
    const idle = setInterval(() => this.server.closeIdleConnections(), IDLE_CHECK_MS);
    const inTime = await settledBefore(closed, deadline);
    clearInterval(idle);
    if (!inTime) {
      this.server.closeAllConnections();
      await closed;
    }
    return inTime;
  }
}

/**
 * How many begun responses are kept, at least, before the finished ones are dropped. Few: a finished response
 * holds its request, headers and body, and at thousands of requests a second 512 of them outlived two of V8's
 * young-generation collections and were moved to the old generation: a third of all that the mixed load moved there
 * (docs/performance.md).
 */
const PRUNE_AT = 16;
/** How often a drain closes the connections that went idle. */
const IDLE_CHECK_MS = 25;

function inProgress(response: ServerResponse): boolean {
  return !response.writableFinished && !response.destroyed;
}

/** Whether `closed` resolves before `until` (epoch ms). */
async function settledBefore(closed: Promise<true>, until: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, until - Date.now()));
  });
  const settled = await Promise.race([closed, expired]);
  clearTimeout(timer);
  return settled;
}

function refuse(response: ServerResponse): void {
  response.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(REFUSAL),
    'retry-after': '1',
    connection: 'close',
  });
  response.end(REFUSAL);
}

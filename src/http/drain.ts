import type { IncomingMessage, Server, ServerResponse } from 'node:http';

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

const REFUSAL = JSON.stringify({
  api_response: '500',
  message: 'Service unavailable: this process is shutting down; send the request again',
});

/**
 * The graceful stop of a listening HTTP server. It stands between the server and the application's request
 * handler, so that once `close` begins:
 * - no new connection is accepted, and idle keep-alive connections are closed at once;
 * - requests in flight finish, answered with `Connection: close` (their connection closes after the answer);
 * - a request arriving on a still-open connection is refused in the envelope, 503 with `Retry-After`, and its
 *   connection closed: it was not run, so the client can send it again (to another process);
 * - at the deadline, every connection still open is closed, whatever its client is doing.
 */
export class HttpDrain {
  private draining = false;
  /**
   * Responses begun, some of them long finished: pruned of the finished ones when it grows, so that a request
   * costs a push rather than a listener and a closure to learn when its response ends.
   */
  private begun: ServerResponse[] = [];
  /** The length at which it is pruned next: twice what a pruning leaves, so that many requests in flight stay cheap. */
  private pruneAt = PRUNE_AT;

  constructor(
    private readonly server: Server,
    handler: RequestHandler,
  ) {
    if (!server.listeners('request').includes(handler)) throw new Error('the request handler is not listening on this server');
    server.removeListener('request', handler);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (this.draining) return refuse(response);
      if (this.begun.length >= this.pruneAt) {
        this.begun = this.begun.filter((begun) => !begun.writableFinished && !begun.destroyed);
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
    this.draining = true;
    for (const response of this.begun) if (!response.headersSent && !response.destroyed) response.setHeader('connection', 'close');
    this.begun = [];
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    // An answer whose headers went out before the drain said keep-alive: its connection is idle once it ends.
    const idle = setInterval(() => this.server.closeIdleConnections(), IDLE_CHECK_MS);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
    });
    const inTime = await Promise.race([closed.then(() => true as const), expired]);
    clearTimeout(timer);
    clearInterval(idle);
    if (!inTime) {
      this.server.closeAllConnections();
      await closed;
    }
    return inTime;
  }
}

/** How many begun responses are kept, at least, before the finished ones are dropped. */
const PRUNE_AT = 512;
/** How often a drain closes the connections that went idle. */
const IDLE_CHECK_MS = 25;

function refuse(response: ServerResponse): void {
  response.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(REFUSAL),
    'retry-after': '1',
    connection: 'close',
  });
  response.end(REFUSAL);
}

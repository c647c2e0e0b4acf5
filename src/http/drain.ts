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
  private readonly inFlight = new Set<ServerResponse>();

  constructor(
    private readonly server: Server,
    handler: RequestHandler,
  ) {
    if (!server.listeners('request').includes(handler)) throw new Error('the request handler is not listening on this server');
    server.removeListener('request', handler);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (this.draining) return refuse(response);
      this.inFlight.add(response);
      response.once('close', () => this.finished(response));
      handler(request, response);
    });
  }

  /** Drains the server; resolves true when every connection ended by itself before `deadline` (epoch ms). */
  async close(deadline: number): Promise<boolean> {
    this.draining = true;
    for (const response of this.inFlight) if (!response.headersSent) response.setHeader('connection', 'close');
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
    });
    const inTime = await Promise.race([closed.then(() => true as const), expired]);
    clearTimeout(timer);
    if (!inTime) {
      this.server.closeAllConnections();
      await closed;
    }
    return inTime;
  }

  private finished(response: ServerResponse): void {
    this.inFlight.delete(response);
    // An answer whose headers went out before the drain said keep-alive: its connection is idle now.
    if (this.draining) this.server.closeIdleConnections();
  }
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

import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One client connection on a raw socket: what is written is exactly what the server reads, and what the
 * server sends (answers, or closing the connection) is seen as it happens, with no client library retrying
 * or reconnecting in between. With `lagMs`, it is seen that much later, as by a client across a network: until
 * then the client takes the connection for open and writes on it.
 */
export class RawConnection {
  private buffered = Buffer.alloc(0);
  private closedFlag = false;
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly socket: net.Socket,
    private readonly lagMs: number,
  ) {
    const seen = (event: () => void) => (lagMs > 0 ? () => setTimeout(event, lagMs) : event);
    socket.on('data', (chunk: Buffer) =>
      seen(() => {
        this.buffered = Buffer.concat([this.buffered, chunk]);
        this.notify();
      })(),
    );
    // A reset is a close too: the test asserts on what was received before it.
    socket.on('error', () => {});
    socket.on(
      'close',
      seen(() => {
        this.closedFlag = true;
        this.notify();
      }),
    );
  }

  static open(port: number, options: { lagMs?: number } = {}): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawConnection(socket, options.lagMs ?? 0)));
      socket.once('error', reject);
    });
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Writes bytes; false when the connection is already gone (or, with a lag, turns out to be). */
  write(data: string): Promise<boolean> {
    if (this.closedFlag || (this.lagMs === 0 && this.socket.destroyed)) return Promise.resolve(false);
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve(false);
      this.socket.write(data, (error) => resolve(!error));
    });
  }

  /** The next complete response (head and a Content-Length body), or null when the connection closes first. */
  async response(timeoutMs: number): Promise<RawResponse | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.parse();
      if (parsed) return parsed;
      if (this.closedFlag) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no response within ${timeoutMs} ms; received: ${JSON.stringify(this.buffered.toString('latin1'))}`);
      await this.changed(left);
    }
  }

  /** Waits until the server closes the connection; false if it is still open after `timeoutMs`. */
  async closedWithin(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closedFlag && Date.now() < deadline) await this.changed(deadline - Date.now());
    return this.closedFlag;
  }

  /** Whatever arrived and was not read as a response. */
  get unread(): string {
    return this.buffered.toString('utf8');
  }

  destroy(): void {
    this.socket.destroy();
  }

  private parse(): RawResponse | null {
    const end = this.buffered.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = this.buffered.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffered.length < end + 4 + length) return null;
    const body = this.buffered.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffered = this.buffered.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }

  private changed(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(done);
    });
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/**
 * A keep-alive client of one port on raw connections: a request goes on the connection used last among those
 * it takes for open and idle, or on a new one; a connection answered with `Connection: close`, or idle for
 * `idleTimeoutMs`, is not used again. It never sends a request again: a request on a connection that closes
 * before its answer fails (`ConnectionLost`); a refused connection carried nothing (`ECONNREFUSED`).
 */
export class KeepAliveClient {
  private idle: Array<{ connection: RawConnection; since: number }> = [];
  private used = new WeakSet<RawConnection>();

  constructor(
    private readonly port: number,
    private readonly options: { lagMs: number; idleTimeoutMs: number },
  ) {}

  /** Sends one request (its bytes, head and body) and reads its answer. */
  async request(bytes: string, timeoutMs = 10_000): Promise<RawResponse> {
    const connection = this.pick() ?? (await RawConnection.open(this.port, { lagMs: this.options.lagMs }));
    const reused = this.used.has(connection);
    this.used.add(connection);
    const answer = (await connection.write(bytes)) ? await connection.response(timeoutMs) : null;
    if (!answer) {
      connection.destroy();
      throw new ConnectionLost(reused);
    }
    if (answer.headers.connection === 'close') connection.destroy();
    else this.idle.push({ connection, since: Date.now() });
    return answer;
  }

  close(): void {
    for (const { connection } of this.idle) connection.destroy();
    this.idle = [];
  }

  private pick(): RawConnection | null {
    const now = Date.now();
    const usable = (entry: { connection: RawConnection; since: number }) =>
      !entry.connection.closed && now - entry.since < this.options.idleTimeoutMs;
    for (const entry of this.idle) if (!usable(entry)) entry.connection.destroy();
    this.idle = this.idle.filter(usable);
    return this.idle.pop()?.connection ?? null;
  }
}

export class ConnectionLost extends Error {
  constructor(readonly reused: boolean) {
    super(`the connection${reused ? ', kept alive from an earlier request,' : ''} closed before an answer`);
  }
}

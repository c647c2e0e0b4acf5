import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One client connection on a raw socket: what is written is exactly what the server reads, and what the
 * server sends (answers, or closing the connection) is seen as it happens, with no client library retrying
 * or reconnecting in between.
 */
export class RawConnection {
  private buffered = Buffer.alloc(0);
  private closedFlag = false;
  private waiters: Array<() => void> = [];

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.notify();
    });
    // A reset is a close too: the test asserts on what was received before it.
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closedFlag = true;
      this.notify();
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Writes bytes; false when the connection is already gone. */
  write(data: string): Promise<boolean> {
    if (this.closedFlag || this.socket.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.write(data, (error) => resolve(!error)));
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

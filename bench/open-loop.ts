import net from 'node:net';
import { percentile, round } from './fixtures.js';

/** One request of an open-loop stream; `kind` groups latencies in the report (details, create, …). */
export interface OpenLoopRequest {
  kind: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A client sending at a constant rate (a merchant at 40 req/s), whatever the answers take. */
export interface OpenLoopStream {
  ratePerSecond: number;
  next(): OpenLoopRequest;
}

export interface KindFigures {
  kind: string;
  completed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface OpenLoopResult {
  offeredPerSecond: number;
  /** Answers received (any status) ÷ the measured period. */
  achievedPerSecond: number;
  sent: number;
  /** Requests that got an answer (any HTTP status); the rest timed out, failed or never found a free connection. */
  completed: number;
  /** Latency from the intended send time to the end of the response, so a stalled server cannot hide its backlog. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  byKind: KindFigures[];
  byStatus: Record<string, number>;
  /** Status 429 (the rate limit refusing, which the load invites by sending at the limit). */
  throttled: number;
  /** Anything but 2xx and 429: statuses, connection errors and timeouts, with a sample of each. */
  failures: number;
  failureSamples: string[];
  /** How late the generator itself sent (p99, ms): if this grows, the generator, not the server, is the limit. */
  sendLagP99Ms: number;
}

/**
 * Constant-rate, open-loop load: every stream sends at its own rate, evenly spaced from a random phase,
 * whether or not earlier requests have been answered. Latency is measured from when each request was due,
 * not from when it went out (no coordinated omission). Requests go over keep-alive connections (up to
 * `maxSockets`, opened as needed); when all are busy a request waits for one, and that wait counts in its latency.
 * The client is a minimal HTTP/1.1 one over raw sockets: Node's own client costs several times more CPU per
 * request, and on a small machine that would be what limits the rate.
 */
export async function openLoop(
  baseUrl: string,
  streams: OpenLoopStream[],
  durationSeconds: number,
  options: { maxSockets?: number; timeoutMs?: number } = {},
): Promise<OpenLoopResult> {
  const url = new URL(baseUrl);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const latencies = new Map<string, number[]>();
  const lags: number[] = [];
  const byStatus: Record<string, number> = {};
  const failureSamples = new Map<string, string>();
  let sent = 0;
  let completed = 0;
  let settled = 0;
  let failures = 0;
  let throttled = 0;

  const start = performance.now() + 50;
  const end = start + durationSeconds * 1000;
  const intervals = streams.map((s) => 1000 / s.ratePerSecond);
  const due = intervals.map((interval) => start + Math.random() * interval);

  const fail = (key: string, sample: string) => {
    failures++;
    byStatus[key] = (byStatus[key] ?? 0) + 1;
    if (!failureSamples.has(key) && failureSamples.size < 10) failureSamples.set(key, sample.slice(0, 300));
  };
  const pool = new ConnectionPool(url.hostname, Number(url.port), options.maxSockets ?? 256, timeoutMs);

  const send = (request: OpenLoopRequest, dueAt: number) => {
    sent++;
    lags.push(performance.now() - dueAt);
    pool.send(request, (status, body) => {
      settled++;
      if (status > 0) completed++;
      const elapsed = performance.now() - dueAt;
      if (status >= 200 && status < 300) {
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        const list = latencies.get(request.kind);
        if (list) list.push(elapsed);
        else latencies.set(request.kind, [elapsed]);
      } else if (status === 429) {
        throttled++;
        byStatus[status] = (byStatus[status] ?? 0) + 1;
      } else if (status > 0) {
        fail(String(status), `${request.method} ${request.path}: ${body}`);
      } else {
        fail(body.split(':')[0], `${request.method} ${request.path}: ${body}`);
      }
    });
  };

  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      for (let i = 0; i < streams.length; i++) {
        while (due[i] <= now && due[i] < end) {
          send(streams[i].next(), due[i]);
          due[i] += intervals[i];
        }
      }
      if (now >= end) return resolve();
      setTimeout(tick, 1);
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });
  const drainDeadline = performance.now() + timeoutMs + 1000;
  while (settled < sent && performance.now() < drainDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
  pool.close();

  const all: number[] = [];
  const byKind: KindFigures[] = [];
  for (const [kind, list] of latencies) {
    list.sort((a, b) => a - b);
    for (const value of list) all.push(value);
    byKind.push({
      kind,
      completed: list.length,
      p50Ms: round(percentile(list, 0.5), 2),
      p99Ms: round(percentile(list, 0.99), 2),
      maxMs: round(list[list.length - 1] ?? 0, 1),
    });
  }
  all.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  const offered = streams.reduce((sum, s) => sum + s.ratePerSecond, 0);
  return {
    offeredPerSecond: offered,
    achievedPerSecond: completed / durationSeconds,
    sent,
    completed,
    p50Ms: round(percentile(all, 0.5), 2),
    p99Ms: round(percentile(all, 0.99), 2),
    maxMs: round(all[all.length - 1] ?? 0, 1),
    byKind: byKind.sort((a, b) => b.completed - a.completed),
    byStatus,
    throttled,
    failures,
    failureSamples: [...failureSamples].map(([key, sample]) => `${key}: ${sample}`),
    sendLagP99Ms: round(percentile(lags, 0.99), 2),
  };
}

type Done = (status: number, body: string) => void;

/** A keep-alive connection carrying one request at a time; answers are framed by content-length. */
class Connection {
  private readonly socket: net.Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private current: { done: Done; timer: NodeJS.Timeout } | null = null;
  private status = 0;
  private bodyStart = -1;
  private bodyLength = 0;
  closed = false;

  constructor(
    host: string,
    port: number,
    private readonly onIdle: (connection: Connection) => void,
    private readonly onClose: (connection: Connection) => void,
  ) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (error) => this.close(error.message));
    this.socket.on('close', () => this.close('connection closed'));
  }

  send(request: OpenLoopRequest, done: Done, timeoutMs: number): void {
    const timer = setTimeout(() => this.close(`timed out after ${timeoutMs} ms`), timeoutMs);
    this.current = { done, timer };
    let head = `${request.method} ${request.path} HTTP/1.1\r\nhost: bench\r\n`;
    for (const name in request.headers) head += `${name}: ${request.headers[name]}\r\n`;
    if (request.body !== undefined) head += `content-length: ${Buffer.byteLength(request.body)}\r\n`;
    this.socket.write(`${head}\r\n${request.body ?? ''}`);
  }

  private read(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    if (this.bodyStart < 0) {
      const headEnd = this.buffer.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = this.buffer.toString('latin1', 0, headEnd);
      this.status = Number(head.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (!length) {
        this.close('answer without content-length');
        return;
      }
      this.bodyLength = Number(length[1]);
      this.bodyStart = headEnd + 4;
    }
    if (this.buffer.length < this.bodyStart + this.bodyLength) return;
    const keep = this.status !== 429 && (this.status < 200 || this.status >= 300);
    const body = keep ? this.buffer.toString('utf8', this.bodyStart, this.bodyStart + this.bodyLength) : '';
    this.buffer = this.buffer.subarray(this.bodyStart + this.bodyLength);
    this.bodyStart = -1;
    const current = this.current;
    this.current = null;
    if (current) {
      clearTimeout(current.timer);
      current.done(this.status, body);
    }
    this.onIdle(this);
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    const current = this.current;
    this.current = null;
    if (current) {
      clearTimeout(current.timer);
      current.done(0, reason);
    }
    this.onClose(this);
  }
}

/** Idle connections are reused; new ones are opened up to `max`; beyond that requests queue in order. */
class ConnectionPool {
  private readonly idle: Connection[] = [];
  private readonly queue: Array<{ request: OpenLoopRequest; done: Done }> = [];
  private open = 0;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly max: number,
    private readonly timeoutMs: number,
  ) {}

  send(request: OpenLoopRequest, done: Done): void {
    const connection = this.idle.pop();
    if (connection) {
      connection.send(request, done, this.timeoutMs);
      return;
    }
    if (this.open < this.max) {
      this.open++;
      const created = new Connection(
        this.host,
        this.port,
        (c) => this.release(c),
        () => {
          this.open--;
          const at = this.idle.indexOf(created);
          if (at >= 0) this.idle.splice(at, 1);
        },
      );
      created.send(request, done, this.timeoutMs);
      return;
    }
    this.queue.push({ request, done });
  }

  private release(connection: Connection): void {
    const next = this.queue.shift();
    if (next) connection.send(next.request, next.done, this.timeoutMs);
    else this.idle.push(connection);
  }

  close(): void {
    for (const connection of [...this.idle]) connection.close('closed');
    for (const { done } of this.queue.splice(0)) done(0, 'not sent');
  }
}

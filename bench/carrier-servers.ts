/**
 * The local carriers in one process, for the carrier-polling scenario (bench/scenarios/carrier-polling.ts),
 * which starts this file as a child process so that answering costs none of the worker's CPU:
 *
 *   CARRIER_SERVERS='<LocalCarriersConfig as JSON>' node --import tsx bench/carrier-servers.ts
 *
 * Each carrier (its entry in bench/carriers/) listens on its own port with its documented paths and
 * authentication (OAuth tokens, session tokens, API keys), answers every synthetic number with one of the
 * carrier's test fixtures (test/carriers/fixtures/<id>/) rewritten for that number, and counts and enforces, per
 * credential, the limits of its entry: numbers per call, calls in flight, calls in sliding windows, and the day's
 * quota. A call over a limit is refused the way the carrier refuses it (429, or 400 for too many numbers) and
 * counted as a violation.
 * `GET /__stats` on the control port returns every count.
 */
import http from 'node:http';
import { bearer, type CarrierDefinition, type Incoming, json, type Reply } from './carrier-answers.js';
import { localCarrier } from './carriers/index.js';
import {
  type CredentialStats,
  type EnforcedLimits,
  type LocalCarrier as LocalCarrierEntry,
  type LocalCarrierStats,
  type LocalCarriersConfig,
  serialOf,
  storyOf,
} from './local-carriers.js';

/** One credential's counters and the arrival times its sliding windows look at. */
class CredentialState {
  readonly stats: CredentialStats;
  inFlight = 0;
  private readonly arrivals: number[][];
  /** The last `max + 1` arrivals of each window, however old. */
  private readonly recent: number[][];
  private day: string;

  constructor(
    private readonly limits: EnforcedLimits,
    spentToday: number,
  ) {
    this.arrivals = limits.windows.map(() => []);
    this.recent = limits.windows.map(() => []);
    this.day = new Date().toISOString().slice(0, 10);
    this.stats = {
      calls: 0,
      answered: 0,
      numbers: 0,
      tokens: 0,
      maxInFlight: 0,
      maxInWindow: limits.windows.map(() => 0),
      tightestMs: limits.windows.map(() => null),
      violations: { numbersPerCall: 0, concurrency: 0, rate: 0, quota: 0 },
      spentToday,
    };
  }

  /** Counts a call arriving at `now` in every window; returns how long until the first full window frees, or 0. */
  arrive(now: number): number {
    let waitMs = 0;
    this.limits.windows.forEach((window, i) => {
      const times = this.arrivals[i];
      while (times.length > 0 && times[0] <= now - window.ms) times.shift();
      times.push(now);
      this.stats.maxInWindow[i] = Math.max(this.stats.maxInWindow[i], times.length);
      const recent = this.recent[i];
      recent.push(now);
      if (recent.length > window.max + 1) recent.shift();
      if (recent.length === window.max + 1) {
        const span = now - recent[0];
        const tightest = this.stats.tightestMs[i];
        this.stats.tightestMs[i] = tightest === null ? span : Math.min(tightest, span);
      }
      if (times.length > window.max) waitMs = Math.max(waitMs, times[times.length - 1 - window.max] + window.ms - now);
    });
    return waitMs;
  }

  /** Whether the day's quota is spent; a new UTC day starts from zero. */
  quotaSpent(now: number): boolean {
    const day = new Date(now).toISOString().slice(0, 10);
    if (day !== this.day) {
      this.day = day;
      this.stats.spentToday = 0;
    }
    return this.limits.dailyQuota !== null && this.stats.spentToday >= this.limits.dailyQuota;
  }
}

class LocalCarrier {
  private readonly definition: CarrierDefinition;
  private readonly limits: EnforcedLimits;
  private readonly credentials = new Map<string, CredentialState>();
  private readonly tokens = new Map<string, string>();
  private readonly answeredNumbers: Array<[string, number, string]> = [];
  private issued = 0;
  private unauthorized = 0;
  private server: http.Server | null = null;
  url = '';
  readonly id: string;

  constructor(
    private readonly entry: LocalCarrierEntry,
    credentials: Array<{ id: string; spentToday: number }>,
    private readonly latencyMs: number,
    private readonly recordNumbers: boolean,
  ) {
    this.id = entry.id;
    this.definition = entry.answers();
    this.limits = entry.limits;
    for (const credential of credentials) this.credentials.set(credential.id, new CredentialState(this.limits, credential.spentToday));
  }

  async listen(port: number): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://local');
        this.handle(
          {
            method: req.method ?? 'GET',
            path: url.pathname,
            query: url.searchParams,
            headers: req.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          },
          res,
        );
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${port}`;
  }

  /** The numbers the scenario tracks, for carriers that know their numbers before they are asked (an aggregator's trackers). */
  knows(numbers: readonly string[]): void {
    this.definition.knows?.(numbers);
  }

  stats(): LocalCarrierStats {
    return {
      id: this.id,
      url: this.url,
      limits: this.limits,
      credentials: Object.fromEntries([...this.credentials].map(([id, state]) => [id, state.stats])),
      unauthorized: this.unauthorized,
      answeredNumbers: this.answeredNumbers,
    };
  }

  /** Answers a request: at once, or after the latency for tracking data; a call in flight ends as its answer is sent. */
  private handle(request: Incoming, res: http.ServerResponse): void {
    const { reply, delayMs, state } = this.answer(request);
    const send = () => {
      if (state) state.inFlight--;
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body);
    };
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  }

  private answer(request: Incoming): { reply: Reply; delayMs: number; state?: CredentialState } {
    const token = this.definition.token;
    if (token && request.method === 'POST' && request.path === token.path) {
      const client = token.clientOf(request);
      const known = client ? this.credentials.get(client) : undefined;
      if (!client || !known) {
        this.unauthorized++;
        return { reply: this.definition.unauthorized, delayMs: 0 };
      }
      known.stats.tokens++;
      const accessToken = `${this.id}-token-${++this.issued}`;
      this.tokens.set(accessToken, client);
      return { reply: token.answer(accessToken), delayMs: 0 };
    }
    if (!this.definition.isTrack(request)) return { reply: json(404, { error: 'no such route in the local carrier' }), delayMs: 0 };

    const { apiKey, tokenOf } = this.definition;
    const credential = apiKey ? apiKey(request) : this.tokens.get((tokenOf ? tokenOf(request) : bearer(request)) ?? '');
    const state = credential ? this.credentials.get(credential) : undefined;
    if (!credential || !state) {
      this.unauthorized++;
      return { reply: this.definition.unauthorized, delayMs: 0 };
    }
    const now = Date.now();
    const stats = state.stats;
    stats.calls++;
    state.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, state.inFlight);
    const refused = (reply: Reply) => ({ reply, delayMs: 0, state });
    const waitMs = state.arrive(now);
    if (state.inFlight > this.limits.concurrentCalls) {
      stats.violations.concurrency++;
      return refused(this.definition.rateLimited(1));
    }
    if (waitMs > 0) {
      stats.violations.rate++;
      return refused(this.definition.rateLimited(waitMs / 1000));
    }
    if (state.quotaSpent(now)) {
      stats.violations.quota++;
      return refused(this.definition.quotaSpent(now));
    }
    let numbers: string[];
    try {
      numbers = this.definition.numbersOf(request);
    } catch {
      return refused(json(400, { error: 'unreadable request' }));
    }
    if (numbers.length > this.limits.numbersPerCall) {
      stats.violations.numbersPerCall++;
      return refused(this.definition.tooManyNumbers);
    }
    stats.spentToday++;
    stats.answered++;
    if (this.definition.counts?.(request) ?? true) {
      stats.numbers += numbers.length;
      if (this.recordNumbers) for (const number of numbers) this.answeredNumbers.push([number, now, credential]);
    }
    const reply = this.definition.answer(
      numbers,
      (number) => {
        const serial = serialOf(this.entry, number);
        return serial === null ? 'in_transit' : storyOf(serial);
      },
      request,
    );
    return { reply, delayMs: this.latencyMs, state };
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

async function main(): Promise<void> {
  const raw = process.env.CARRIER_SERVERS;
  if (!raw) throw new Error('CARRIER_SERVERS (the configuration as JSON) is not set');
  const config = JSON.parse(raw) as LocalCarriersConfig;
  const carriers: LocalCarrier[] = [];
  for (const c of config.carriers) {
    const entry = localCarrier(c.id);
    if (!entry) throw new Error(`no local carrier "${c.id}"`);
    const carrier = new LocalCarrier(entry, c.credentials, config.latencyMs, c.recordNumbers);
    const serials = [...Array.from({ length: c.serials.below }, (_, serial) => serial), ...c.serials.also];
    carrier.knows(serials.map((serial) => entry.number(serial)));
    await carrier.listen(c.port);
    carriers.push(carrier);
  }
  const control = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/__stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ carriers: carriers.map((c) => c.stats()) }));
      return;
    }
    res.writeHead(404);
    res.end();
  });
  control.listen(config.controlPort, '127.0.0.1');
  const stop = () => {
    control.close();
    void Promise.all(carriers.map((c) => c.close())).then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

/**
 * Seven local carriers in one process, for the carrier-polling scenario (bench/scenarios/carrier-polling.ts),
 * which starts this file as a child process so that answering costs none of the worker's CPU:
 *
 *   CARRIER_SERVERS='<LocalCarriersConfig as JSON>' node --import tsx bench/carrier-servers.ts
 *
 * Each carrier listens on its own port with its documented paths and authentication (OAuth tokens or API key
 * headers), answers every synthetic number of bench/carrier-numbers.ts with one of the carrier's test fixtures
 * (test/carriers/fixtures/<id>/) rewritten for that number, and counts and enforces, per credential, the limits
 * in ENFORCED: numbers per call, calls in flight, calls in sliding windows, and the day's quota. A call over a
 * limit is refused the way the carrier refuses it (429, or 400 for too many numbers) and counted as a violation.
 * `GET /__stats` on the control port returns every count.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CredentialStats,
  ENFORCED,
  type EnforcedLimits,
  isPolledCarrier,
  type LocalCarrierStats,
  type LocalCarriersConfig,
  type PolledCarrier,
  type Story,
  serialOf,
  storyOf,
} from './local-carriers.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'carriers', 'fixtures');

interface Incoming {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/** A fixture's text with the fixture's own number cut out, so that an answer for any number is one join. */
class Template {
  private readonly parts: string[];
  constructor(text: string, number: string) {
    this.parts = text.split(number);
    if (this.parts.length < 2) throw new Error(`the fixture text does not hold ${number}`);
  }
  for(number: string): string {
    return this.parts.join(number);
  }
}

function readFixture(carrier: string, file: string): any {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, carrier, file), 'utf8'));
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

function storyTemplates(make: (story: Story) => Template): Record<Story, Template> {
  return { in_transit: make('in_transit'), out_for_delivery: make('out_for_delivery'), failed_attempt: make('failed_attempt') };
}

function lastSegment(pathname: string): string {
  return decodeURIComponent(pathname.slice(pathname.lastIndexOf('/') + 1));
}

function bearer(request: Incoming): string | null {
  return /^Bearer (.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1] ?? null;
}

function basicUser(request: Incoming): string | null {
  const encoded = /^Basic (.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  return decoded.slice(0, Math.max(0, decoded.indexOf(':'))) || null;
}

/** What differs between carriers: paths, how a credential and the numbers are read, and the answers. */
interface CarrierDefinition {
  token?: {
    path: string;
    /** The client id a token request names. */
    clientOf(request: Incoming): string | null;
    answer(accessToken: string): Reply;
  };
  isTrack(request: Incoming): boolean;
  /** The API key of a key-based carrier (tokens are looked up for the others). */
  apiKey?(request: Incoming): string | null;
  numbersOf(request: Incoming): string[];
  answer(numbers: string[], storyOfNumber: (number: string) => Story): Reply;
  rateLimited(retryAfterSeconds: number): Reply;
  quotaSpent(nowMs: number): Reply;
  tooManyNumbers: Reply;
  unauthorized: Reply;
}

const RETRY = (seconds: number) => ({ 'retry-after': String(Math.max(1, Math.ceil(seconds))) });

function definitions(): Record<PolledCarrier, CarrierDefinition> {
  const ups = {
    regular: new Template(fs.readFileSync(path.join(FIXTURES, 'upsglb', 'in-transit.response.json'), 'utf8'), '1ZWB4Y810300001007'),
    attempts: new Template(fs.readFileSync(path.join(FIXTURES, 'upsglb', 'attempts.response.json'), 'utf8'), '1ZWB4Y810300003005'),
  };
  const upsStories = { in_transit: ups.regular, out_for_delivery: ups.attempts, failed_attempt: ups.attempts };

  const dhl = {
    regular: new Template(JSON.stringify(readFixture('dhlglb', 'transit.json')), '3742185064'),
    failure: new Template(JSON.stringify(readFixture('dhlglb', 'failure.json')), '5810932746'),
  };
  const dhlStories = { in_transit: dhl.regular, out_for_delivery: dhl.failure, failed_attempt: dhl.failure };
  const dhlTooMany = readFixture('dhlglb', 'too-many-requests.json');

  const fedexEntry = (file: string, number: string) => {
    const entry = (
      readFixture('fdxglb', file) as { output: { completeTrackResults: Array<{ trackingNumber: string }> } }
    ).output.completeTrackResults.find((e) => e.trackingNumber === number);
    return new Template(JSON.stringify(entry), number);
  };
  const fedexRegular = fedexEntry('in-transit.json', '799900000043');
  const fedexUrgent = fedexEntry('exceptions.json', '799900000135');
  const fedexStories = { in_transit: fedexRegular, out_for_delivery: fedexUrgent, failed_attempt: fedexUrgent };

  const postnlStories = storyTemplates((story) =>
    story === 'in_transit'
      ? new Template(JSON.stringify(readFixture('postnl', 'in-transit.json')), '3SDEVC410000002')
      : new Template(JSON.stringify(readFixture('postnl', 'out-for-delivery.json')), '3SDEVC410000003'),
  );

  // La Poste has no fixture out for delivery: every story answers the international journey in transit.
  const lapostEnvelope = new Template(JSON.stringify(readFixture('lapost', 'in-transit-international.json').body), 'CB900001014FR');

  const glsParcels = (file: string, number: string) =>
    new Template((readFixture('glsglb', file) as { parcels: unknown[] }).parcels.map((p) => JSON.stringify(p)).join(','), number);
  const glsStories = {
    in_transit: glsParcels('in-transit.json', '531000000039'),
    out_for_delivery: glsParcels('out-for-delivery.json', '531000000053'),
    failed_attempt: glsParcels('not-delivered.json', '531000000107'),
  };

  const uspsItem = (file: string, number: string) =>
    new Template(
      JSON.stringify((readFixture('uspsus', file) as Array<{ trackingNumber?: string }>).find((i) => i.trackingNumber === number)),
      number,
    );
  const uspsRegular = uspsItem('dst.json', '9400111899223851000069');
  const uspsUrgent = uspsItem('multi-status.json', '9400111899223851000076');
  const uspsStories = { in_transit: uspsRegular, out_for_delivery: uspsUrgent, failed_attempt: uspsUrgent };

  const tokenReply = (carrier: string, file: string) => {
    const fixture = readFixture(carrier, file);
    return (accessToken: string) => json(200, { ...fixture, access_token: accessToken });
  };
  const one = (stories: Record<Story, Template>) => (numbers: string[], story: (n: string) => Story) =>
    json(200, stories[story(numbers[0])].for(numbers[0]));
  const idsOf = (request: Incoming) => lastSegment(request.path).split(',');

  return {
    upsglb: {
      token: { path: '/security/v1/oauth/token', clientOf: basicUser, answer: tokenReply('upsglb', 'token.response.json') },
      isTrack: (r) => r.method === 'GET' && r.path.startsWith('/api/track/v1/details/'),
      numbersOf: idsOf,
      answer: one(upsStories),
      rateLimited: (s) => json(429, { response: { errors: [{ code: '429', message: 'Rate Limit Exceeded' }] } }, RETRY(s)),
      quotaSpent: () => json(429, { response: { errors: [{ code: '429', message: 'Quota Limit Exceeded' }] } }),
      tooManyNumbers: json(400, { response: { errors: [{ code: '151018', message: 'Invalid tracking number' }] } }),
      unauthorized: json(401, { response: { errors: [{ code: '250002', message: 'Invalid Authentication Information.' }] } }),
    },
    dhlglb: {
      isTrack: (r) => r.method === 'GET' && r.path === '/track/shipments',
      apiKey: (r) => (r.headers['dhl-api-key'] as string | undefined) ?? null,
      numbersOf: (r) => (r.query.get('trackingNumber') ?? '').split(','),
      answer: one(dhlStories),
      // DHL answers its per-second limit and its daily quota alike; the quota answer has no Retry-After.
      rateLimited: (s) => json(429, dhlTooMany, RETRY(s)),
      quotaSpent: () => json(429, dhlTooMany),
      tooManyNumbers: json(400, { title: 'Bad Request', status: 400, detail: 'trackingNumber is not valid' }),
      unauthorized: json(401, { title: 'Unauthorized', status: 401, detail: 'Invalid API key' }),
    },
    fdxglb: {
      token: {
        path: '/oauth/token',
        clientOf: (r) => new URLSearchParams(r.body).get('client_id'),
        answer: tokenReply('fdxglb', 'token.json'),
      },
      isTrack: (r) => r.method === 'POST' && r.path === '/track/v1/trackingnumbers',
      numbersOf: (r) =>
        (JSON.parse(r.body) as { trackingInfo: Array<{ trackingNumberInfo: { trackingNumber: string } }> }).trackingInfo.map(
          (i) => i.trackingNumberInfo.trackingNumber,
        ),
      answer: (numbers, story) =>
        json(
          200,
          `{"transactionId":"local-fedex","output":{"completeTrackResults":[${numbers.map((n) => fedexStories[story(n)].for(n)).join(',')}]}}`,
        ),
      rateLimited: (s) => json(429, readFixture('fdxglb', 'rate-limited.json'), RETRY(s)),
      quotaSpent: () => json(429, readFixture('fdxglb', 'quota-exceeded.json')),
      tooManyNumbers: json(400, readFixture('fdxglb', 'bad-request.json')),
      unauthorized: json(401, { errors: [{ code: 'NOT.AUTHORIZED.ERROR', message: 'Access token expired.' }] }),
    },
    postnl: {
      isTrack: (r) => r.method === 'GET' && r.path.startsWith('/shipment/v2/status/barcode/'),
      apiKey: (r) => (r.headers.apikey as string | undefined) ?? null,
      numbersOf: idsOf,
      answer: one(postnlStories),
      rateLimited: (s) => json(429, { fault: { faultstring: 'Too many requests' } }, RETRY(s)),
      quotaSpent: () => json(429, { fault: { faultstring: 'Too many requests' } }),
      tooManyNumbers: json(400, { Errors: [{ Code: '400', Description: 'Invalid barcode' }] }),
      unauthorized: json(401, { fault: { faultstring: 'Invalid ApiKey' } }),
    },
    lapost: {
      isTrack: (r) => r.method === 'GET' && r.path.startsWith('/suivi/v2/idships/'),
      apiKey: (r) => (r.headers['x-okapi-key'] as string | undefined) ?? null,
      numbersOf: idsOf,
      answer: (numbers) =>
        json(200, numbers.length === 1 ? lapostEnvelope.for(numbers[0]) : `[${numbers.map((n) => lapostEnvelope.for(n)).join(',')}]`),
      rateLimited: (s) => json(429, { code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded' }, RETRY(s)),
      quotaSpent: () => json(429, { code: 'TOO_MANY_REQUESTS', message: 'Quota exceeded' }),
      tooManyNumbers: json(400, { returnCode: 400, returnMessage: 'Too many numbers' }),
      unauthorized: json(401, readFixture('lapost', 'unauthorized.json').body),
    },
    glsglb: {
      token: { path: '/oauth2/v2/token', clientOf: basicUser, answer: tokenReply('glsglb', 'token.json') },
      isTrack: (r) => r.method === 'GET' && r.path.startsWith('/track-and-trace-v1/tracking/simple/trackids/'),
      numbersOf: idsOf,
      answer: (numbers, story) => json(200, `{"parcels":[${numbers.map((n) => glsStories[story(n)].for(n)).join(',')}]}`),
      rateLimited: (s) => json(429, readFixture('glsglb', 'spike-arrest.json'), RETRY(s)),
      quotaSpent: () => json(429, readFixture('glsglb', 'quota-exceeded.json')),
      tooManyNumbers: json(400, readFixture('glsglb', 'bad-request.json')),
      unauthorized: json(401, { fault: { faultstring: 'Invalid access token', detail: { errorcode: 'oauth.v2.InvalidAccessToken' } } }),
    },
    uspsus: {
      token: {
        path: '/oauth2/v3/token',
        clientOf: (r) => (JSON.parse(r.body || '{}') as { client_id?: string }).client_id ?? null,
        answer: tokenReply('uspsus', 'token.json'),
      },
      isTrack: (r) => r.method === 'POST' && r.path === '/tracking/v3r2/tracking',
      numbersOf: (r) => (JSON.parse(r.body) as Array<{ trackingNumber: string }>).map((e) => e.trackingNumber),
      answer: (numbers, story) => json(200, `[${numbers.map((n) => uspsStories[story(n)].for(n)).join(',')}]`),
      rateLimited: (s) => json(429, readFixture('uspsus', 'throttled.json'), RETRY(s)),
      // USPS's quota is hourly: it says when the hour ends.
      quotaSpent: (now) => json(429, readFixture('uspsus', 'quota.json'), RETRY((3_600_000 - (now % 3_600_000)) / 1000)),
      tooManyNumbers: json(400, { apiVersion: '/tracking/v3r2', error: { code: '400', message: 'Too many tracking numbers' } }),
      unauthorized: json(401, readFixture('uspsus', 'unauthorized.json')),
    },
  };
}

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

  constructor(
    readonly id: PolledCarrier,
    definition: CarrierDefinition,
    credentials: Array<{ id: string; spentToday: number }>,
    private readonly latencyMs: number,
    private readonly recordNumbers: boolean,
  ) {
    this.definition = definition;
    this.limits = ENFORCED[id];
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

    const credential = this.definition.apiKey ? this.definition.apiKey(request) : this.tokens.get(bearer(request) ?? '');
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
    stats.numbers += numbers.length;
    if (this.recordNumbers) for (const number of numbers) this.answeredNumbers.push([number, now, credential]);
    const reply = this.definition.answer(numbers, (number) => {
      const serial = serialOf(this.id, number);
      return serial === null ? 'in_transit' : storyOf(serial);
    });
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
  const defined = definitions();
  const carriers: LocalCarrier[] = [];
  for (const c of config.carriers) {
    if (!isPolledCarrier(c.id)) throw new Error(`no local carrier "${c.id}"`);
    const carrier = new LocalCarrier(c.id, defined[c.id], c.credentials, config.latencyMs, c.recordNumbers);
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

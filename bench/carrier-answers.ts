/**
 * What the local carriers of the carrier-polling scenario answer (bench/carrier-servers.ts serves it): each
 * carrier's paths, how a request names its credential and numbers, and its answers, made from the carrier's
 * test fixtures (test/carriers/fixtures/<id>/) rewritten for the number asked. The scenario reads the same
 * answers to seed what a shipment's previous poll stored.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PolledCarrier, Story } from './local-carriers.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'carriers', 'fixtures');

export interface Incoming {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Reply {
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

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
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

export function bearer(request: Incoming): string | null {
  return /^Bearer (.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1] ?? null;
}

function basicUser(request: Incoming): string | null {
  const encoded = /^Basic (.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  return decoded.slice(0, Math.max(0, decoded.indexOf(':'))) || null;
}

/** What differs between carriers: paths, how a credential and the numbers are read, and the answers. */
export interface CarrierDefinition {
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

export function definitions(): Record<PolledCarrier, CarrierDefinition> {
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

/** The body a carrier answers a call for this one number (whose story is `story`) with. */
export function answerBody(carrier: PolledCarrier, number: string, story: Story, defined = definitions()): string {
  return defined[carrier].answer([number], () => story).body;
}

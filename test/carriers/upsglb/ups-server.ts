import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UpsCarrier } from '../../../src/carriers/upsglb/upsglb.carrier.js';
import { CarrierServer, type ReceivedRequest, type ScriptedReply } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'upsglb');

/** A fixture's text, as the local server sends it. */
export function fixtureText(file: string): string {
  return fs.readFileSync(path.join(FIXTURES, file), 'utf8');
}

/** A fixture's parsed JSON. */
export function fixture(name: string): unknown {
  return JSON.parse(fixtureText(`${name}.response.json`));
}

/** Synthetic 1Z numbers (their check digits pass), one per fixture. */
export const NUMBERS = {
  delivered: '1ZWB4Y810300000008',
  inTransit: '1ZWB4Y810300001007',
  exceptions: '1ZWB4Y810300002006',
  attempts: '1ZWB4Y810300003005',
  returns: '1ZWB4Y810300004004',
  cancelled: '1ZWB4Y810300005003',
  dst: '1ZWB4Y810300006002',
  multiPieceLead: '1ZWB4Y810300007001',
  multiPiece: '1ZWB4Y810300008000',
  notFound: '1ZWB4Y810300009009',
  notFound404: '1ZWB4Y810300010006',
  malformed: '1ZWB4Y810300011005',
  emptyEvents: '1ZWB4Y810300012004',
  deliveredPhoto: '1ZWB4Y810300013003',
  badRequest: '1ZWB4Y810300014002',
  unexpected: '1ZWB4Y810300015001',
} as const;

/** What the local UPS answers for each number: the fixture, and its HTTP status. */
const REPLIES: Record<string, () => ScriptedReply> = {
  [NUMBERS.delivered]: () => ({ body: fixture('delivered') }),
  [NUMBERS.inTransit]: () => ({ body: fixture('in-transit') }),
  [NUMBERS.exceptions]: () => ({ body: fixture('exceptions') }),
  [NUMBERS.attempts]: () => ({ body: fixture('attempts') }),
  [NUMBERS.returns]: () => ({ body: fixture('returns') }),
  [NUMBERS.cancelled]: () => ({ body: fixture('cancelled') }),
  [NUMBERS.dst]: () => ({ body: fixture('dst') }),
  [NUMBERS.multiPiece]: () => ({ body: fixture('multi-piece') }),
  [NUMBERS.notFound]: () => ({ body: fixture('not-found') }),
  [NUMBERS.notFound404]: () => ({ status: 404, body: fixture('not-found-404') }),
  [NUMBERS.malformed]: () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: fixtureText('malformed.response.txt') }),
  [NUMBERS.emptyEvents]: () => ({ body: fixture('empty-events') }),
  [NUMBERS.deliveredPhoto]: () => ({ body: fixture('delivered-photo') }),
  [NUMBERS.badRequest]: () => ({ status: 400, body: fixture('bad-request') }),
  [NUMBERS.unexpected]: () => ({ body: JSON.parse(fixtureText('unexpected.response.json')) }),
};

/** Settings of a merchant's UPS configuration in these tests (CIE, UPS's test environment). */
export const SETTINGS = { client_id: 'wb-test-client-7c1d', client_secret: 'wb-test-secret-9f2c51', environment: 'sandbox' } as const;

export const TOKEN_PATH = '/security/v1/oauth/token';
export const TRACK_PATH = /^\/api\/track\/v1\/details\/[^/]+$/;

/** A local UPS: the token endpoint (Basic auth checked) and the tracking endpoint (Bearer checked) serving the fixtures. */
export class UpsServer extends CarrierServer {
  /** Tokens the server accepts; clearing it makes every call a 401 until a new token is issued. */
  readonly validTokens = new Set<string>();
  /** Delays every tracking answer (to observe how many calls are in flight at once). */
  trackDelayMs = 0;
  private issued = 0;

  numberOf(request: ReceivedRequest): string {
    return decodeURIComponent(request.path.split('/').pop() ?? '');
  }

  static async create(): Promise<UpsServer> {
    const server = new UpsServer();
    server.on('POST', TOKEN_PATH, (request) => {
      const expected = `Basic ${Buffer.from(`${SETTINGS.client_id}:${SETTINGS.client_secret}`).toString('base64')}`;
      if (request.headers.authorization !== expected || !/grant_type=client_credentials/.test(request.body)) {
        return { status: 401, body: { response: { errors: [{ code: '10401', message: 'ClientId is Invalid' }] } } };
      }
      const token = `wb-access-token-${++server.issued}`;
      server.validTokens.add(token);
      return { body: { ...(fixture('token') as object), access_token: token } };
    });
    server.on('GET', TRACK_PATH, (request) => {
      const token = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
      if (!token || !server.validTokens.has(token)) {
        return { status: 401, body: { response: { errors: [{ code: '250002', message: 'Invalid Authentication Information.' }] } } };
      }
      const reply = REPLIES[server.numberOf(request)];
      return { ...(reply ? reply() : { body: fixture('not-found') }), delayMs: server.trackDelayMs };
    });
    return server.start();
  }
}

/** The adapter, pointed at the local server as `WAYBILL_CARRIER_UPSGLB_BASE_URL` does. */
export function upsAdapter(server: CarrierServer, now?: () => number): UpsCarrier {
  return new UpsCarrier(localToolkit('upsglb', server.url, {}, now));
}

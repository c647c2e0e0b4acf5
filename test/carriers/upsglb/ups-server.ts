import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { upsCheckDigit } from '../../../src/carriers/detect/ups.js';
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
/** Track Alert v2: subscribe up to 100 numbers for 14 days. */
export const SUBSCRIBE_PATH = '/api/track/v2/subscription/standard/package';

/** More synthetic 1Z numbers whose check digit passes (`1ZWB4Y8203` + seven digits + the check digit). */
export function syntheticNumber(index: number): string {
  const body = `1ZWB4Y8203${String(index).padStart(7, '0')}`;
  return `${body}${upsCheckDigit(`${body}0`)}`;
}

/** The numbers of one subscription call, as the local UPS received them. */
export function subscribedIn(request: ReceivedRequest): string[] {
  return (JSON.parse(request.body) as { trackingNumberList: string[] }).trackingNumberList;
}

/** A local UPS: the token endpoint (Basic auth checked) and the tracking endpoint (Bearer checked) serving the fixtures. */
export class UpsServer extends CarrierServer {
  /** Tokens the server accepts; clearing it makes every call a 401 until a new token is issued. */
  readonly validTokens = new Set<string>();
  /** Delays every tracking answer (to observe how many calls are in flight at once). */
  trackDelayMs = 0;
  /** Numbers Track Alert lists as invalid (UPS would not subscribe them). */
  readonly refusedNumbers = new Set<string>();
  /** What the subscription endpoint found wrong in a request (headers, body, more than 100 numbers). */
  readonly subscriptionFaults: string[] = [];
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
    server.on('POST', SUBSCRIBE_PATH, (request) => {
      const token = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
      if (!token || !server.validTokens.has(token)) {
        return { status: 401, body: { response: { errors: [{ code: '250002', message: 'Invalid Authentication Information.' }] } } };
      }
      const fault = (code: string, message: string): ScriptedReply => {
        server.subscriptionFaults.push(`${code}: ${message}`);
        return { status: 400, body: { response: { errors: [{ code, message }] } } };
      };
      if (!/^[A-Za-z0-9]{1,32}$/.test(String(request.headers.transid ?? ''))) return fault('VSS003', 'Please enter a valid Transaction ID');
      if (!request.headers.transactionsrc) return fault('VSS004', 'Missing transactionSrc');
      if (!String(request.headers['content-type']).startsWith('application/json')) return fault('10007', 'Content Type not supported');
      let body: { locale?: unknown; countryCode?: unknown; trackingNumberList?: unknown };
      try {
        body = JSON.parse(request.body);
      } catch {
        return fault('VSS110', 'Subscription request is empty or not present.');
      }
      if (body.locale !== 'en_US') return fault('VSS300', 'Locale is required.');
      if (body.countryCode !== undefined && !/^[A-Z]{2}$/.test(String(body.countryCode)))
        return fault('VSS400', 'Please enter a valid country code.');
      const list = body.trackingNumberList;
      if (!Array.isArray(list) || list.length === 0) return fault('VSS200', 'Tracking Number List is required.');
      if (list.length > 100) return fault('VSS220', 'You have submitted over 100 tracking numbers which is not allowed.');
      const invalid = list.filter((n) => typeof n !== 'string' || !/^1Z[0-9A-Z]{16}$/.test(n) || server.refusedNumbers.has(n));
      const valid = list.filter((n) => !invalid.includes(n));
      if (valid.length === 0) {
        return {
          status: 400,
          body: {
            invalidTrackingNumbers: invalid,
            response: { errors: [{ code: 'VSS210', message: 'The Subscription request should have at least one valid tracking number.' }] },
          },
        };
      }
      return { body: { validTrackingNumbers: valid, ...(invalid.length > 0 ? { invalidTrackingNumbers: invalid } : {}) } };
    });
    return server.start();
  }
}

/** The adapter, pointed at the local server as `WAYBILL_CARRIER_UPSGLB_BASE_URL` does. */
export function upsAdapter(server: CarrierServer, now?: () => number): UpsCarrier {
  return new UpsCarrier(localToolkit('upsglb', server.url, {}, now));
}

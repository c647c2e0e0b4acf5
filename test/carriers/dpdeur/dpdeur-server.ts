import { DpdCarrier } from '../../../src/carriers/dpdeur/dpdeur.carrier.js';
import { requestElement } from '../../../src/carriers/dpdeur/dpdeur.soap.js';
import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { CarrierServer, type ReceivedRequest } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { dpdFixtureText } from './fixtures.js';

export const DELIS_ID = 'TESTUSER01';
export const PASSWORD = 'dpd-test-pass-5c81e2';
/** DPD Germany's stage: the default company, its paths without prefix. */
export const SETTINGS = { delis_id: DELIS_ID, password: PASSWORD, environment: 'sandbox' };

export const LOGIN_PATH = /\/LoginService\/V2_[01]\/?$/;
export const TRACKING_PATH = /\/ParcelLifeCycleService\/V2_0\/?$/;

/** Which fixture answers for which synthetic parcel number (test/carriers/fixtures/dpdeur/README.md). */
export const PARCELS: Record<string, string> = {
  '09980000000011': 'de-delivered',
  '09980000000012': 'de-in-transit',
  '09980000000013': 'de-out-for-delivery',
  '09980000000014': 'de-announced',
  '05210000000021': 'nl-delivered',
  '05210000000022': 'nl-parcel-shop',
  '05320000000031': 'be-exceptions',
  '09980000000016': 'unmapped',
};

/** A parcel number DPD refuses with a client fault. */
export const REFUSED = '09980000000098';
/** A parcel number DPD does not know. */
export const UNKNOWN = '09980000000099';

/** The text of one element of a request body (the SOAP requests are the adapter's own text). */
export function elementOf(request: ReceivedRequest, name: string): string | null {
  return requestElement(request.body, name);
}

export interface DpdServer extends CarrierServer {
  /** Tokens issued and still accepted. */
  tokens: Set<string>;
  /** How many tokens were issued. */
  issued: number;
}

/**
 * A local stand-in for the DPD Web Services: LoginService issues a token for the right delisId and password (a
 * SOAP fault otherwise), ParcelLifeCycleService answers the fixtures for tokens it issued (an authentication fault
 * for others, as SOAP faults with HTTP 500), a client fault for `REFUSED` and an empty result for other numbers.
 */
export async function dpdServer(options: { delayMs?: number; expiresInMs?: number } = {}): Promise<DpdServer> {
  const server = Object.assign(await new CarrierServer().start(), { tokens: new Set<string>(), issued: 0 }) as DpdServer;
  server.on('POST', LOGIN_PATH, (request) => {
    if (elementOf(request, 'delisId') !== DELIS_ID || elementOf(request, 'password') !== PASSWORD) {
      return { status: 500, headers: { 'content-type': 'text/xml' }, body: dpdFixtureText('fault-login') };
    }
    server.issued++;
    const token = `dpd-session-${server.issued}-7e4a90c2`;
    server.tokens.add(token);
    const expires = new Date(Date.now() + (options.expiresInMs ?? 86_400_000)).toISOString();
    const body = dpdFixtureText('login').replace('TOKEN_PLACEHOLDER', token).replace('EXPIRES_PLACEHOLDER', expires);
    return { status: 200, headers: { 'content-type': 'text/xml' }, body };
  });
  server.on('POST', TRACKING_PATH, (request) => {
    const token = elementOf(request, 'authToken');
    if (elementOf(request, 'delisId') !== DELIS_ID || !token || !server.tokens.has(token)) {
      return { status: 500, headers: { 'content-type': 'text/xml' }, body: dpdFixtureText('fault-token') };
    }
    const number = elementOf(request, 'parcelLabelNumber') ?? '';
    if (number === REFUSED) return { status: 500, headers: { 'content-type': 'text/xml' }, body: dpdFixtureText('fault-client') };
    const fixture = PARCELS[number] ?? 'not-found';
    return { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' }, body: dpdFixtureText(fixture), delayMs: options.delayMs };
  });
  return server;
}

export function dpdAdapter(
  server: CarrierServer,
  now?: () => number,
  env: Record<string, string> = {},
): { adapter: DpdCarrier; kit: CarrierToolkit } {
  const kit = localToolkit('dpdeur', server.url, env, now);
  return { adapter: new DpdCarrier(kit), kit };
}

import { InpostCarrier } from '../../../src/carriers/inpost/inpost.carrier.js';
import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { CarrierServer } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { inpostFixture } from './fixtures.js';

/** A ShipX token a configuration may hold (tracking needs none). */
export const API_TOKEN = 'shipx-test-token-5d81c07a';
export const SETTINGS = { environment: 'sandbox' };
export const TOKEN_SETTINGS = { api_token: API_TOKEN, environment: 'sandbox' };

/** Which fixture answers for which synthetic number (test/carriers/fixtures/inpost/README.md). */
export const NUMBERS: Record<string, string> = {
  '620000000000000000000001': 'locker-journey',
  '620000000000000000000002': 'courier-delivered',
  '620000000000000000000003': 'waiting-in-locker',
  '620000000000000000000004': 'expired-return',
  '620000000000000000000005': 'exceptions',
  '620000000000000000000006': 'point-storage',
  '620000000000000000000007': 'parcel-point',
  '620000000000000000000008': 'redirected',
  '620000000000000000000009': 'cancelled',
  '620000000000000000000010': 'unmapped',
  '620000000000000000000011': 'local-times',
  '620000000000000000000012': 'history-missing',
};

export const UNKNOWN = '620000000000000000009999';

export const TRACKING_PATH = /^\/v1\/tracking\/[^/]+$/;

/**
 * A local stand-in for ShipX's Tracking resource: the documented path, no token needed (a token that is sent
 * must be the fixture's, else 401 as ShipX answers a bad token), the fixtures by number, and ShipX's
 * `resource_not_found` with 404 for numbers it does not know.
 */
export async function inpostServer(options: { delayMs?: number } = {}): Promise<CarrierServer> {
  const server = await new CarrierServer().start();
  server.on('GET', TRACKING_PATH, (request) => {
    const authorization = request.headers.authorization;
    if (authorization !== undefined && authorization !== `Bearer ${API_TOKEN}`) {
      return { status: 401, body: { status: 401, error: 'token_invalid', message: 'Token is invalid', details: {} } };
    }
    const number = decodeURIComponent(request.path.split('/').pop() ?? '');
    const fixture = NUMBERS[number];
    if (!fixture) return { status: 404, body: inpostFixture('not-found'), delayMs: options.delayMs };
    return { status: 200, body: inpostFixture(fixture), delayMs: options.delayMs };
  });
  return server;
}

export function inpostAdapter(server: CarrierServer, now?: () => number): { adapter: InpostCarrier; kit: CarrierToolkit } {
  const kit = localToolkit('inpost', server.url, {}, now);
  return { adapter: new InpostCarrier(kit), kit };
}

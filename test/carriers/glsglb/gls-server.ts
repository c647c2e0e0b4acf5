import fs from 'node:fs';
import path from 'node:path';
import { GlsCarrier } from '../../../src/carriers/glsglb/glsglb.carrier.js';
import { CarrierServer } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';

export const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'glsglb');

export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as T;
}

/** Fixtures holding parcels (each entry is served for its `requested` id). */
export const PARCEL_FIXTURES = [
  'info-received.json',
  'in-transit.json',
  'in-warehouse.json',
  'out-for-delivery.json',
  'delivered.json',
  'delivered-parcel-shop.json',
  'parcel-shop-after-attempt.json',
  'not-delivered.json',
  'not-picked-up.json',
  'cancelled.json',
  'no-offset.json',
  'dst.json',
  'multi-piece.json',
  'not-found.json',
  'partial.json',
  'empty-events.json',
];

export const TRACK_PATH = /^\/track-and-trace-v1\/tracking\/simple\/trackids\/[^/]+$/;
export const TOKEN_PATH = '/oauth2/v2/token';

export const SETTINGS = { client_id: 'gls-fixture-client-id', client_secret: 'gls-fixture-client-secret-5b1e' };

/** Every fixture entry by its requested id (several entries for multi-piece ids). */
export function knownParcels(): Map<string, unknown[]> {
  const known = new Map<string, unknown[]>();
  for (const name of PARCEL_FIXTURES) {
    for (const entry of fixture<{ parcels: Array<{ requested: string }> }>(name).parcels) {
      known.set(entry.requested, [...(known.get(entry.requested) ?? []), entry]);
    }
  }
  return known;
}

/**
 * A local stand-in for GLS: `POST /oauth2/v2/token` issues `tok-1`, `tok-2`, … (each replacing the last), and
 * `GET /track-and-trace-v1/tracking/simple/trackids/{ids}` answers the fixtures' parcels for a valid token
 * (`E_404_01` for unknown ids, 401 for any other token), or always `body` when given.
 */
export async function glsServer(options: { delayMs?: number; body?: unknown } = {}) {
  const server = await new CarrierServer().start();
  const known = knownParcels();
  let issued = 0;
  let current = '';
  server.on('POST', TOKEN_PATH, () => {
    issued++;
    current = `tok-${issued}`;
    return { body: { token_type: 'Bearer', access_token: current, expires_in: 14400 } };
  });
  server.on('GET', TRACK_PATH, (request) => {
    if (request.headers.authorization !== `Bearer ${current}`) {
      return {
        status: 401,
        body: { fault: { faultstring: 'Invalid access token', detail: { errorcode: 'oauth.v2.InvalidAccessToken' } } },
      };
    }
    if (options.body !== undefined) return { body: options.body };
    const ids = decodeURIComponent(request.path.split('/').pop() ?? '').split(',');
    const parcels = ids.flatMap((id) => known.get(id) ?? [{ requested: id, errorCode: 'E_404_01', errorMessage: 'Resource Not Found' }]);
    return { body: { parcels }, delayMs: options.delayMs };
  });
  return server;
}

/** The ids of one recorded tracking request. */
export function idsOf(url: string): string[] {
  return decodeURIComponent(new URL(url, 'http://local').pathname.split('/').pop() ?? '').split(',');
}

export function glsAdapter(server: CarrierServer, env: Record<string, string> = {}) {
  const kit = localToolkit('glsglb', server.url, env);
  return { kit, adapter: new GlsCarrier(kit) };
}

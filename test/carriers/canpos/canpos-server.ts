import { CanadaPostCarrier } from '../../../src/carriers/canpos/canpos.carrier.js';
import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { CarrierServer } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { canposXml } from './fixtures.js';

export const USERNAME = 'cpc-test-user-5e21';
export const PASSWORD = 'cpc-test-pass-9b7d40';
export const SETTINGS = { username: USERNAME, password: PASSWORD, environment: 'sandbox' };
export const BASIC = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;
export const MEDIA_TYPE = 'application/vnd.cpc.track-v2+xml';

/** Which fixture answers for which synthetic PIN (test/carriers/fixtures/canpos/README.md). */
export const PINS: Record<string, string> = {
  '7023000000000017': 'delivered',
  '7023000000000024': 'in-transit',
  '7023000000000031': 'out-for-delivery',
  '7023000000000048': 'pickup-post-office',
  '7023000000000055': 'returned',
  '7023000000000062': 'international',
  '7023000000000079': 'exceptions',
  '7023000000000086': 'unmapped',
  '7023000000000093': 'empty-events',
  '7023000000000109': 'dst',
  '7023000000000116': 'locker',
};

/** A PIN the local Canada Post has no history for (16 digits, valid check digit). */
export const UNKNOWN_PIN = '7023000000009997';

export const DETAIL_PATH = /^\/vis\/track\/pin\/[^/]+\/detail$/;
export const CERTIFICATE_PATH = /^\/vis\/certificate\/[^/]+$/;

const xml = (status: number, body: string, delayMs?: number) => ({
  status,
  headers: { 'content-type': MEDIA_TYPE },
  body,
  delayMs,
});

/**
 * A local stand-in for Canada Post's Tracking REST services: the documented paths, HTTP Basic checked (401 with
 * a messages body otherwise), the v2 media type required in Accept (Canada Post refuses `*∕*`), the fixtures by
 * PIN, and "No PIN History" for PINs it does not know.
 */
export async function canposServer(options: { delayMs?: number } = {}): Promise<CarrierServer> {
  const server = await new CarrierServer().start();
  const refused = (authorization: string | undefined, accept: string | undefined) => {
    if (authorization !== BASIC) return xml(401, canposXml('unauthorized'));
    if (accept !== MEDIA_TYPE) return xml(406, canposXml('unauthorized'));
    return null;
  };
  server.on('GET', DETAIL_PATH, (request) => {
    const refusal = refused(request.headers.authorization, request.headers.accept);
    if (refusal) return refusal;
    const pin = decodeURIComponent(request.path.split('/')[4] ?? '');
    const fixture = PINS[pin];
    return fixture ? xml(200, canposXml(fixture), options.delayMs) : xml(404, canposXml('not-found'), options.delayMs);
  });
  server.on('GET', CERTIFICATE_PATH, (request) => {
    const refusal = refused(request.headers.authorization, request.headers.accept);
    if (refusal) return refusal;
    return xml(200, canposXml('certificate'));
  });
  return server;
}

export function canposAdapter(server: CarrierServer, now?: () => number): { adapter: CanadaPostCarrier; kit: CarrierToolkit } {
  const kit = localToolkit('canpos', server.url, {}, now);
  return { adapter: new CanadaPostCarrier(kit), kit };
}

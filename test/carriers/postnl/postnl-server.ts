import { PostnlCarrier } from '../../../src/carriers/postnl/postnl.carrier.js';
import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { CarrierServer } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { postnlFixture } from './fixtures.js';

export const API_KEY = 'pnl-test-key-7f3a9c21';
export const SETTINGS = { api_key: API_KEY, environment: 'sandbox' };

/** Which fixture answers for which synthetic barcode (test/carriers/fixtures/postnl/README.md). */
export const BARCODES: Record<string, string> = {
  '3SDEVC410000001': 'collection',
  '3SDEVC410000002': 'in-transit',
  '3SDEVC410000003': 'out-for-delivery',
  '3SDEVC410000004': 'pickup-point',
  '3SDEVC410000005': 'delivered',
  '3SDEVC410000006': 'returned',
  '3SDEVC410000007': 'customs',
  '3SDEVC410000008': 'exceptions',
  '3SDEVC410000009': 'cancelled',
  '3SDEVC410000010': 'current-status',
  '3SDEVC410000011': 'unmapped',
  '3SDEVC410000012': 'dst',
  '3SDEVC410000013': 'multi-piece',
  '3SDEVC410000014': 'multi-piece',
  '3SDEVC410000015': 'empty-events',
};

/** A local PostNL that also answers for the barcodes it booked (postnl-shipping-server.ts). */
export type PostnlLocal = CarrierServer & { bookedStatus?: (barcode: string) => unknown };

export const STATUS_PATH = /^\/shipment\/v2\/status\/barcode\/[^/]+$/;
export const SIGNATURE_PATH = /^\/shipment\/v2\/status\/signature\/[^/]+$/;

/**
 * A local stand-in for PostNL's Shippingstatus API: the documented paths, the `apikey` header checked (401
 * otherwise, as PostNL documents), the fixtures by barcode, and warnings for barcodes it does not know.
 */
export async function postnlServer(options: { delayMs?: number } = {}): Promise<PostnlLocal> {
  const server: PostnlLocal = await new CarrierServer().start();
  server.on('GET', STATUS_PATH, (request) => {
    if (request.headers.apikey !== API_KEY) return { status: 401, body: { fault: { faultstring: 'Invalid ApiKey' } } };
    const barcode = decodeURIComponent(request.path.split('/').pop() ?? '');
    const booked = server.bookedStatus?.(barcode);
    if (booked) return { status: 200, body: booked, delayMs: options.delayMs };
    const fixture = BARCODES[barcode] ?? 'not-found';
    return { status: 200, body: postnlFixture(fixture), delayMs: options.delayMs };
  });
  server.on('GET', SIGNATURE_PATH, (request) => {
    if (request.headers.apikey !== API_KEY) return { status: 401, body: { fault: { faultstring: 'Invalid ApiKey' } } };
    return { status: 200, body: postnlFixture('signature') };
  });
  return server;
}

export function postnlAdapter(server: CarrierServer, now?: () => number): { adapter: PostnlCarrier; kit: CarrierToolkit } {
  const kit = localToolkit('postnl', server.url, {}, now);
  return { adapter: new PostnlCarrier(kit), kit };
}

import { PostnordCarrier } from '../../../src/carriers/postnd/postnd.carrier.js';
import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { CarrierServer, type ScriptedReply } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { postndFixture } from './fixtures.js';

export const API_KEY = 'pnd-test-key-5b8e41c7a2';
export const SETTINGS = { api_key: API_KEY, environment: 'sandbox' };
export const TRACKING_PATH = '/rest/shipment/v5/trackandtrace/findByIdentifier.json';

/** Which fixture answers for which synthetic identifier (test/carriers/fixtures/postnd/README.md). */
export const IDENTIFIERS: Record<string, string> = {
  '90000000101SE': 'informed',
  RR900000019SE: 'in-transit',
  UA900000022SE: 'service-point',
  '00373900000000000037': 'parcel-locker',
  '90000000505SE': 'delivered',
  '90000000606SE': 'exceptions',
  LX900000075DK: 'returned',
  '90000000808SE': 'multi-item',
  '00373900000000000082': 'multi-item',
  '00373900000000000099': 'multi-item',
  '90000000909SE': 'dst',
  '90000001010SE': 'empty-events',
};

/** An identifier no fixture answers for: PostNord's empty list. */
export const UNKNOWN = '90000009999SE';

/**
 * A local stand-in for PostNord's Track and Trace v5: the documented path, the `apikey` query parameter
 * checked (403, as PostNord's API gateway refuses keys), the fixtures by identifier, and an empty shipment list
 * for identifiers it does not know.
 */
export async function postndServer(
  options: { delayMs?: number; answer?: (id: string) => ScriptedReply | undefined } = {},
): Promise<CarrierServer> {
  const server = await new CarrierServer().start();
  server.on('GET', TRACKING_PATH, (request) => {
    if (request.query.get('apikey') !== API_KEY) return { status: 403, body: 'Authentication failed' };
    const id = request.query.get('id') ?? '';
    const scripted = options.answer?.(id);
    if (scripted) return scripted;
    const fixture = IDENTIFIERS[id] ?? 'not-found';
    return { status: 200, body: postndFixture(fixture), delayMs: options.delayMs };
  });
  return server;
}

export function postndAdapter(
  server: CarrierServer,
  now?: () => number,
  env: Record<string, string> = {},
): { adapter: PostnordCarrier; kit: CarrierToolkit } {
  const kit = localToolkit('postnd', server.url, env, now);
  return { adapter: new PostnordCarrier(kit), kit };
}

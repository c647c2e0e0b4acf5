import { mapTrackingBody } from '../../../src/carriers/postnd/postnd.mapper.js';
import { type ContractFixture, carrierContract } from '../contract.js';
import type { ScriptedReply } from '../support/carrier-server.js';
import { postndFixture } from './fixtures.js';
import { API_KEY, IDENTIFIERS, postndAdapter, postndServer, SETTINGS, UNKNOWN } from './postnd-server.js';

/** A contract fixture: a local PostNord answering from the fixtures (or `answer` first), asked for `numbers`. */
function fixture(numbers: string[], answer?: (id: string) => ScriptedReply | undefined): ContractFixture {
  return {
    numbers,
    secrets: [API_KEY],
    async start() {
      const server = await postndServer({ answer });
      const { adapter } = postndAdapter(server);
      return { adapter, settings: SETTINGS, close: () => server.close() };
    },
  };
}

const fixtures: Record<string, ContractFixture> = {};
for (const [identifier, name] of Object.entries(IDENTIFIERS)) fixtures[`${name} (${identifier})`] = fixture([identifier]);
fixtures[`not found (${UNKNOWN})`] = fixture([UNKNOWN]);
fixtures['every fixture at once, with an unknown identifier and one that cannot be one'] = fixture([
  ...Object.keys(IDENTIFIERS),
  UNKNOWN,
  'RR9',
]);
fixtures['malformed body'] = fixture(['90000000101SE'], () => ({ status: 200, body: postndFixture('malformed') }));
fixtures['invalid identifier (400)'] = fixture(['90000000101SE'], () => ({ status: 400, body: postndFixture('invalid-id') }));
fixtures['refused key (403)'] = fixture(['90000000101SE'], () => ({ status: 403, body: 'Authentication failed' }));

carrierContract({
  carrierId: 'postnd',
  fixtures,
  mapAnyJson: (body) => [
    mapTrackingBody('90000000101SE', body),
    mapTrackingBody('90000000808SE', { TrackingInformationResponse: { shipments: [body] } }),
    mapTrackingBody('90000000808SE', {
      TrackingInformationResponse: { shipments: [{ shipmentId: '90000000808SE', items: [body, body] }] },
    }),
    mapTrackingBody('90000000808SE', {
      TrackingInformationResponse: { shipments: [{ items: [{ itemId: '90000000808SE', events: [body] }] }] },
    }),
  ],
});

import type { TrackResult } from '../../../src/carriers/carrier.js';
import { mapTrackingAnswer } from '../../../src/carriers/dpdeur/dpdeur.mapper.js';
import { type ContractFixture, carrierContract, fixtureNames } from '../contract.js';
import { dpdAdapter, dpdServer, PARCELS, PASSWORD, REFUSED, SETTINGS, UNKNOWN } from './dpdeur-server.js';
import { dpdFixture } from './fixtures.js';

/** Every fixture asked on its own, plus polls of several numbers with one DPD refuses and one it does not know. */
function fixture(numbers: string[], settings: Record<string, unknown> = SETTINGS): ContractFixture {
  return {
    numbers,
    secrets: [PASSWORD],
    async start() {
      const server = await dpdServer();
      const { adapter } = dpdAdapter(server);
      return { adapter, settings, close: () => server.close() };
    },
  };
}

const fixtures: Record<string, ContractFixture> = {};
for (const [number, name] of Object.entries(PARCELS)) {
  const instance = name.startsWith('nl-') ? 'nl' : name.startsWith('be-') ? 'be' : 'de';
  fixtures[`${name} (${number})`] = fixture([number], { ...SETTINGS, instance });
}
fixtures[`not-found (${UNKNOWN})`] = fixture([UNKNOWN]);
fixtures[`fault-client (${REFUSED})`] = fixture([REFUSED]);
fixtures['several numbers at once'] = fixture(['09980000000011', '05210000000022', REFUSED, UNKNOWN]);

carrierContract({
  carrierId: 'dpdeur',
  fixtures,
  mapAnyJson: (body) => mapTrackingAnswer('09980000000011', body),
  root: {
    path: ['Envelope', 'Body', 'getTrackingDataResponse', 'trackingresult'],
    holds: 'object',
    samples: fixtureNames('dpdeur', 'xml').map(dpdFixture),
    pastRoot: (mapped) => (mapped as TrackResult).status !== 'error',
  },
});

import { mapDetailBody } from '../../../src/carriers/canpos/canpos.mapper.js';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { type ContractFixture, carrierContract, fixtureNames } from '../contract.js';
import { canposAdapter, canposServer, PASSWORD, PINS, SETTINGS, UNKNOWN_PIN, USERNAME } from './canpos-server.js';
import { canposFixture } from './fixtures.js';

/** Every fixture asked on its own, plus one that asks them all at once with a PIN Canada Post does not know. */
function fixture(numbers: string[]): ContractFixture {
  return {
    numbers,
    secrets: [USERNAME, PASSWORD],
    async start() {
      const server = await canposServer();
      const { adapter } = canposAdapter(server);
      return { adapter, settings: SETTINGS, close: () => server.close() };
    },
  };
}

const fixtures: Record<string, ContractFixture> = {};
for (const [pin, name] of Object.entries(PINS)) fixtures[`${name} (${pin})`] = fixture([pin]);
fixtures[`not-found (${UNKNOWN_PIN})`] = fixture([UNKNOWN_PIN]);
fixtures['every fixture at once'] = fixture([...Object.keys(PINS), UNKNOWN_PIN]);

carrierContract({
  carrierId: 'canpos',
  fixtures,
  mapAnyJson: (body) => mapDetailBody('7023000000000017', body),
  root: {
    path: ['tracking-detail'],
    holds: 'object',
    samples: fixtureNames('canpos', 'xml').map(canposFixture),
    pastRoot: (mapped) => (mapped as TrackResult).status === 'ok',
  },
});

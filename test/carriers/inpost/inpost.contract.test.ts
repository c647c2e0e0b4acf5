import type { TrackResult } from '../../../src/carriers/carrier.js';
import { mapTrackingBody } from '../../../src/carriers/inpost/inpost.mapper.js';
import { bookingContract, type ContractFixture, carrierContract, fixtureNames } from '../contract.js';
import { inpostFixture } from './fixtures.js';
import { bookRequest, lockerRequest } from './inpost-book-requests.js';
import { API_TOKEN, inpostAdapter, inpostServer, NUMBERS, TOKEN_SETTINGS, UNKNOWN } from './inpost-server.js';
import { BOOKING_SETTINGS, CREATE_PATH, ShipxRoutes } from './shipx-server.js';

/** Every fixture asked on its own (with a ShipX token configured), plus all at once with a number InPost does not know. */
function fixture(numbers: string[]): ContractFixture {
  return {
    numbers,
    secrets: [API_TOKEN],
    async start() {
      const server = await inpostServer();
      const { adapter } = inpostAdapter(server);
      return { adapter, settings: TOKEN_SETTINGS, close: () => server.close() };
    },
  };
}

const fixtures: Record<string, ContractFixture> = {};
for (const [number, name] of Object.entries(NUMBERS)) fixtures[`${name} (${number})`] = fixture([number]);
fixtures[`not-found (${UNKNOWN})`] = fixture([UNKNOWN]);
fixtures['every fixture at once'] = fixture([...Object.keys(NUMBERS), UNKNOWN]);

carrierContract({
  carrierId: 'inpost',
  fixtures,
  mapAnyJson: (body) => mapTrackingBody('620000000000000000000001', body),
  root: {
    path: ['tracking_details'],
    holds: 'list',
    samples: fixtureNames('inpost', 'json').map(inpostFixture),
    pastRoot: (mapped) => (mapped as TrackResult).status === 'ok',
  },
});

bookingContract({
  carrierId: 'inpost',
  fixture: {
    secrets: [API_TOKEN],
    async start() {
      const server = await inpostServer();
      const shipx = ShipxRoutes.install(server);
      return {
        adapter: inpostAdapter(server).adapter,
        settings: { ...BOOKING_SETTINGS },
        request: bookRequest(),
        // A locker ShipX does not know: our check leaves lockers to ShipX, which refuses `custom_attributes.target_point`.
        refused: lockerRequest({ carrier_metadata: { target_point: 'KRA999', parcel_template: 'small' } }),
        script: (reply) => server.once(CREATE_PATH, reply),
        bookingCalls: () => shipx.createCalls().length,
        close: () => server.close(),
      };
    },
  },
});

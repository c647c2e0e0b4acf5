import { mapSuiviBody } from '../../../src/carriers/lapost/lapost.mapper.js';
import { type ContractFixture, carrierContract } from '../contract.js';
import type { Route } from '../support/carrier-server.js';
import { fixtureRoute, lapostFixture, reply, startLaPoste, TEST_KEY, TRACKING_PATH } from './lapost.fixtures.js';

/** A contract fixture: a local La Poste answering `route`, asked for `numbers`. */
function fixture(numbers: string[], route: Route): ContractFixture {
  return {
    numbers,
    secrets: [TEST_KEY],
    async start() {
      const { server, adapter, close } = await startLaPoste();
      server.on('GET', TRACKING_PATH, route);
      return { adapter, settings: { api_key: TEST_KEY }, close };
    },
  };
}

const fromFixtures = (numbers: string[], ...names: string[]) => fixture(numbers, fixtureRoute(...names));
const asIs = (numbers: string[], name: string) => fixture(numbers, () => reply(lapostFixture(name)));

carrierContract({
  carrierId: 'lapost',
  fixtures: {
    delivered: fromFixtures(['6A90000000101'], 'delivered'),
    'in transit, international, a time without offset': fromFixtures(['CB900001014FR'], 'in-transit-international'),
    'pickup point': fromFixtures(['6C90000000303'], 'pickup-point'),
    exceptions: fromFixtures(['RR900004041FR'], 'exceptions'),
    returned: fromFixtures(['XY900003032FR'], 'returned'),
    'DST end': fromFixtures(['6A90000000505'], 'dst-autumn'),
    'times without offset': fromFixtures(['6A90000000606'], 'times-without-offset'),
    'partial batch (207)': asIs(['6A90000000707', 'LA900002023FR', '6A90000000808', 'EE900005055FR'], 'batch-partial'),
    'several fixtures in one batch': fromFixtures(
      ['XY900003032FR', '6A90000000101', 'CA900006060FR', '5S90000000404', 'LB900007079FR'],
      'returned',
      'delivered',
      'not-found',
      'empty-events',
      'invalid-number',
    ),
    'not found': asIs(['CA900006060FR'], 'not-found'),
    'invalid number': asIs(['LB900007079FR'], 'invalid-number'),
    'empty event list': asIs(['5S90000000404'], 'empty-events'),
    'malformed body': asIs(['6A90000000101'], 'malformed'),
    'not an envelope': asIs(['6A90000000101'], 'not-an-envelope'),
    unauthorized: asIs(['6A90000000101'], 'unauthorized'),
  },
  mapAnyJson: (body) => [mapSuiviBody(body, ['6A90000000101']), mapSuiviBody(body, ['6A90000000101', 'CB900001014FR'])],
});

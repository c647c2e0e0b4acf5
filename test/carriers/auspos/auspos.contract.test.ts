import { mapTrackBody, requestErrors } from '../../../src/carriers/auspos/auspos.mapper.js';
import { type ContractFixture, carrierContract, fixtureNames } from '../contract.js';
import type { Route } from '../support/carrier-server.js';
import { auspostFixture, fixtureRoute, reply, SETTINGS, startAusPost, TRACK_PATH } from './auspos.fixtures.js';

/**
 * A contract fixture: a local Australia Post answering `route`, asked for `numbers`. The adapter's rate is lifted
 * (the contract polls four times; the transport tests keep the ten calls a minute).
 */
function fixture(numbers: string[], route: Route): ContractFixture {
  return {
    numbers,
    secrets: [SETTINGS.api_key, SETTINGS.password],
    async start() {
      const { server, adapter, close } = await startAusPost({ unpaced: true });
      server.on('GET', TRACK_PATH, route);
      return { adapter, settings: { ...SETTINGS }, close };
    },
  };
}

const fromFixtures = (numbers: string[], ...names: string[]) => fixture(numbers, fixtureRoute(...names));
const asIs = (numbers: string[], name: string) => fixture(numbers, () => reply(auspostFixture(name)));
const STATUSES = Array.from({ length: 10 }, (_, i) => `WBX90000${String(6 + i).padStart(2, '0')}010020`);

carrierContract({
  carrierId: 'auspos',
  fixtures: {
    delivered: fromFixtures(['WBX9000001010020'], 'delivered'),
    'Parcel Locker': fromFixtures(['WBX9000002010020'], 'parcel-locker'),
    'Post Office, then collected': fromFixtures(['WBX9000003010020'], 'collected'),
    'every status in one call of ten': fromFixtures(STATUSES, 'statuses'),
    'international, places abroad': fromFixtures(['RR900001014AU'], 'in-transit-international'),
    'times without offset': fromFixtures(['WBX9000004010020'], 'times-without-offset'),
    'DST end': fromFixtures(['WBX9000018010020'], 'dst-autumn'),
    consignment: fromFixtures(['WBX9000005'], 'consignment'),
    'StarTrack consignment': fromFixtures(['ZQW900000001'], 'startrack-consignment'),
    'partial batch': fromFixtures(['WBX9000017010020', 'CX900002023AU', 'LX900003032AU', 'EE900004041AU'], 'batch-partial'),
    'more than one call': fromFixtures(
      [...STATUSES, 'WBX9000001010020', 'WBX9000016010020', 'WBX9000099010020'],
      'statuses',
      'delivered',
      'empty-events',
    ),
    'not found': asIs(['WBX9000099010020'], 'not-found'),
    'no events yet': asIs(['WBX9000016010020'], 'empty-events'),
    'ids not found (51104)': asIs(['WBX9000099010020', 'WBX9000098010020'], 'ids-not-found'),
    'too many ids (51101)': asIs(['WBX9000001010020'], 'too-many-ids'),
    throttled: asIs(['WBX9000001010020'], 'throttled'),
    unauthorized: asIs(['WBX9000001010020'], 'unauthorized'),
    'malformed body': asIs(['WBX9000001010020'], 'malformed'),
  },
  mapAnyJson: (body) => [
    mapTrackBody(body, ['WBX9000001010020']),
    mapTrackBody(body, ['WBX9000001010020', 'WBX9000005']),
    requestErrors(body),
  ],
  root: {
    path: ['tracking_results'],
    holds: 'list',
    samples: fixtureNames('auspos', 'json').map((name) => auspostFixture(name).body),
    pastRoot: (mapped) => Array.isArray((mapped as unknown[])[0]),
  },
});

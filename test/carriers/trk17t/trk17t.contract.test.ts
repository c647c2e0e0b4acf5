import { mapEntry, mapTrackInfo, parseTrk17tPush } from '../../../src/carriers/trk17t/trk17t.mapper.js';
import type { Trk17tAccepted } from '../../../src/carriers/trk17t/trk17t.payload.js';
import { type ContractFixture, carrierContract } from '../contract.js';
import type { ScriptedReply } from '../support/carrier-server.js';
import { API_KEY, fixture, NUMBERS, SETTINGS, trk17tAdapter, trk17tServer } from './trk17t-server.js';

/** A contract fixture: a local 17TRACK where `registered` are registered, asked for `numbers`; `reply` replaces its results. */
function local(numbers: string[], registered: readonly string[] = numbers, reply?: ScriptedReply): ContractFixture {
  return {
    numbers,
    secrets: [API_KEY],
    async start() {
      const server = await trk17tServer({ registered, trackReply: reply });
      const { adapter, kit } = trk17tAdapter(server);
      return {
        adapter,
        settings: SETTINGS,
        async close() {
          await kit.http.close();
          await server.close();
        },
      };
    },
  };
}

carrierContract({
  carrierId: 'trk17t',
  fixtures: {
    'Royal Mail, delivered': local([NUMBERS.delivered]),
    'InPost, collected from a locker': local([NUMBERS.inpost]),
    'China Post to USPS, customs, a delivery window': local([NUMBERS.international]),
    'failed attempts and a return': local([NUMBERS.exceptions]),
    'codes the table lacks, unreadable times': local([NUMBERS.unmapped]),
    'registered, no information yet': local([NUMBERS.pending]),
    'several in one call, one registered by the poll': local(
      [NUMBERS.inpost, NUMBERS.fresh, NUMBERS.delivered, NUMBERS.pending, NUMBERS.exceptions],
      [NUMBERS.inpost, NUMBERS.delivered, NUMBERS.pending, NUMBERS.exceptions],
    ),
    'a number whose carrier cannot be detected': local(['ZZ0000000000'], []),
    'not an envelope': local([NUMBERS.delivered], [NUMBERS.delivered], { status: 200, body: '<html>maintenance</html>' }),
    'the key refused': local([NUMBERS.delivered], [NUMBERS.delivered], { status: 401, body: fixture('invalid-key.json') }),
  },
  mapAnyJson: (body) => [
    mapTrackInfo(body, [NUMBERS.delivered, NUMBERS.inpost]),
    parseTrk17tPush(body),
    parseTrk17tPush({ event: 'TRACKING_UPDATED', data: body }),
    mapEntry(NUMBERS.delivered, body as Trk17tAccepted),
    mapEntry(NUMBERS.delivered, { number: NUMBERS.delivered, carrier: 11031, track_info: body }),
  ],
});

import { mapTrackingResponse } from '../../../src/carriers/fdxglb/fdxglb.mapper.js';
import { bookingContract, type ContractFixture, carrierContract } from '../contract.js';
import { CLIENT_ID, CLIENT_SECRET, fixture, localFedex, NUMBERS, SETTINGS } from './fdxglb.fixtures.js';
import { bookRequest, CONSUMER_US } from './fedex-book-requests.js';
import { localFedexShip, SHIP_CLIENT_ID, SHIP_CLIENT_SECRET, SHIP_PATH, SPLIT_SETTINGS } from './fedex-ship-server.js';

/** Each tracking fixture served as FedEx's answer to whatever is asked, through the real transport. */
function served(name: string, numbers = NUMBERS[name]): ContractFixture {
  return {
    numbers,
    secrets: [CLIENT_ID, CLIENT_SECRET],
    async start() {
      const fedex = await localFedex({ track: () => ({ body: fixture(name) }) });
      return { adapter: fedex.adapter, settings: SETTINGS, close: () => fedex.close() };
    },
  };
}

carrierContract({
  carrierId: 'fdxglb',
  fixtures: {
    delivered: served('delivered.json'),
    'in transit': served('in-transit.json'),
    customs: served('customs.json'),
    exceptions: served('exceptions.json'),
    'times without offset': served('times-without-offset.json'),
    'multi-piece': served('multi-piece.json'),
    'not found': served('not-found.json'),
    'partial batch, a number missing from the answer': served('partial-batch.json', [...NUMBERS['partial-batch.json'], '799900000271']),
    'empty event list': served('empty-events.json'),
    'malformed body': served('malformed.json'),
  },
  // The arbitrary JSON as a whole answer, as one piece, and as one scan of a delivered piece.
  mapAnyJson: (body) => {
    const numbers = ['799900000021', '799900000043'];
    const answer = (trackResults: unknown) => ({ output: { completeTrackResults: [{ trackingNumber: numbers[0], trackResults }] } });
    const delivered = {
      latestStatusDetail: { code: 'DL' },
      availableImages: [{ type: 'SIGNATURE_PROOF_OF_DELIVERY' }],
      scanEvents: [body],
    };
    return [
      mapTrackingResponse(body, numbers),
      mapTrackingResponse(answer([body, body]), numbers),
      mapTrackingResponse(answer([{ ...delivered, dateAndTimes: [body], estimatedDeliveryTimeWindow: body }]), numbers),
    ];
  },
});

bookingContract({
  carrierId: 'fdxglb',
  fixture: {
    secrets: [CLIENT_SECRET, SHIP_CLIENT_ID, SHIP_CLIENT_SECRET, 'fixture-token-'],
    async start() {
      const fedex = await localFedexShip({ shipClientId: SHIP_CLIENT_ID });
      return {
        adapter: fedex.adapter,
        settings: { ...SPLIT_SETTINGS },
        request: bookRequest(),
        // A US ZIP code of four digits: FedEx refuses it (postal code and state), our check leaves postal codes to FedEx.
        refused: bookRequest({ recipient: { ...CONSUMER_US, postal_code: '0700' } }),
        script: (reply) => fedex.server.once(SHIP_PATH, reply),
        bookingCalls: () => fedex.routes.shipCalls().length,
        close: () => fedex.close(),
      };
    },
  },
});

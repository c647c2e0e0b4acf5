import { mapTrackResponse } from '../../../src/carriers/upsglb/upsglb.mapper.js';
import { bookingContract, type ContractFixture, carrierContract } from '../contract.js';
import { bookRequest, CONSUMER_US, MERCHANT_US } from './ups-book-requests.js';
import { NUMBERS, SETTINGS, UpsServer, upsAdapter } from './ups-server.js';
import { BOOKING_SETTINGS, SHIP_PATH, UpsShippingRoutes } from './ups-shipping-server.js';

/** A fixture of the contract: the local UPS serving every fixture, asked for these numbers. */
function served(...numbers: string[]): ContractFixture {
  return {
    numbers,
    secrets: [SETTINGS.client_secret, 'wb-access-token-'],
    async start() {
      const server = await UpsServer.create();
      return { adapter: upsAdapter(server), settings: { ...SETTINGS }, close: () => server.close() };
    },
  };
}

carrierContract({
  carrierId: 'upsglb',
  fixtures: {
    delivered: served(NUMBERS.delivered),
    'in transit, times without offset': served(NUMBERS.inTransit),
    exceptions: served(NUMBERS.exceptions),
    'failed attempts and pickup points': served(NUMBERS.attempts),
    returns: served(NUMBERS.returns),
    cancelled: served(NUMBERS.cancelled),
    'DST change': served(NUMBERS.dst),
    'multi-piece': served(NUMBERS.multiPiece, NUMBERS.multiPieceLead),
    'not found (200 and 404)': served(NUMBERS.notFound, NUMBERS.notFound404),
    'empty event list': served(NUMBERS.emptyEvents),
    'delivery photo': served(NUMBERS.deliveredPhoto),
    'malformed and refused answers': served(NUMBERS.malformed, NUMBERS.unexpected, NUMBERS.badRequest),
    'all at once': served(...Object.values(NUMBERS)),
  },
  mapAnyJson: (body) => mapTrackResponse(body, NUMBERS.delivered),
});

bookingContract({
  carrierId: 'upsglb',
  fixture: {
    secrets: [SETTINGS.client_secret, 'wb-access-token-'],
    async start() {
      const server = await UpsServer.create();
      const ups = UpsShippingRoutes.install(server);
      return {
        adapter: upsAdapter(server),
        settings: { ...BOOKING_SETTINGS },
        request: bookRequest(),
        // A US ZIP code of four digits: UPS refuses it (120207), our check leaves postal codes to UPS.
        refused: bookRequest({ sender: { ...MERCHANT_US }, recipient: { ...CONSUMER_US, postal_code: '0700' }, shipping_service: '03' }),
        script: (reply) => server.once(SHIP_PATH, reply),
        bookingCalls: () => ups.shipCalls().length,
        close: () => server.close(),
      };
    },
  },
});

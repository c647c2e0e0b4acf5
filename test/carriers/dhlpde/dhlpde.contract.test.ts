import { mapShipmentsBody } from '../../../src/carriers/dhlglb/dhlglb.mapper.js';
import { DhlParcelDeCarrier } from '../../../src/carriers/dhlpde/dhlpde.carrier.js';
import { bookingContract, type ContractFixture, carrierContract } from '../contract.js';
import { localToolkit } from '../support/kit.js';
import { DhlParcelServer, ORDERS_PATH } from './dhl-parcel-server.js';
import { outboundRequest, SECRETS, SETTINGS } from './dhlpde.fixtures.js';

const TRACKED = '003404341004';

function tracking(numbers: string[]): ContractFixture {
  return {
    numbers,
    secrets: SECRETS,
    async start() {
      const server = await DhlParcelServer.create();
      server.trackable.add(TRACKED);
      return {
        adapter: new DhlParcelDeCarrier(localToolkit('dhlpde', server.url)),
        settings: { ...SETTINGS },
        close: () => server.close(),
      };
    },
  };
}

carrierContract({
  carrierId: 'dhlpde',
  fixtures: {
    'a booked parcel': tracking([TRACKED]),
    'a number DHL does not know': tracking(['003404341010']),
  },
  mapAnyJson: (body) => mapShipmentsBody(TRACKED, body),
});

bookingContract({
  carrierId: 'dhlpde',
  fixture: {
    secrets: SECRETS,
    async start() {
      const server = await DhlParcelServer.create();
      const recipient = outboundRequest().recipient;
      return {
        adapter: new DhlParcelDeCarrier(localToolkit('dhlpde', server.url)),
        settings: { ...SETTINGS, must_encode: true },
        request: outboundRequest(),
        // A German address DHL cannot encode: its postal code belongs to another city.
        refused: outboundRequest({ recipient: { ...recipient, postal_code: '10117' } }),
        script: (reply) => server.once(ORDERS_PATH, reply),
        bookingCalls: () => server.to(ORDERS_PATH).length,
        close: () => server.close(),
      };
    },
  },
});

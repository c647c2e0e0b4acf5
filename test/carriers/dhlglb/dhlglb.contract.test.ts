import { DhlUnifiedCarrier } from '../../../src/carriers/dhlglb/dhlglb.carrier.js';
import { mapShipmentsBody } from '../../../src/carriers/dhlglb/dhlglb.mapper.js';
import { type ContractFixture, carrierContract } from '../contract.js';
import { CarrierServer } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { DHL_NUMBERS, dhlFixture } from './dhlglb.fixtures.js';

const KEY = 'contract-dhl-key-0c4e1b';

/** A local DHL answering `fixture` (200) for `numbers` and 404 for any other number. */
function fixture(name: string, numbers: string[], status = 200): ContractFixture {
  return {
    numbers,
    secrets: [KEY],
    async start() {
      const server = await new CarrierServer().start();
      server.on('GET', '/track/shipments', (request) =>
        numbers.includes(request.query.get('trackingNumber') ?? '') && status === 200
          ? { status: 200, body: dhlFixture(name) }
          : { status: 404, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify(dhlFixture('not-found')) },
      );
      return {
        adapter: new DhlUnifiedCarrier(localToolkit('dhlglb', server.url)),
        settings: { api_key: KEY },
        close: () => server.close(),
      };
    },
  };
}

carrierContract({
  carrierId: 'dhlglb',
  fixtures: {
    transit: fixture('transit', [DHL_NUMBERS.transit]),
    delivered: fixture('delivered', [DHL_NUMBERS.delivered]),
    failure: fixture('failure', [DHL_NUMBERS.failure]),
    'unknown codes': fixture('unknown', [DHL_NUMBERS.unknown]),
    'DST edges': fixture('dst', [DHL_NUMBERS.dst]),
    'multi-piece': fixture('multi-piece', [DHL_NUMBERS.piece1, DHL_NUMBERS.expressOther]),
    returned: fixture('return', [DHL_NUMBERS.returned]),
    ecommerce: fixture('ecommerce', [DHL_NUMBERS.ecommerce]),
    'status only': fixture('status-only', [DHL_NUMBERS.statusOnly]),
    'no events': fixture('no-events', [DHL_NUMBERS.transit]),
    'not found': fixture('not-found', [DHL_NUMBERS.transit], 404),
    malformed: fixture('malformed', [DHL_NUMBERS.transit]),
  },
  mapAnyJson: (body) => mapShipmentsBody(DHL_NUMBERS.transit, body),
});

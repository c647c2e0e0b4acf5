import { mapStatusBody } from '../../../src/carriers/postnl/postnl.mapper.js';
import { bookingContract, type ContractFixture, carrierContract } from '../contract.js';
import { bookRequest, CONSUMER_NL } from './postnl-book-requests.js';
import { API_KEY, BARCODES, postnlAdapter, postnlServer, SETTINGS } from './postnl-server.js';
import { BOOKING_SETTINGS, LABEL_PATH, PostnlShippingRoutes } from './postnl-shipping-server.js';

/** Every fixture asked on its own, plus one that asks them all at once with a number PostNL does not know. */
function fixture(numbers: string[]): ContractFixture {
  return {
    numbers,
    secrets: [API_KEY],
    async start() {
      const server = await postnlServer();
      const { adapter } = postnlAdapter(server);
      return { adapter, settings: SETTINGS, close: () => server.close() };
    },
  };
}

const fixtures: Record<string, ContractFixture> = {};
for (const [barcode, name] of Object.entries(BARCODES)) fixtures[`${name} (${barcode})`] = fixture([barcode]);
fixtures['not-found (3SDEVC419999999)'] = fixture(['3SDEVC419999999']);
fixtures['every fixture at once'] = fixture([...Object.keys(BARCODES), '3SDEVC419999999']);

carrierContract({
  carrierId: 'postnl',
  fixtures,
  mapAnyJson: (body) => mapStatusBody('3SDEVC410000001', body),
});

bookingContract({
  carrierId: 'postnl',
  fixture: {
    secrets: [API_KEY],
    async start() {
      const server = await postnlServer();
      const postnl = PostnlShippingRoutes.install(server);
      const { adapter } = postnlAdapter(server);
      return {
        adapter,
        settings: { ...BOOKING_SETTINGS },
        request: bookRequest(),
        // A Dutch postal code of the right form that the local PostNL does not know (as PostNL refuses unknown addresses).
        refused: bookRequest({ recipient: { ...CONSUMER_NL, postal_code: '9999 ZZ' } }),
        script: (reply) => server.once(LABEL_PATH, reply),
        bookingCalls: () => postnl.labelCalls(true).length,
        close: () => server.close(),
      };
    },
  },
});

import { GLS_CODES } from '../../../src/carriers/glsglb/glsglb.codes.js';
import { mapGlsResponse } from '../../../src/carriers/glsglb/glsglb.mapper.js';
import { mapCode } from '../../../src/carriers/sdk/codes.js';
import { bookingContract, type ContractFixture, carrierContract } from '../contract.js';
import { bookRequest, CONSUMER_DE } from './gls-book-requests.js';
import { fixture, glsAdapter, glsServer, SETTINGS } from './gls-server.js';
import { BOOKING_SETTINGS, GlsShipitRoutes, SHIPMENTS_PATH } from './gls-shipit-server.js';

function served(numbers: string[], options: { body?: unknown } = {}): ContractFixture {
  return {
    numbers,
    secrets: [SETTINGS.client_secret],
    async start() {
      const server = await glsServer(options);
      const { adapter } = glsAdapter(server);
      return { adapter, settings: { ...SETTINGS }, close: () => server.close() };
    },
  };
}

carrierContract({
  carrierId: 'glsglb',
  fixtures: {
    'info received': served(['531000000022']),
    'in transit': served(['531000000039']),
    'in warehouse, unknown codes': served(['531000000046']),
    'out for delivery': served(['531000000053']),
    delivered: served(['531000000060']),
    'delivered to the chosen ParcelShop': served(['531000000077']),
    'ParcelShop after a failed attempt': served(['531000000084']),
    'not delivered': served(['531000000107']),
    'status only': served(['531000000114']),
    cancelled: served(['531000000121']),
    'times without offset': served(['531000000145']),
    'autumn DST change': served(['531000000152']),
    'multi-piece and Track ID': served(['531000000169', 'QX7K2M9P']),
    'not found': served(['531000000213']),
    'partial batch': served(['531000000237', '531000000244', '531000000268']),
    'empty event list': served(['531000000282']),
    'a full batch and more': served([
      '531000000022',
      '531000000039',
      '531000000046',
      '531000000053',
      '531000000060',
      '531000000077',
      '531000000084',
      '531000000107',
      '531000000114',
      '531000000121',
      '531000000145',
      '531000000152',
    ]),
    'malformed body': served(['531000000299'], { body: fixture('malformed.json') }),
    'parcels list without these numbers': served(['531000000305'], { body: { parcels: [] } }),
  },
  mapAnyJson: (body) => mapGlsResponse(body, ['531000000022', 'QX7K2M9P'], (codes) => mapCode(GLS_CODES, codes)),
});

bookingContract({
  carrierId: 'glsglb',
  fixture: {
    secrets: [SETTINGS.client_secret, 'tok-'],
    async start() {
      const server = await glsServer();
      const gls = GlsShipitRoutes.install(server);
      const { adapter } = glsAdapter(server);
      return {
        adapter,
        settings: { ...BOOKING_SETTINGS },
        request: bookRequest(),
        // A German postal code of four digits: GLS refuses it ("Invalid field consignee.zip"); our check leaves postal codes to GLS.
        refused: bookRequest({ recipient: { ...CONSUMER_DE, postal_code: '2009' } }),
        script: (reply) => server.once(SHIPMENTS_PATH, reply),
        bookingCalls: () => gls.createCalls().length,
        close: () => server.close(),
      };
    },
  },
});

import { UspsCarrier } from '../../../src/carriers/uspsus/uspsus.carrier.js';
import { mapErrorAnswer, mapTrackingAnswer } from '../../../src/carriers/uspsus/uspsus.mapper.js';
import { bookingContract, type ContractFixture, carrierContract } from '../contract.js';
import type { ScriptedReply } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { bookRequest, CONSUMER } from './usps-book-requests.js';
import { BOOKING_SETTINGS, LABEL_PATH, UspsLabelRoutes } from './usps-labels-server.js';
import { fastClock, fixture, SETTINGS, uspsServer } from './usps-server.js';

/** A fixture served as USPS's whole answer, whatever was asked. */
function served(numbers: string[], reply: () => ScriptedReply): ContractFixture {
  return {
    numbers,
    secrets: [SETTINGS.client_secret],
    async start() {
      const server = await uspsServer(reply);
      // The real adapter, its hourly pace on a fast clock: the contract polls twice.
      const adapter = new UspsCarrier(localToolkit('uspsus', server.url, {}, fastClock()));
      return { adapter, settings: { ...SETTINGS }, close: () => server.close() };
    },
  };
}

const json =
  (name: string, status = 200) =>
  () => ({ status, body: fixture(name) });

carrierContract({
  carrierId: 'uspsus',
  fixtures: {
    delivered: served(['9400111899223851000014'], json('delivered')),
    'failed attempt and pickup': served(['9400111899223851000021'], json('attempt-pickup')),
    'return to sender': served(['9400111899223851000038'], json('return')),
    exceptions: served(['9400111899223851000045'], json('exceptions')),
    'local times (Tracking 3.0 shape)': served(['9400111899223851000052'], json('local-times')),
    'DST edges': served(['9400111899223851000069'], json('dst')),
    'multi-status batch': served(
      ['9400111899223851000076', '9400111899223851000083', '9400111899223851000090', '9400111899223851000106', '9300111899223851000138'],
      json('multi-status', 207),
    ),
    'not found (400, 150002)': served(['9400111899223851000083'], json('not-found', 400)),
    'not found (404)': served(['9400111899223851000083', '9400111899223851000090'], json('not-found-404', 404)),
    malformed: served(['9400111899223851000144', '42AB', 'junk1'], json('malformed')),
    'no events yet': served(['9400111899223851000151'], json('empty-events')),
    'international and partner scans': served(['9205511899223851000118'], json('international')),
    'quota spent': served(['9400111899223851000014'], () => ({ status: 429, body: fixture('quota') })),
  },
  mapAnyJson: (body) => {
    mapTrackingAnswer(body, ['9400111899223851000014', '9400111899223851000021']);
    return mapErrorAnswer(400, body, ['9400111899223851000014']);
  },
});

bookingContract({
  carrierId: 'uspsus',
  fixture: {
    secrets: [SETTINGS.client_secret, 'usps-access-token-', 'usps-payment-'],
    async start() {
      const server = await uspsServer();
      const usps = UspsLabelRoutes.install(server);
      return {
        adapter: new UspsCarrier(localToolkit('uspsus', server.url)),
        settings: { ...BOOKING_SETTINGS },
        request: bookRequest(),
        // A ZIP Code USPS does not know: its address check refuses it, naming toAddress.ZIPCode.
        refused: bookRequest({ recipient: { ...CONSUMER, postal_code: '00012' } }),
        script: (reply) => server.once(LABEL_PATH, reply),
        bookingCalls: () => usps.labelCalls().length,
        close: () => server.close(),
      };
    },
  },
});

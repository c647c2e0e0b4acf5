import { mapCode } from '../../../src/carriers/sdk/codes.js';
import { SHIP24_CODES } from '../../../src/carriers/ship24/ship24.codes.js';
import { mapResultsBody, parseShip24Push } from '../../../src/carriers/ship24/ship24.mapper.js';
import { type ContractFixture, carrierContract } from '../contract.js';
import { API_KEY, NUMBERS, RESULTS_PATH, SETTINGS, ship24Adapter, ship24Server } from './ship24-server.js';

/** Numbers with trackers already (`registered`), or unknown to Ship24 until the first poll registers them. */
function served(numbers: string[], options: { registered?: string[]; body?: unknown } = {}): ContractFixture {
  return {
    numbers,
    secrets: [API_KEY],
    async start() {
      const server = await ship24Server({ registered: options.registered ?? numbers });
      if (options.body !== undefined) server.on('GET', RESULTS_PATH, () => ({ body: options.body }));
      const { adapter } = ship24Adapter(server);
      return { adapter, settings: { ...SETTINGS }, close: () => server.close() };
    },
  };
}

carrierContract({
  carrierId: 'ship24',
  fixtures: {
    'domestic, delivered': served([NUMBERS.delivered]),
    'international, two couriers': served([NUMBERS.international]),
    'pick-up point': served([NUMBERS.pickup]),
    'exceptions and a return': served([NUMBERS.exceptions]),
    'parcel locker': served([NUMBERS.inpost]),
    'codes the table lacks': served([NUMBERS.unmapped]),
    'a tracker without events': served([NUMBERS.pending]),
    'unknown numbers, registered on the first poll': served(['TT200000037GB', 'TT200000068GB'], { registered: [] }),
    'a batch of all': served([...Object.values(NUMBERS), 'TT200000068GB'], { registered: Object.values(NUMBERS) }),
    'an answer without trackings': served([NUMBERS.delivered], { body: { data: null } }),
  },
  mapAnyJson: (body) => {
    mapResultsBody(NUMBERS.delivered, body, { eventKeyOf: (codes) => mapCode(SHIP24_CODES, codes) });
    return parseShip24Push(body);
  },
});

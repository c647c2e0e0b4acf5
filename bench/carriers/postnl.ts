import { idsOf, json, one, RETRY, readFixture, storyTemplates, Template } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

/** PostNL Shipping Status API: an API key header, one barcode per path. */
export const postnl: LocalCarrier = {
  id: 'postnl',
  // A 3S barcode: 3S, a customer code of four letters, a serial of nine digits (no check digit).
  number: (serial) => `3SBNCH${pad(serial, 9)}`,
  serialAt: [6, 15],
  limits: {
    numbersPerCall: 1,
    concurrentCalls: 4,
    windows: [{ ms: 1000, max: 10 }],
    dailyQuota: null,
    source: 'one barcode per path; PostNL publishes no figures: the adapter’s 4 in flight, 10/s (docs/carriers/postnl.md)',
  },
  settings: (credential) => ({ api_key: credential, environment: 'production' }),
  answers() {
    const stories = storyTemplates((story) =>
      story === 'in_transit'
        ? new Template(JSON.stringify(readFixture('postnl', 'in-transit.json')), '3SDEVC410000002')
        : new Template(JSON.stringify(readFixture('postnl', 'out-for-delivery.json')), '3SDEVC410000003'),
    );
    return {
      isTrack: (r) => r.method === 'GET' && r.path.startsWith('/shipment/v2/status/barcode/'),
      apiKey: (r) => (r.headers.apikey as string | undefined) ?? null,
      numbersOf: idsOf,
      answer: one(stories),
      rateLimited: (s) => json(429, { fault: { faultstring: 'Too many requests' } }, RETRY(s)),
      quotaSpent: () => json(429, { fault: { faultstring: 'Too many requests' } }),
      tooManyNumbers: json(400, { Errors: [{ Code: '400', Description: 'Invalid barcode' }] }),
      unauthorized: json(401, { fault: { faultstring: 'Invalid ApiKey' } }),
    };
  },
  fingerprint: (number, body) => fingerprintOf('postnl', number, Buffer.from(body)),
};

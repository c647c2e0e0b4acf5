import { suiviEntries } from '../../src/carriers/lapost/lapost.mapper.js';
import { idsOf, json, RETRY, readFixture, Template } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { entryText, fingerprintOf } from '../poll-history.js';

/** La Poste Suivi v2: an API key header (X-Okapi-Key), up to ten numbers per path. */
export const lapost: LocalCarrier = {
  id: 'lapost',
  // A domestic Colissimo number: digit, letter, eleven digits (no published check digit).
  number: (serial) => `6A8${pad(serial, 10)}`,
  serialAt: [3, 13],
  limits: {
    numbersPerCall: 10,
    concurrentCalls: 4,
    windows: [{ ms: 1000, max: 10 }],
    dailyQuota: null,
    source: '10 numbers per call, 10 calls/s (the plan card); 4 in flight is the adapter’s',
  },
  settings: (credential) => ({ api_key: credential }),
  answers() {
    // La Poste has no fixture out for delivery: every story answers the international journey in transit.
    const envelope = new Template(JSON.stringify(readFixture('lapost', 'in-transit-international.json').body), 'CB900001014FR');
    return {
      isTrack: (r) => r.method === 'GET' && r.path.startsWith('/suivi/v2/idships/'),
      apiKey: (r) => (r.headers['x-okapi-key'] as string | undefined) ?? null,
      numbersOf: idsOf,
      answer: (numbers) =>
        json(200, numbers.length === 1 ? envelope.for(numbers[0]) : `[${numbers.map((n) => envelope.for(n)).join(',')}]`),
      rateLimited: (s) => json(429, { code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded' }, RETRY(s)),
      quotaSpent: () => json(429, { code: 'TOO_MANY_REQUESTS', message: 'Quota exceeded' }),
      tooManyNumbers: json(400, { returnCode: 400, returnMessage: 'Too many numbers' }),
      unauthorized: json(401, readFixture('lapost', 'unauthorized.json').body),
    };
  },
  // The number's entry as received: the text the adapter splits the answer into.
  fingerprint: (number, body) => fingerprintOf('lapost', number, entryText(body, suiviEntries(body), number)),
};

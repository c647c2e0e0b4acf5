import { json, one, RETRY, readFixture, Template } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

/** PostNord Track and Trace v5 (test/carriers/postnd/postnd-server.ts): one identifier per call, the API key as a query parameter. */
export const postnd: LocalCarrier = {
  id: 'postnd',
  // PostNord's own identifier: 11 digits and SE (no check digit published).
  number: (serial) => `9${pad(serial, 10)}SE`,
  serialAt: [1, 11],
  limits: {
    numbersPerCall: 1,
    concurrentCalls: 4,
    windows: [{ ms: 1000, max: 5 }],
    dailyQuota: null,
    source: 'one identifier per call (findByIdentifier); PostNord publishes no figures: the adapter’s 4 in flight, 5/s',
  },
  settings: (credential) => ({ api_key: credential, environment: 'production' }),
  answers() {
    const story = (file: string, number: string) => new Template(JSON.stringify(readFixture('postnd', file)), number);
    const faults = (message: string, text: string) => ({
      message,
      compositeFault: { faults: [{ faultCode: 'API-001', explanationText: text }] },
    });
    return {
      isTrack: (r) => r.method === 'GET' && r.path === '/rest/shipment/v5/trackandtrace/findByIdentifier.json',
      apiKey: (r) => r.query.get('apikey'),
      numbersOf: (r) => [r.query.get('id') ?? ''],
      answer: one({
        in_transit: story('in-transit.json', 'RR900000019SE'),
        out_for_delivery: story('parcel-locker.json', '00373900000000000037'),
        failed_attempt: story('exceptions.json', '90000000606SE'),
      }),
      rateLimited: (s) => json(429, faults('Too many requests', 'The rate limit is exceeded'), RETRY(s)),
      quotaSpent: () => json(429, faults('Too many requests', 'The rate limit is exceeded')),
      tooManyNumbers: json(400, faults('Invalid query parameter', 'Only one identifier is allowed')),
      // PostNord's API gateway refuses keys with 403 and a line of text.
      unauthorized: { status: 403, body: 'Authentication failed' },
    };
  },
  fingerprint: (number, body) => fingerprintOf('postnd', number, Buffer.from(body)),
};

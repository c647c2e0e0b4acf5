import { bearer, idsOf, json, one, RETRY, readFixture, Template } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

/** InPost ShipX Tracking (test/carriers/inpost/inpost-server.ts): one number per path, an organisation's token as a bearer token. */
export const inpost: LocalCarrier = {
  id: 'inpost',
  // A 24-digit shipment number (InPost publishes no check digit).
  number: (serial) => `629${pad(serial, 21)}`,
  serialAt: [3, 24],
  limits: {
    numbersPerCall: 1,
    concurrentCalls: 4,
    windows: [{ ms: 1000, max: 5 }],
    dailyQuota: null,
    source: 'one number per path; ShipX publishes no tracking limits: the adapter’s 4 in flight, 5/s',
  },
  // With a token each configuration is a credential of its own (without one they would share the public resource's).
  settings: (credential) => ({ api_token: credential, environment: 'production' }),
  answers() {
    const story = (file: string, number: string) => new Template(JSON.stringify(readFixture('inpost', file)), number);
    const error = (status: number, key: string, message: string) => ({ status, error: key, message, details: {} });
    return {
      isTrack: (r) => r.method === 'GET' && /^\/v1\/tracking\/[^/]+$/.test(r.path),
      apiKey: bearer,
      numbersOf: idsOf,
      answer: one({
        in_transit: story('local-times.json', '620000000000000000000011'),
        out_for_delivery: story('waiting-in-locker.json', '620000000000000000000003'),
        failed_attempt: story('redirected.json', '620000000000000000000008'),
      }),
      rateLimited: (s) => json(429, error(429, 'too_many_requests', 'Too many requests'), RETRY(s)),
      quotaSpent: () => json(429, error(429, 'too_many_requests', 'Too many requests')),
      tooManyNumbers: json(400, error(400, 'invalid_parameter', 'Invalid tracking number')),
      unauthorized: json(401, error(401, 'token_invalid', 'Token is invalid')),
    };
  },
  fingerprint: (number, body) => fingerprintOf('inpost', number, Buffer.from(body)),
};

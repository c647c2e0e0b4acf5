import { upsCheckDigit } from '../../src/carriers/detect/ups.js';
import { basicUser, fixtureText, idsOf, json, one, RETRY, Template, tokenReply } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

/** UPS Tracking API: OAuth client credentials, one number per path. */
export const upsglb: LocalCarrier = {
  id: 'upsglb',
  number(serial) {
    // 1Z + shipper (6) + service (2) + package (7) + check digit.
    const body = `1ZBN4Y8103${pad(serial, 7)}`;
    return `${body}${upsCheckDigit(`${body}0`)}`;
  },
  serialAt: [10, 17],
  limits: {
    numbersPerCall: 1,
    concurrentCalls: 4,
    windows: [{ ms: 1000, max: 5 }],
    dailyQuota: null,
    source: 'one number per path (Tracking.yaml); UPS publishes no rate: the adapter’s 4 in flight, 5/s',
  },
  settings: (credential, secret) => ({ client_id: credential, client_secret: secret, environment: 'production' }),
  answers() {
    const regular = new Template(fixtureText('upsglb', 'in-transit.response.json'), '1ZWB4Y810300001007');
    const attempts = new Template(fixtureText('upsglb', 'attempts.response.json'), '1ZWB4Y810300003005');
    return {
      token: { path: '/security/v1/oauth/token', clientOf: basicUser, answer: tokenReply('upsglb', 'token.response.json') },
      isTrack: (r) => r.method === 'GET' && r.path.startsWith('/api/track/v1/details/'),
      numbersOf: idsOf,
      answer: one({ in_transit: regular, out_for_delivery: attempts, failed_attempt: attempts }),
      rateLimited: (s) => json(429, { response: { errors: [{ code: '429', message: 'Rate Limit Exceeded' }] } }, RETRY(s)),
      quotaSpent: () => json(429, { response: { errors: [{ code: '429', message: 'Quota Limit Exceeded' }] } }),
      tooManyNumbers: json(400, { response: { errors: [{ code: '151018', message: 'Invalid tracking number' }] } }),
      unauthorized: json(401, { response: { errors: [{ code: '250002', message: 'Invalid Authentication Information.' }] } }),
    };
  },
  // The body is the number's alone: the adapter fingerprints it as received.
  fingerprint: (number, body) => fingerprintOf('upsglb', number, Buffer.from(body)),
};

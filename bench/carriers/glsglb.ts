import { glsCheckDigit } from '../../src/carriers/detect/gls.js';
import { mapGlsResponse } from '../../src/carriers/glsglb/glsglb.mapper.js';
import { basicUser, idsOf, json, RETRY, readFixture, Template, tokenReply } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

/** GLS Track and Trace: OAuth client credentials, up to ten ids per path, a daily quota (the portal's default). */
export const glsglb: LocalCarrier = {
  id: 'glsglb',
  number(serial) {
    // Depot (2) + product (2) + serial (7) + check digit.
    const body = `5610${pad(serial, 7)}`;
    return `${body}${glsCheckDigit(body)}`;
  },
  serialAt: [4, 11],
  limits: {
    numbersPerCall: 10,
    concurrentCalls: 2,
    windows: [{ ms: 1000, max: 1 }],
    dailyQuota: 500,
    source: '10 ids per call, 500 calls a day (portal default); 2 in flight and 1/s are the adapter’s (assumed)',
  },
  settings: (credential, secret) => ({ client_id: credential, client_secret: secret, environment: 'production' }),
  answers() {
    const parcels = (file: string, number: string) =>
      new Template((readFixture('glsglb', file) as { parcels: unknown[] }).parcels.map((p) => JSON.stringify(p)).join(','), number);
    const stories = {
      in_transit: parcels('in-transit.json', '531000000039'),
      out_for_delivery: parcels('out-for-delivery.json', '531000000053'),
      failed_attempt: parcels('not-delivered.json', '531000000107'),
    };
    return {
      token: { path: '/oauth2/v2/token', clientOf: basicUser, answer: tokenReply('glsglb', 'token.json') },
      isTrack: (r) => r.method === 'GET' && r.path.startsWith('/track-and-trace-v1/tracking/simple/trackids/'),
      numbersOf: idsOf,
      answer: (numbers, story) => json(200, `{"parcels":[${numbers.map((n) => stories[story(n)].for(n)).join(',')}]}`),
      rateLimited: (s) => json(429, readFixture('glsglb', 'spike-arrest.json'), RETRY(s)),
      quotaSpent: () => json(429, readFixture('glsglb', 'quota-exceeded.json')),
      tooManyNumbers: json(400, readFixture('glsglb', 'bad-request.json')),
      unauthorized: json(401, { fault: { faultstring: 'Invalid access token', detail: { errorcode: 'oauth.v2.InvalidAccessToken' } } }),
    };
  },
  // The number's entry as the mapper picks it (caught as the mapper offers it to be compared).
  fingerprint(number, body) {
    let entry: object | null = null;
    mapGlsResponse(JSON.parse(body), [number], undefined, (_n, data) => {
      entry = data;
      return true;
    });
    return fingerprintOf('glsglb', number, entry);
  },
};

import { gs1CheckDigit } from '../../src/carriers/detect/check-digits.js';
import { mapTrackingAnswer } from '../../src/carriers/uspsus/uspsus.mapper.js';
import { json, RETRY, readFixture, Template, tokenReply } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

/** USPS Tracking v3r2: OAuth client credentials, up to 35 numbers per call, an hourly quota. */
export const uspsus: LocalCarrier = {
  id: 'uspsus',
  number(serial) {
    // An IMpb of 22 digits with its GS1 check digit.
    const body = `9400111${pad(serial, 14)}`;
    return `${body}${gs1CheckDigit(body)}`;
  },
  serialAt: [7, 21],
  limits: {
    numbersPerCall: 35,
    concurrentCalls: 1,
    windows: [
      { ms: 60_000, max: 1 },
      { ms: 3_600_000, max: 60 },
    ],
    dailyQuota: 1440,
    source: '35 numbers per call, 60 calls an hour (integrators’ reports); one a minute, 1 in flight and 1,440 a day are the adapter’s',
  },
  settings: (credential, secret) => ({ client_id: credential, client_secret: secret, environment: 'production' }),
  answers() {
    const item = (file: string, number: string) =>
      new Template(
        JSON.stringify((readFixture('uspsus', file) as Array<{ trackingNumber?: string }>).find((i) => i.trackingNumber === number)),
        number,
      );
    const regular = item('dst.json', '9400111899223851000069');
    const urgent = item('multi-status.json', '9400111899223851000076');
    const stories = { in_transit: regular, out_for_delivery: urgent, failed_attempt: urgent };
    return {
      token: {
        path: '/oauth2/v3/token',
        clientOf: (r) => (JSON.parse(r.body || '{}') as { client_id?: string }).client_id ?? null,
        answer: tokenReply('uspsus', 'token.json'),
      },
      isTrack: (r) => r.method === 'POST' && r.path === '/tracking/v3r2/tracking',
      numbersOf: (r) => (JSON.parse(r.body) as Array<{ trackingNumber: string }>).map((e) => e.trackingNumber),
      answer: (numbers, story) => json(200, `[${numbers.map((n) => stories[story(n)].for(n)).join(',')}]`),
      rateLimited: (s) => json(429, readFixture('uspsus', 'throttled.json'), RETRY(s)),
      // USPS's quota is hourly: it says when the hour ends.
      quotaSpent: (now) => json(429, readFixture('uspsus', 'quota.json'), RETRY((3_600_000 - (now % 3_600_000)) / 1000)),
      tooManyNumbers: json(400, { apiVersion: '/tracking/v3r2', error: { code: '400', message: 'Too many tracking numbers' } }),
      unauthorized: json(401, readFixture('uspsus', 'unauthorized.json')),
    };
  },
  // The number's entry as the mapper picks it (caught as the mapper offers it to be compared).
  fingerprint(number, body) {
    let entry: object | null = null;
    mapTrackingAnswer(JSON.parse(body), [number], {
      unchanged: (_n, data) => {
        entry = data;
        return true;
      },
    });
    return fingerprintOf('uspsus', number, entry);
  },
};

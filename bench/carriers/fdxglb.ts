import { fedexExpressCheckDigit } from '../../src/carriers/detect/fedex.js';
import { completeResultEntries } from '../../src/carriers/fdxglb/fdxglb.mapper.js';
import { json, RETRY, readFixture, Template, tokenReply } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { entryText, fingerprintOf } from '../poll-history.js';

/** FedEx Track API: OAuth client credentials, up to 30 numbers per call. */
export const fdxglb: LocalCarrier = {
  id: 'fdxglb',
  number(serial) {
    // An Express number: eleven digits and the modulo-11 check digit.
    const body = `7999${pad(serial, 7)}`;
    return `${body}${fedexExpressCheckDigit(`${body}0`)}`;
  },
  serialAt: [4, 11],
  limits: {
    numbersPerCall: 30,
    concurrentCalls: 4,
    windows: [
      { ms: 1000, max: 10 },
      { ms: 10_000, max: 1400 },
    ],
    dailyQuota: 100_000,
    source: '30 numbers, 1,400 calls per 10 s, 100,000 a day (FedEx); 4 in flight and 10/s are the adapter’s',
  },
  settings: (credential, secret) => ({ client_id: credential, client_secret: secret, environment: 'production' }),
  answers() {
    const entry = (file: string, number: string) => {
      const found = (
        readFixture('fdxglb', file) as { output: { completeTrackResults: Array<{ trackingNumber: string }> } }
      ).output.completeTrackResults.find((e) => e.trackingNumber === number);
      return new Template(JSON.stringify(found), number);
    };
    const regular = entry('in-transit.json', '799900000043');
    const urgent = entry('exceptions.json', '799900000135');
    const stories = { in_transit: regular, out_for_delivery: urgent, failed_attempt: urgent };
    return {
      token: {
        path: '/oauth/token',
        clientOf: (r) => new URLSearchParams(r.body).get('client_id'),
        answer: tokenReply('fdxglb', 'token.json'),
      },
      isTrack: (r) => r.method === 'POST' && r.path === '/track/v1/trackingnumbers',
      numbersOf: (r) =>
        (JSON.parse(r.body) as { trackingInfo: Array<{ trackingNumberInfo: { trackingNumber: string } }> }).trackingInfo.map(
          (i) => i.trackingNumberInfo.trackingNumber,
        ),
      answer: (numbers, story) =>
        json(
          200,
          `{"transactionId":"local-fedex","output":{"completeTrackResults":[${numbers.map((n) => stories[story(n)].for(n)).join(',')}]}}`,
        ),
      rateLimited: (s) => json(429, readFixture('fdxglb', 'rate-limited.json'), RETRY(s)),
      quotaSpent: () => json(429, readFixture('fdxglb', 'quota-exceeded.json')),
      tooManyNumbers: json(400, readFixture('fdxglb', 'bad-request.json')),
      unauthorized: json(401, { errors: [{ code: 'NOT.AUTHORIZED.ERROR', message: 'Access token expired.' }] }),
    };
  },
  // The number's entry as received: the text the adapter splits the answer into.
  fingerprint: (number, body) => fingerprintOf('fdxglb', number, entryText(body, completeResultEntries(body), number)),
};

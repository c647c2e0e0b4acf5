import { dhlExpressCheckDigit } from '../../src/carriers/detect/dhl.js';
import { json, one, RETRY, readFixture, Template } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

/** DHL's unified Shipment Tracking API: an API key header, one number per call, a daily quota (Starter level). */
export const dhlglb: LocalCarrier = {
  id: 'dhlglb',
  number(serial) {
    // An Express waybill: nine digits and their remainder modulo 7.
    const body = `3${pad(serial, 8)}`;
    return `${body}${dhlExpressCheckDigit(body)}`;
  },
  serialAt: [1, 9],
  limits: {
    numbersPerCall: 1,
    concurrentCalls: 1,
    windows: [{ ms: 1000, max: 1 }],
    dailyQuota: 250,
    source: 'Starter level: 1 call/s, 250 a day, reset 24:00 GMT; one trackingNumber per call; 1 in flight is the adapter’s',
  },
  settings: (credential) => ({ api_key: credential }),
  answers() {
    const regular = new Template(JSON.stringify(readFixture('dhlglb', 'transit.json')), '3742185064');
    const failure = new Template(JSON.stringify(readFixture('dhlglb', 'failure.json')), '5810932746');
    const tooMany = readFixture('dhlglb', 'too-many-requests.json');
    return {
      isTrack: (r) => r.method === 'GET' && r.path === '/track/shipments',
      apiKey: (r) => (r.headers['dhl-api-key'] as string | undefined) ?? null,
      numbersOf: (r) => (r.query.get('trackingNumber') ?? '').split(','),
      answer: one({ in_transit: regular, out_for_delivery: failure, failed_attempt: failure }),
      // DHL answers its per-second limit and its daily quota alike; the quota answer has no Retry-After.
      rateLimited: (s) => json(429, tooMany, RETRY(s)),
      quotaSpent: () => json(429, tooMany),
      tooManyNumbers: json(400, { title: 'Bad Request', status: 400, detail: 'trackingNumber is not valid' }),
      unauthorized: json(401, { title: 'Unauthorized', status: 401, detail: 'Invalid API key' }),
    };
  },
  fingerprint: (number, body) => fingerprintOf('dhlglb', number, Buffer.from(body)),
};

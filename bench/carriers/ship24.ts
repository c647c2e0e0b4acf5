import { hash } from 'node:crypto';
import { s10CheckDigit } from '../../src/carriers/detect/s10.js';
import { readCouriers } from '../../src/carriers/ship24/ship24.couriers.js';
import { clientTrackerId } from '../../src/carriers/ship24/ship24.trackers.js';
import { bearer, json, RETRY, readFixture, Template } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

const RESULTS_PATH = /^\/public\/v1\/trackers\/([^/]+)\/results$/;
const COURIERS_PATH = '/public/v1/couriers';

/**
 * The digest of Ship24's courier list as the adapter makes it once it has read `GET /couriers`: part of the data
 * it fingerprints, since the list names the carrier of record.
 */
function couriersDigest(): string {
  const list = readCouriers(readFixture('ship24', 'couriers.json')) ?? new Map();
  return hash('sha256', JSON.stringify([...list.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), 'base64url');
}

let digest: string | undefined;

/**
 * The Ship24 aggregator (test/carriers/ship24/ship24-server.ts): an API key as a bearer token, one results call
 * per number by the tracker id Waybill made of it, and the courier list once. Every number was registered when
 * its tracking began, days before the run: its tracker is known.
 */
export const ship24: LocalCarrier = {
  id: 'ship24',
  number(serial) {
    // A UPU S10 number of a post no direct configuration tracks (China Post's): the aggregator's share of the work.
    const digits = pad(serial, 8);
    return `UA${digits}${s10CheckDigit(digits)}CN`;
  },
  serialAt: [2, 10],
  limits: {
    numbersPerCall: 1,
    concurrentCalls: 2,
    windows: [{ ms: 1000, max: 10 }],
    dailyQuota: null,
    source: 'one number per results call, 10 requests/s (Ship24’s rate limiter page); 2 in flight is the adapter’s',
  },
  settings: (credential) => ({ api_key: credential }),
  answers() {
    const story = (file: string, number: string) =>
      new Template(JSON.stringify(readFixture('ship24', file)), number, [{ text: clientTrackerId(number), of: clientTrackerId }]);
    const urgent = story('inpost-pl.json', '620000000000000000000011');
    const stories = {
      in_transit: story('international-us.json', '9400111202555000000010'),
      out_for_delivery: urgent,
      failed_attempt: urgent,
    };
    const trackers = new Map<string, string>();
    const trackerOf = (path: string) => RESULTS_PATH.exec(path)?.[1];
    const error = (code: string, message: string) => ({ errors: [{ code, message }], data: null });
    return {
      knows(numbers) {
        for (const number of numbers) trackers.set(clientTrackerId(number), number);
      },
      isTrack: (r) => r.method === 'GET' && (RESULTS_PATH.test(r.path) || r.path === COURIERS_PATH),
      apiKey: bearer,
      numbersOf: (r) => {
        const tracker = trackerOf(r.path);
        return tracker === undefined ? [] : [trackers.get(tracker) ?? tracker];
      },
      answer: (numbers, story, r) =>
        r.path === COURIERS_PATH
          ? json(200, readFixture('ship24', 'couriers.json'))
          : json(200, stories[story(numbers[0])].for(numbers[0])),
      rateLimited: (s) => json(429, error('too_many_requests', 'Too many requests.'), RETRY(s)),
      quotaSpent: () => json(403, readFixture('ship24', 'quota-exceeded.json')),
      tooManyNumbers: json(400, error('validation_error', 'Too many trackers.')),
      unauthorized: json(401, error('auth_invalid_api_key', 'Invalid API key.')),
    };
  },
  fingerprint(number, body) {
    digest ??= couriersDigest();
    return fingerprintOf('ship24', number, Buffer.concat([Buffer.from(body), Buffer.from(`\n${digest}`)]));
  },
};

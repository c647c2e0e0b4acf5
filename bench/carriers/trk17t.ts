import { s10CheckDigit } from '../../src/carriers/detect/s10.js';
import { mapTrackInfo } from '../../src/carriers/trk17t/trk17t.mapper.js';
import { json, RETRY, readFixture, Template } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

const TRACK_PATH = '/track/v2.2/gettrackinfo';

/**
 * The 17TRACK aggregator (test/carriers/trk17t/trk17t-server.ts): the security key as the 17token header, up to 40
 * numbers per gettrackinfo call. Every number was registered when its tracking began, days before the run.
 */
export const trk17t: LocalCarrier = {
  id: 'trk17t',
  number(serial) {
    // A UPU S10 number of a post no direct configuration tracks (China Post's): the aggregator's share of the work.
    const digits = pad(serial, 8);
    return `LX${digits}${s10CheckDigit(digits)}CN`;
  },
  serialAt: [2, 10],
  limits: {
    numbersPerCall: 40,
    concurrentCalls: 2,
    windows: [{ ms: 1000, max: 3 }],
    dailyQuota: null,
    source: '40 numbers per call, 3 requests/s per key (17TRACK); 2 in flight is the adapter’s',
  },
  settings: (credential) => ({ api_key: credential }),
  answers() {
    const entry = (file: string, number: string) => new Template(JSON.stringify(readFixture('trk17t', file).data.accepted[0]), number);
    const urgent = entry('inpost-locker.json', '630000000000000000000042');
    const stories = { in_transit: entry('international-cn-us.json', 'LX900043218CN'), out_for_delivery: urgent, failed_attempt: urgent };
    const refusal = (code: number, message: string) => ({ code, data: { errors: [{ code, message }] } });
    return {
      isTrack: (r) => r.method === 'POST' && r.path === TRACK_PATH,
      apiKey: (r) => (r.headers['17token'] as string | undefined) ?? null,
      numbersOf: (r) => (JSON.parse(r.body) as Array<{ number: string }>).map((item) => item.number),
      answer: (numbers, story) =>
        json(200, `{"code":0,"data":{"accepted":[${numbers.map((n) => stories[story(n)].for(n)).join(',')}],"rejected":[]}}`),
      rateLimited: (s) => json(429, refusal(-18010013, 'Too many requests.'), RETRY(s)),
      quotaSpent: () => json(200, refusal(-18019908, 'The quota has run out.')),
      tooManyNumbers: json(200, refusal(-18010014, 'Over 40 numbers.')),
      unauthorized: json(401, readFixture('trk17t', 'invalid-key.json')),
    };
  },
  // The number's entry as the mapper offers it to be compared.
  fingerprint(number, body) {
    let entry: object | null = null;
    mapTrackInfo(JSON.parse(body), [number], {
      unchanged: (_n, data) => {
        entry = data;
        return true;
      },
    });
    return fingerprintOf('trk17t', number, entry);
  },
};

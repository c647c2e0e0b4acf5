import { s10CheckDigit } from '../../src/carriers/detect/s10.js';
import { summaryEntryOf } from '../../src/carriers/royalm/royalm.answers.js';
import { readSummary } from '../../src/carriers/royalm/royalm.mapper.js';
import { type Incoming, json, RETRY, readFixture, Template } from '../carrier-answers.js';
import { type LocalCarrier, pad, type Story } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

const SUMMARY_PATH = '/mailpieces/v2/summary';
const EVENTS_PATH = /^\/mailpieces\/v2\/([^/]+)\/events$/;

/**
 * Royal Mail Tracking API v2 (test/carriers/royalm/royalm-server.ts): the client id and secret as headers, a
 * summary of up to 30 numbers, then the history of each number whose summary changed. Both calls count against
 * the rate; a number counts as polled once, in its summary.
 */
export const royalm: LocalCarrier = {
  id: 'royalm',
  number(serial) {
    // A UPU S10 number of Royal Mail's: two letters, 8 serial digits, the S10 check digit, GB.
    const digits = pad(serial, 8);
    return `QA${digits}${s10CheckDigit(digits)}GB`;
  },
  serialAt: [2, 10],
  limits: {
    numbersPerCall: 30,
    concurrentCalls: 2,
    windows: [{ ms: 1000, max: 2 }],
    dailyQuota: null,
    source: '30 numbers per summary (the Swagger document); Royal Mail publishes no rate: the adapter’s 2 in flight, 2/s',
  },
  settings: (credential, secret) => ({ client_id: credential, client_secret: secret }),
  answers() {
    const files: Record<Story, [string, string]> = {
      in_transit: ['events-international.json', 'QA900000067GB'],
      out_for_delivery: ['events-dst.json', 'QA900000084GB'],
      failed_attempt: ['events-attempted.json', 'QA900000036GB'],
    };
    const histories = {} as Record<Story, Template>;
    const summaries = {} as Record<Story, Template>;
    for (const [story, [file, number]] of Object.entries(files) as Array<[Story, [string, string]]>) {
      const history = readFixture('royalm', file);
      histories[story] = new Template(JSON.stringify(history), number);
      summaries[story] = new Template(JSON.stringify(summaryEntryOf(number, history)), number);
    }
    const eventsOf = (r: Incoming) => EVENTS_PATH.exec(r.path)?.[1];
    return {
      isTrack: (r) => r.method === 'GET' && (r.path === SUMMARY_PATH || EVENTS_PATH.test(r.path)),
      apiKey: (r) => (r.headers['x-ibm-client-id'] as string | undefined) ?? null,
      numbersOf: (r) => {
        const number = eventsOf(r);
        return number !== undefined ? [decodeURIComponent(number)] : (r.query.get('mailPieceId') ?? '').split(',');
      },
      counts: (r) => eventsOf(r) === undefined,
      answer: (numbers, story, r) =>
        eventsOf(r) !== undefined
          ? json(200, histories[story(numbers[0])].for(numbers[0]))
          : json(200, `{"mailPieces":[${numbers.map((n) => summaries[story(n)].for(n)).join(',')}]}`),
      rateLimited: (s) => json(429, readFixture('royalm', 'throttled.json'), RETRY(s)),
      quotaSpent: () => json(429, readFixture('royalm', 'throttled.json')),
      tooManyNumbers: json(400, { httpCode: '400', errors: [{ errorCode: 'E0013', errorDescription: 'Too many mail pieces' }] }),
      unauthorized: json(401, readFixture('royalm', 'unauthorized.json')),
    };
  },
  // The number's summary entry stands for its data (a body asked of `answerBody` is a summary).
  fingerprint(number, body) {
    const verdict = readSummary(JSON.parse(body), [number])?.get(number);
    return fingerprintOf('royalm', number, verdict?.kind === 'found' ? verdict.entry : null);
  },
};

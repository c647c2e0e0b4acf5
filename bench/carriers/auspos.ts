import { trackItemsAnswer } from '../../src/carriers/auspos/auspos.answers.js';
import { mapTrackBody } from '../../src/carriers/auspos/auspos.mapper.js';
import { basicUser, json, RETRY, readFixture, storyTemplates, Template } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

/** Australia Post "Track items" (test/carriers/auspos/): HTTP Basic with the API key, up to ten ids per call, ten calls a minute. */
export const auspos: LocalCarrier = {
  id: 'auspos',
  // An eParcel article id: location id WBX, the consignment's 7 digits, article 01, service 00, last article (2),
  // and a check digit whose method Australia Post does not publish.
  number: (serial) => `WBX${pad(serial, 7)}010020`,
  serialAt: [3, 10],
  limits: {
    numbersPerCall: 10,
    concurrentCalls: 2,
    windows: [{ ms: 60_000, max: 10 }],
    dailyQuota: null,
    source: 'ten ids per call, ten calls a minute (Australia Post); 2 in flight is the adapter’s',
  },
  settings: (credential, secret) => ({ api_key: credential, password: secret, account_number: '0009876543', environment: 'production' }),
  answers() {
    // Each story's result for its own id; the answer lists the ids asked in their order.
    const result = (file: string, id: string) => new Template(JSON.stringify(readFixture('auspos', file).body.tracking_results[0]), id);
    const stories = storyTemplates((story) =>
      story === 'in_transit' ? result('dst-autumn.json', 'WBX9000018010020') : result('parcel-locker.json', 'WBX9000002010020'),
    );
    const fixture = (file: string) => readFixture('auspos', file) as { status: number; body: unknown };
    const reply = (file: string, headers: Record<string, string> = {}) => json(fixture(file).status, fixture(file).body, headers);
    return {
      isTrack: (r) => r.method === 'GET' && r.path === '/shipping/v1/track',
      apiKey: basicUser,
      numbersOf: (r) => (r.query.get('tracking_ids') ?? '').split(',').filter(Boolean),
      answer: (numbers, story) =>
        json(
          200,
          trackItemsAnswer(numbers, (id) => JSON.parse(stories[story(id)].for(id))),
        ),
      rateLimited: (s) => reply('throttled.json', RETRY(s)),
      quotaSpent: () => reply('throttled.json'),
      tooManyNumbers: reply('too-many-ids.json'),
      unauthorized: reply('unauthorized.json'),
    };
  },
  // The number's result as the mapper offers it to be compared.
  fingerprint(number, body) {
    let entry: object | null = null;
    mapTrackBody(JSON.parse(body), [number], undefined, (_n, data) => {
      entry = data;
      return true;
    });
    return fingerprintOf('auspos', number, entry);
  },
};

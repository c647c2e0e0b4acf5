import { CANPOS_TRACK_MEDIA_TYPE } from '../../src/carriers/canpos/canpos.carrier.js';
import { gs1CheckDigit } from '../../src/carriers/detect/check-digits.js';
import { basicUser, fixtureText, RETRY, type Reply, Template } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

const xml = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': CANPOS_TRACK_MEDIA_TYPE, ...headers },
  body,
});

/** Canada Post Get Tracking Details (test/carriers/canpos/canpos-server.ts): HTTP Basic, one PIN per path, XML answers. */
export const canpos: LocalCarrier = {
  id: 'canpos',
  number(serial) {
    // A 16-digit PIN with its GS1 modulo-10 check digit.
    const body = `7023${pad(serial, 11)}`;
    return `${body}${gs1CheckDigit(body)}`;
  },
  serialAt: [4, 15],
  limits: {
    numbersPerCall: 1,
    concurrentCalls: 2,
    windows: [{ ms: 1000, max: 2 }],
    dailyQuota: null,
    source: 'one PIN per path; Canada Post publishes no figures (a throttle per key): the adapter’s 2 in flight, 2/s',
  },
  settings: (credential, secret) => ({ username: credential, password: secret, environment: 'production' }),
  answers() {
    const story = (file: string, pin: string) => new Template(fixtureText('canpos', file), pin);
    const stories = {
      in_transit: story('in-transit.xml', '7023000000000024'),
      out_for_delivery: story('out-for-delivery.xml', '7023000000000031'),
      failed_attempt: story('pickup-post-office.xml', '7023000000000048'),
    };
    const throttled = fixtureText('canpos', 'throttled.xml');
    return {
      isTrack: (r) => r.method === 'GET' && /^\/vis\/track\/pin\/[^/]+\/detail$/.test(r.path),
      apiKey: basicUser,
      numbersOf: (r) => [decodeURIComponent(r.path.split('/')[4] ?? '')],
      answer: (numbers, story) => xml(200, stories[story(numbers[0])].for(numbers[0])),
      // Canada Post's throttle: "Rejected by SLM Monitor", the key blocked for up to a minute.
      rateLimited: (s) => xml(429, throttled, RETRY(s)),
      quotaSpent: () => xml(429, throttled),
      tooManyNumbers: xml(400, fixtureText('canpos', 'duplicate.xml')),
      unauthorized: xml(401, fixtureText('canpos', 'unauthorized.xml')),
    };
  },
  // The body is the number's alone: the adapter fingerprints it as received.
  fingerprint: (number, body) => fingerprintOf('canpos', number, Buffer.from(body)),
};

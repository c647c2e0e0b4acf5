import { dpdCheckCharacter } from '../../src/carriers/detect/dpdeur.js';
import { requestElement } from '../../src/carriers/dpdeur/dpdeur.soap.js';
import { fixtureText, RETRY, type Reply } from '../carrier-answers.js';
import { type LocalCarrier, pad } from '../local-carriers.js';
import { fingerprintOf } from '../poll-history.js';

const xml = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'text/xml; charset=utf-8', ...headers },
  body,
});

/**
 * DPD Germany's Web Services (test/carriers/dpdeur/dpdeur-server.ts): a LoginService token per account, then one
 * ParcelLifeCycleService call per parcel number, the token in the SOAP header. DPD's answers do not repeat the
 * number asked, so each story's answer is the same text for every number.
 */
export const dpdeur: LocalCarrier = {
  id: 'dpdeur',
  number(serial) {
    // Depot (4) and serial (10), then the ISO/IEC 7064 MOD 37,36 check character printed beside them.
    const parcel = `0998${pad(serial, 10)}`;
    return `${parcel}${dpdCheckCharacter(parcel)}`;
  },
  serialAt: [4, 14],
  // The adapter asks for the 14 digits without the check character.
  askedAs: (number) => number.slice(0, 14),
  limits: {
    numbersPerCall: 1,
    concurrentCalls: 2,
    windows: [{ ms: 1000, max: 2 }],
    dailyQuota: null,
    source: 'one parcelLabelNumber per getTrackingData; DPD publishes no rate: the adapter’s 2 in flight, 2/s (logins apart)',
  },
  settings: (credential, secret) => ({ delis_id: credential, password: secret, environment: 'production' }),
  answers() {
    const stories = {
      in_transit: fixtureText('dpdeur', 'de-in-transit.xml'),
      out_for_delivery: fixtureText('dpdeur', 'de-out-for-delivery.xml'),
      failed_attempt: fixtureText('dpdeur', 'de-out-for-delivery.xml'),
    };
    const login = fixtureText('dpdeur', 'login.xml');
    const fault = fixtureText('dpdeur', 'fault-server.xml');
    return {
      token: {
        path: '/services/LoginService/V2_0/',
        clientOf: (r) => requestElement(r.body, 'delisId'),
        answer: (token) =>
          xml(
            200,
            login.replace('TOKEN_PLACEHOLDER', token).replace('EXPIRES_PLACEHOLDER', new Date(Date.now() + 86_400_000).toISOString()),
          ),
      },
      isTrack: (r) => r.method === 'POST' && r.path === '/services/ParcelLifeCycleService/V2_0/',
      tokenOf: (r) => requestElement(r.body, 'authToken'),
      numbersOf: (r) => [requestElement(r.body, 'parcelLabelNumber') ?? ''],
      answer: (numbers, story) => xml(200, stories[story(numbers[0])]),
      // DPD documents no throttle answer: a server fault with the status transports read as a throttle.
      rateLimited: (s) => xml(429, fault, RETRY(s)),
      quotaSpent: () => xml(429, fault),
      tooManyNumbers: xml(500, fixtureText('dpdeur', 'fault-client.xml')),
      unauthorized: xml(500, fixtureText('dpdeur', 'fault-token.xml')),
    };
  },
  // The body is the number's alone: the adapter fingerprints it as received.
  fingerprint: (number, body) => fingerprintOf('dpdeur', number, Buffer.from(body)),
};

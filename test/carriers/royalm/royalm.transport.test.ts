import { PNG } from 'pngjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProofOfDelivery, TrackRequest, TrackResult } from '../../../src/carriers/carrier.js';
import { RoyalMailCarrier } from '../../../src/carriers/royalm/royalm.carrier.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { localToolkit, requestsFor, trackOne } from '../support/kit.js';
import { royalmFixture } from './fixtures.js';
import {
  askedIn,
  CLIENT_ID,
  CLIENT_SECRET,
  EVENTS_PATH,
  fastClock,
  royalmAdapter,
  royalmServer,
  SETTINGS,
  SIGNATURE_PATH,
  SUMMARY_PATH,
  UNKNOWN,
} from './royalm-server.js';

let server: CarrierServer;
let adapter: RoyalMailCarrier;

beforeEach(async () => {
  server = await royalmServer();
  adapter = royalmAdapter(server, fastClock()).adapter;
});

afterEach(async () => {
  await server.close();
});

const track = (numbers: string[], settings: Record<string, unknown> = SETTINGS) =>
  adapter.track(requestsFor(...numbers), settings, { now: new Date() });
const trackWith = (requests: TrackRequest[]) => adapter.track(requests, SETTINGS, { now: new Date() });

function proofOf(result: TrackResult): ProofOfDelivery {
  if (result.status !== 'ok' || !result.proof_of_delivery) throw new Error('no proof of delivery');
  return result.proof_of_delivery;
}

/** `count` valid-looking numbers Royal Mail does not know. */
function unknownNumbers(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `QB${String(80_000_000 + i)}0GB`);
}

describe('Royal Mail transport: requests', () => {
  it('asks the summary, then the history, with the client id, secret and terms headers', async () => {
    const result = await trackOne(adapter, 'QA900000019GB', SETTINGS);
    expect(result.status).toBe('ok');
    expect(server.requests.map((r) => r.path)).toEqual([SUMMARY_PATH, '/mailpieces/v2/QA900000019GB/events']);
    for (const request of server.requests) {
      expect(request.method).toBe('GET');
      expect(request.headers['x-ibm-client-id']).toBe(CLIENT_ID);
      expect(request.headers['x-ibm-client-secret']).toBe(CLIENT_SECRET);
      expect(request.headers['x-accept-rmg-terms']).toBe('yes');
      expect(request.headers.accept).toBe('application/json');
      expect(request.headers.authorization).toBeUndefined();
    }
    expect(askedIn(server.to(SUMMARY_PATH)[0])).toEqual(['QA900000019GB']);
  });

  it('production only, at api.royalmail.net', () => {
    const plain = new RoyalMailCarrier(localToolkit('other', 'http://127.0.0.1:1'));
    expect(plain.environments).toEqual(['production']);
    expect((plain as unknown as { baseUrls: Record<string, string> }).baseUrls).toEqual({ production: 'https://api.royalmail.net' });
  });

  it('summaries of at most 30 numbers; unknown numbers are answered by the summary alone', async () => {
    const numbers = unknownNumbers(65);
    const results = await track(numbers);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    const summaries = server.to(SUMMARY_PATH);
    expect(summaries.map((r) => askedIn(r).length).sort((a, b) => b - a)).toEqual([30, 30, 5]);
    expect(summaries.flatMap(askedIn).sort()).toEqual([...numbers].sort());
    expect(server.to(EVENTS_PATH)).toHaveLength(0);
  });

  it('one result per request in order; a number asked twice is asked once; events oldest first', async () => {
    const numbers = ['QA900000053GB', UNKNOWN, 'qa 900000019 gb', 'QA900000022GB', 'QA900000053GB'];
    const results = await track(numbers);
    expect(results.map((r) => [r.tracking_number, r.status])).toEqual([
      ['QA900000053GB', 'ok'],
      [UNKNOWN, 'not_found'],
      ['qa 900000019 gb', 'ok'],
      ['QA900000022GB', 'ok'],
      ['QA900000053GB', 'ok'],
    ]);
    expect(askedIn(server.to(SUMMARY_PATH)[0])).toEqual(['QA900000053GB', UNKNOWN, 'QA900000019GB', 'QA900000022GB']);
    expect(server.to(EVENTS_PATH).map((r) => r.path.split('/')[3])).toEqual(['QA900000053GB', 'QA900000019GB', 'QA900000022GB']);
    const delivered = results[2];
    expect(delivered.status === 'ok' && delivered.events.map((e) => e.additional_info.carrier_code)).toEqual([
      'EVAIP',
      'EVPPA',
      'EVDAC',
      'EVIMC',
      'EVGPD',
      'EVKSP',
    ]);
  });

  it('a summary as stored answers unchanged without the history; a new summary fetches it', async () => {
    const [first] = await track(['QA900000019GB']);
    expect(first.status === 'ok' && first.fingerprint).toEqual(expect.any(String));
    const fingerprint = first.status === 'ok' ? first.fingerprint : undefined;
    server.requests.length = 0;
    const [again] = await trackWith([{ ...requestsFor('QA900000019GB')[0], known_answer: fingerprint }]);
    expect(again).toEqual({ status: 'unchanged', tracking_number: 'QA900000019GB', fingerprint });
    expect(server.requests.map((r) => r.path)).toEqual([SUMMARY_PATH]);
    // A new last event: the summary differs, so the history is read again.
    server.once(SUMMARY_PATH, {
      status: 200,
      body: {
        mailPieces: [{ mailPieceId: 'QA900000019GB', status: '200', summary: { oneDBarcode: 'QA900000019GB', lastEventCode: 'EVNRT' } }],
      },
    });
    const [changed] = await trackWith([{ ...requestsFor('QA900000019GB')[0], known_answer: fingerprint }]);
    expect(changed.status).toBe('ok');
    expect(changed.status === 'ok' && changed.fingerprint).not.toBe(fingerprint);
    expect(server.to(EVENTS_PATH)).toHaveLength(1);
  });

  it('a number the summary leaves out is asked for its history directly, and fingerprinted on it', async () => {
    await server.close();
    server = await royalmServer({ withoutSummary: new Set(['QA900000022GB']) });
    adapter = royalmAdapter(server, fastClock()).adapter;
    const [first, other] = await track(['QA900000022GB', 'QA900000036GB']);
    expect([first.status, other.status]).toEqual(['ok', 'ok']);
    const fingerprint = first.status === 'ok' ? first.fingerprint : undefined;
    const [again] = await trackWith([{ ...requestsFor('QA900000022GB')[0], known_answer: fingerprint }]);
    expect(again).toEqual({ status: 'unchanged', tracking_number: 'QA900000022GB', fingerprint });
    expect(server.to('/mailpieces/v2/QA900000022GB/events')).toHaveLength(2);
  });

  it('history calls of a batch go one after another: never more in flight than limits.concurrent_calls', async () => {
    await server.close();
    server = await royalmServer({ delayMs: 150 });
    adapter = royalmAdapter(server, fastClock()).adapter;
    const numbers = ['QA900000019GB', 'QA900000022GB', 'QA900000036GB', 'QA900000040GB', 'QA900000053GB', ...unknownNumbers(60)];
    const results = await track(numbers);
    expect(results.filter((r) => r.status === 'ok')).toHaveLength(5);
    expect(server.to(SUMMARY_PATH)).toHaveLength(3);
    expect(server.to(EVENTS_PATH)).toHaveLength(5);
    expect(server.maxInFlight).toBeLessThanOrEqual(adapter.limits.concurrent_calls);
    expect(server.maxInFlight).toBeGreaterThan(1);
  });

  it('poll capacity counts the histories its numbers have needed, not only a summary per 30 numbers', async () => {
    // The clock is moved an hour on before each reading: the credential's next call is then due at once, and a
    // minute holds 1 + 60,000 / 530 = 114 calls at two a second (5% and 5 ms to spare).
    let ahead = 0;
    const fast = fastClock();
    const { adapter: sized } = royalmAdapter(server, () => fast() + ahead);
    const capacity = () => {
      ahead += 3_600_000;
      return sized.pollCapacity(SETTINGS, 60_000).numbers;
    };
    // Before any poll: 30 numbers a call, as if no history were needed (a first poll of a few numbers is one batch).
    expect(capacity()).toBe(114 * 30);
    const first = await sized.track(requestsFor('QA900000019GB', 'QA900000036GB', 'QA900000040GB', UNKNOWN), SETTINGS, { now: new Date() });
    expect(server.to(EVENTS_PATH)).toHaveLength(3);
    // Three histories for four numbers: a number costs 1/30 of a summary and 3/4 of a history call.
    expect(capacity()).toBe(Math.floor((114 * 30) / (1 + 30 * 0.75)));
    // Asked again as stored, the same three need no history: the credential is given more numbers again.
    const stored = first
      .slice(0, 3)
      .map((r) => ({ ...requestsFor(r.tracking_number)[0], known_answer: 'fingerprint' in r ? r.fingerprint : null }));
    const again = await sized.track(stored, SETTINGS, { now: new Date() });
    expect(again.map((r) => r.status)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(server.to(EVENTS_PATH)).toHaveLength(3);
    const after = capacity();
    expect(after).toBeGreaterThan(Math.floor((114 * 30) / (1 + 30 * 0.75)));
    expect(after).toBeLessThan(114 * 30);
  });

  it('counts codes its table lacks', async () => {
    const { adapter: counted, kit } = royalmAdapter(server, fastClock());
    await trackOne(counted, 'QA900000075GB', SETTINGS);
    const metrics = await kit.metrics.registry.getMetricsAsJSON();
    const unmapped = metrics.find((m) => m.name === 'waybill_carrier_unmapped_codes_total');
    const codes = (unmapped?.values ?? []).map((v) => v.labels.code);
    expect(codes).toEqual(expect.arrayContaining(['EVQQQ', 'NRDSS']));
    expect(codes).not.toContain('EVDAC');
  });
});

describe('Royal Mail transport: answers', () => {
  it('an unknown number asked for its history (404, E1142) is not found', async () => {
    await server.close();
    server = await royalmServer({ withoutSummary: new Set([UNKNOWN]) });
    adapter = royalmAdapter(server, fastClock()).adapter;
    expect(await trackOne(adapter, UNKNOWN, SETTINGS)).toEqual({ status: 'not_found', tracking_number: UNKNOWN });
    expect(server.to(EVENTS_PATH)).toHaveLength(1);
  });

  it('a summary that is not JSON is retryable for every number; a 400 (E0004) is not', async () => {
    server.once(SUMMARY_PATH, { status: 200, body: '<html>maintenance</html>' });
    const unreadable = await track(['QA900000019GB', UNKNOWN]);
    expect(unreadable.map((r) => [r.status, r.status === 'error' && r.retryable])).toEqual([
      ['error', true],
      ['error', true],
    ]);
    server.once(SUMMARY_PATH, { status: 400, body: royalmFixture('bad-request') });
    const refused = await track(['QA900000019GB']);
    expect(refused[0]).toMatchObject({ status: 'error', retryable: false });
    expect(refused[0].status === 'error' && refused[0].message).toContain('E0004');
  });

  it('one history failing leaves the others answered', async () => {
    server.once('/mailpieces/v2/QA900000022GB/events', { status: 500, body: 'boom' });
    server.once('/mailpieces/v2/QA900000022GB/events', { status: 500, body: 'boom' });
    const results = await track(['QA900000019GB', 'QA900000022GB', 'QA900000036GB']);
    expect(results.map((r) => r.status)).toEqual(['ok', 'error', 'ok']);
    expect(results[1]).toMatchObject({ retryable: true, tracking_number: 'QA900000022GB' });
  });

  it('401: refused credentials are not retried, and no history is asked', async () => {
    const results = await track(['QA900000019GB', 'QA900000022GB'], { ...SETTINGS, client_secret: 'wrong-secret-1' });
    for (const result of results) {
      expect(result).toMatchObject({ status: 'error', retryable: false });
      expect(result.status === 'error' && result.message).toContain('HTTP 401');
    }
    expect(server.requests.map((r) => r.path)).toEqual([SUMMARY_PATH]);
  });

  it('429 with Retry-After seconds pauses the credential; the next call does not reach Royal Mail', async () => {
    adapter = royalmAdapter(server).adapter;
    server.once(SUMMARY_PATH, { status: 429, headers: { 'retry-after': '7' }, body: royalmFixture('throttled') });
    const first = await trackOne(adapter, 'QA900000019GB', SETTINGS);
    expect(first).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const second = await trackOne(adapter, 'QA900000022GB', SETTINGS);
    expect(second).toMatchObject({ status: 'error', retryable: true, throttled: 'rate' });
    expect(second.status === 'error' && second.retry_after_seconds).toBeGreaterThanOrEqual(6);
    expect(server.requests).toHaveLength(1);
  });

  it('429 on a history call: the batch’s later histories are not asked, and the credential pauses', async () => {
    adapter = royalmAdapter(server).adapter;
    server.once('/mailpieces/v2/QA900000022GB/events', { status: 429, headers: { 'retry-after': '30' }, body: royalmFixture('throttled') });
    const results = await track(['QA900000019GB', 'QA900000022GB', 'QA900000036GB']);
    expect(results.map((r) => r.status)).toEqual(['ok', 'error', 'error']);
    expect(results[1]).toMatchObject({ throttled: 'rate', retry_after_seconds: 30 });
    expect(results[2]).toMatchObject({ throttled: 'rate', tracking_number: 'QA900000036GB' });
    expect(server.to(EVENTS_PATH).map((r) => r.path.split('/')[3])).toEqual(['QA900000019GB', 'QA900000022GB']);
    expect(await trackOne(adapter, 'QA900000040GB', SETTINGS)).toMatchObject({ status: 'error', throttled: 'rate' });
    expect(server.to(SUMMARY_PATH)).toHaveLength(1);
  });

  it('429 with an HTTP date', async () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    const dated = royalmAdapter(server, () => now).adapter;
    server.once(SUMMARY_PATH, { status: 429, headers: { 'retry-after': 'Fri, 20 Nov 2026 10:01:30 GMT' } });
    const result = await trackOne(dated, 'QA900000019GB', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 90 });
    expect(await trackOne(dated, 'QA900000022GB', SETTINGS)).toMatchObject({ throttled: 'rate', retry_after_seconds: 90 });
    expect(server.requests).toHaveLength(1);
  });

  it('503 is retried once, then reported', async () => {
    server.once(SUMMARY_PATH, { status: 503, body: 'unavailable' });
    expect((await trackOne(adapter, UNKNOWN, SETTINGS)).status).toBe('not_found');
    expect(server.to(SUMMARY_PATH)).toHaveLength(2);
    server.once(SUMMARY_PATH, { status: 503, body: 'unavailable' });
    server.once(SUMMARY_PATH, { status: 503, body: 'unavailable' });
    const failed = await trackOne(adapter, UNKNOWN, SETTINGS);
    expect(failed).toMatchObject({ status: 'error', retryable: true });
    expect(failed.status === 'error' && failed.message).toContain('HTTP 503');
    expect(server.to(SUMMARY_PATH)).toHaveLength(4);
  });

  it('a call hanging past the deadline is abandoned', async () => {
    server.once(SUMMARY_PATH, { hang: true });
    const started = Date.now();
    const [result] = await adapter.track(requestsFor('QA900000019GB'), SETTINGS, { now: new Date(), signal: AbortSignal.timeout(300) });
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('an answer over 4 MiB is refused and not retried', async () => {
    server.once(SUMMARY_PATH, { status: 200, body: `{"mailPieces":[],"x":"${'x'.repeat(4 * 1_048_576 + 10)}"}` });
    const result = await trackOne(adapter, 'QA900000019GB', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('a configuration without its secret is refused before any call', async () => {
    const [result] = await track(['QA900000019GB'], { client_id: CLIENT_ID });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('client_secret');
    expect(server.requests).toHaveLength(0);
  });

  it('the operator’s client id and secret serve configurations without them', async () => {
    const kit = localToolkit('royalm', server.url, {
      WAYBILL_CARRIER_ROYALM_CLIENT_ID: CLIENT_ID,
      WAYBILL_CARRIER_ROYALM_CLIENT_SECRET: CLIENT_SECRET,
    });
    const operated = new RoyalMailCarrier(kit);
    expect((await trackOne(operated, 'QA900000019GB', {})).status).toBe('ok');
    expect(server.requests[0].headers['x-ibm-client-secret']).toBe(CLIENT_SECRET);
  });

  it('no secret appears in any result, even when Royal Mail echoes it', async () => {
    server.once(SUMMARY_PATH, { status: 400, body: { httpCode: '400', moreInformation: `Bad request for ${CLIENT_SECRET}` } });
    server.once(SUMMARY_PATH, { status: 401, body: { moreInformation: `Client ${CLIENT_ID} with ${CLIENT_SECRET} refused` } });
    server.once(SUMMARY_PATH, { status: 503, body: `down for ${CLIENT_SECRET}` });
    server.once(SUMMARY_PATH, { status: 503, body: `down for ${CLIENT_SECRET}` });
    server.once(EVENTS_PATH, { status: 400, body: { errors: [{ errorCode: 'E0000', errorDescription: `secret ${CLIENT_SECRET}` }] } });
    const results = [
      await trackOne(adapter, 'QA900000019GB', SETTINGS),
      await trackOne(adapter, 'QA900000019GB', SETTINGS),
      await trackOne(adapter, 'QA900000019GB', SETTINGS),
      ...(await track(['QA900000019GB', 'QA900000036GB', UNKNOWN])),
    ];
    expect(results.slice(0, 4).every((r) => r.status === 'error')).toBe(true);
    expect(JSON.stringify(results)).not.toContain(CLIENT_SECRET);
    expect(JSON.stringify(results)).not.toContain(CLIENT_ID);
  });
});

describe('Royal Mail transport: proof of delivery', () => {
  it('offers the signature of a signed-for item with the signer, downloaded only when asked, as PNG', async () => {
    const proof = proofOf(await trackOne(adapter, 'QA900000019GB', SETTINGS));
    expect(proof).toMatchObject({
      reference: 'signature:QA900000019GB:900019',
      signed_by: 'TESTER',
      content_type: 'image/png',
      file_name: 'QA900000019GB-signature.png',
    });
    expect(server.to(SIGNATURE_PATH)).toHaveLength(0);
    const fetched = await proof.fetch({});
    expect(fetched.status).toBe('ok');
    if (fetched.status !== 'ok') return;
    expect(PNG.sync.read(fetched.content)).toMatchObject({ width: 300, height: 120 });
    const [request] = server.to(SIGNATURE_PATH);
    expect(request.path).toBe('/mailpieces/v2/QA900000019GB/signature');
    expect(request.headers['x-ibm-client-id']).toBe(CLIENT_ID);
    expect(request.headers['x-accept-rmg-terms']).toBe('yes');
  });

  it('a PNG signature is kept as it is', async () => {
    const proof = proofOf(await trackOne(adapter, 'QA900000019GB', SETTINGS));
    server.once(SIGNATURE_PATH, { status: 200, body: royalmFixture('signature-png') });
    const fetched = await proof.fetch({});
    expect(fetched.status === 'ok' && PNG.sync.read(fetched.content).width).toBe(2);
  });

  it('no proof for the product (404, E1145) is a failure that is not retried; a 500 is retried later', async () => {
    const proof = proofOf(await trackOne(adapter, 'QA900000019GB', SETTINGS));
    server.once(SIGNATURE_PATH, { status: 404, body: royalmFixture('signature-missing') });
    const missing = await proof.fetch({});
    expect(missing).toMatchObject({ status: 'error', retryable: false });
    expect(missing.status === 'error' && missing.message).toContain('E1145');
    server.once(SIGNATURE_PATH, { status: 500, body: {} });
    server.once(SIGNATURE_PATH, { status: 500, body: {} });
    expect(await proof.fetch({})).toMatchObject({ status: 'error', retryable: true });
  });

  it('a throttled signature call pauses the credential like a tracking call', async () => {
    adapter = royalmAdapter(server).adapter;
    const proof = proofOf(await trackOne(adapter, 'QA900000019GB', SETTINGS));
    server.once(SIGNATURE_PATH, { status: 429, headers: { 'retry-after': '9' } });
    expect(await proof.fetch({})).toMatchObject({ status: 'error', throttled: 'rate', retry_after_seconds: 9 });
    expect(await trackOne(adapter, 'QA900000022GB', SETTINGS)).toMatchObject({ status: 'error', throttled: 'rate' });
    expect(server.to(SUMMARY_PATH)).toHaveLength(1);
  });

  it('items delivered without a signature offer none', async () => {
    const result = await trackOne(adapter, 'QA900000022GB', SETTINGS);
    expect(result.status === 'ok' && result.proof_of_delivery).toBeUndefined();
  });
});

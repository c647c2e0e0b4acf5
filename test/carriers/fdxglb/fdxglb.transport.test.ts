import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { KnownAnswers } from '../../../src/carriers/sdk/known-answers.js';
import { requestsFor, trackOne } from '../support/kit.js';
import { answerFor, CLIENT_ID, CLIENT_SECRET, fixture, type LocalFedex, localFedex, numbersAsked, SETTINGS } from './fdxglb.fixtures.js';

const TRACK = '/track/v1/trackingnumbers';
const TOKEN = '/oauth/token';
const DOCUMENTS = '/track/v1/trackingdocuments';
const NUMBERS_FILE: Record<string, string> = { '799900000043': 'in-transit.json', '799900000087': 'customs.json' };
const ACCESS_TOKEN = (fixture('token.json') as { access_token: string }).access_token;

/** Synthetic numbers for batches: the content does not matter, the local FedEx answers them not found. */
function manyNumbers(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `7${String(i).padStart(11, '0')}`);
}

function expectNoSecrets(value: unknown): void {
  const text = JSON.stringify(value);
  for (const secret of [CLIENT_SECRET, CLIENT_ID, ACCESS_TOKEN]) expect(text).not.toContain(secret);
}

describe('fdxglb transport against a local FedEx', () => {
  let fedex: LocalFedex;
  afterEach(async () => {
    await fedex?.close();
  });

  it('gets a token with the client credentials as form fields, then tracks with the headers FedEx documents', async () => {
    fedex = await localFedex();
    const result = await trackOne(fedex.adapter, '799900000021', SETTINGS);
    expect(result.status).toBe('ok');

    const [token] = fedex.server.to(TOKEN);
    expect(token.method).toBe('POST');
    expect(token.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(token.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });

    const [track] = fedex.server.to(TRACK);
    expect(track.method).toBe('POST');
    expect(track.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(track.headers['content-type']).toBe('application/json');
    expect(track.headers['x-locale']).toBe('en_US');
    expect(track.headers['x-customer-transaction-id']).toMatch(/^waybill-[0-9a-f-]{36}$/);
    expect(JSON.parse(track.body)).toEqual({
      includeDetailedScans: true,
      trackingInfo: [{ trackingNumberInfo: { trackingNumber: '799900000021' } }],
    });
  });

  it('sends at most 30 numbers per call and answers every request in request order', async () => {
    fedex = await localFedex();
    const numbers = ['799900000043', ...manyNumbers(63), '799900000021'];
    const results = await fedex.adapter.track(requestsFor(...numbers), SETTINGS, { now: new Date() });
    const sizes = fedex.server.to(TRACK).map((request) => numbersAsked(request.body).length);
    expect(sizes.sort((a, b) => b - a)).toEqual([30, 30, 5]);
    expect(results.map((result) => result.tracking_number)).toEqual(numbers);
    expect(results.map((result) => result.status)).toEqual(['ok', ...Array(63).fill('not_found'), 'ok']);
    const ids = fedex.server.to(TRACK).map((request) => request.headers['x-customer-transaction-id']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('asks for one token however many polls use it', async () => {
    fedex = await localFedex();
    for (let i = 0; i < 5; i++) {
      await fedex.adapter.track(requestsFor('799900000043', '799900000087'), SETTINGS, { now: new Date() });
    }
    expect(fedex.server.to(TOKEN)).toHaveLength(1);
    expect(fedex.server.to(TRACK)).toHaveLength(5);
  });

  it('never has more calls in flight than limits.concurrent_calls', async () => {
    fedex = await localFedex({ track: (request) => ({ body: answerFor(request.body), delayMs: 400 }) });
    const results = await fedex.adapter.track(requestsFor(...manyNumbers(240)), SETTINGS, { now: new Date() });
    expect(results).toHaveLength(240);
    expect(fedex.server.to(TRACK)).toHaveLength(8);
    expect(fedex.server.maxInFlight).toBeLessThanOrEqual(fedex.adapter.limits.concurrent_calls);
    expect(fedex.server.maxInFlight).toBeGreaterThan(1);
  });

  it('a 401 drops the token: a new one is fetched and the call retried once', async () => {
    fedex = await localFedex();
    fedex.server.once(TRACK, {
      status: 401,
      body: { errors: [{ code: 'NOT.AUTHORIZED.ERROR', message: 'Access token expired. Please modify your request and try again.' }] },
    });
    const result = await trackOne(fedex.adapter, '799900000043', SETTINGS);
    expect(result.status).toBe('ok');
    expect(fedex.server.to(TOKEN)).toHaveLength(2);
    expect(fedex.server.to(TRACK)).toHaveLength(2);
  });

  it('a 429 with Retry-After: 7 pauses the credential; the next track call returns the pause without calling FedEx', async () => {
    fedex = await localFedex();
    fedex.server.once(TRACK, { status: 429, headers: { 'retry-after': '7' }, body: fixture('rate-limited.json') });
    const [first] = await fedex.adapter.track(requestsFor('799900000043'), SETTINGS, { now: new Date() });
    expect(first).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const calls = fedex.server.to(TRACK).length;
    const [second] = await fedex.adapter.track(requestsFor('799900000087'), SETTINGS, { now: new Date() });
    expect(second).toMatchObject({ status: 'error', throttled: 'rate', retryable: true });
    expect((second as { retry_after_seconds: number }).retry_after_seconds).toBeLessThanOrEqual(7);
    expect(fedex.server.to(TRACK)).toHaveLength(calls);
  });

  it('a 429 with an HTTP date in Retry-After', async () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    fedex = await localFedex({ now: () => now });
    fedex.server.once(TRACK, {
      status: 429,
      headers: { 'retry-after': new Date(now + 120_000).toUTCString() },
      body: fixture('rate-limited.json'),
    });
    const result = await trackOne(fedex.adapter, '799900000043', SETTINGS);
    expect(result).toMatchObject({ status: 'error', throttled: 'rate', retry_after_seconds: 120 });
  });

  it('a 429 without Retry-After waits out FedEx’s 10-second window', async () => {
    fedex = await localFedex();
    fedex.server.once(TRACK, { status: 429, body: fixture('rate-limited.json') });
    expect(await trackOne(fedex.adapter, '799900000043', SETTINGS)).toMatchObject({ throttled: 'rate', retry_after_seconds: 10 });
  });

  it('the daily quota answer pauses the credential until midnight GMT', async () => {
    const now = Date.parse('2026-11-23T22:30:00Z');
    fedex = await localFedex({ now: () => now });
    fedex.server.once(TRACK, { status: 429, body: fixture('quota-exceeded.json') });
    const result = await trackOne(fedex.adapter, '799900000043', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: true, throttled: 'quota', retry_after_seconds: 90 * 60 });
    const calls = fedex.server.to(TRACK).length;
    const [next] = await fedex.adapter.track(requestsFor('799900000087'), SETTINGS, { now: new Date(now) });
    expect(next).toMatchObject({ status: 'error', throttled: 'quota', retry_after_seconds: 90 * 60 });
    expect(fedex.server.to(TRACK)).toHaveLength(calls);
  });

  it('a 503 is retried once, then reported as a retryable error', async () => {
    const unavailable = { errors: [{ code: 'SERVICE.UNAVAILABLE.ERROR', message: 'The service is currently unavailable.' }] };
    fedex = await localFedex({ track: () => ({ status: 503, body: unavailable }) });
    const result = await trackOne(fedex.adapter, '799900000043', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(fedex.server.to(TRACK)).toHaveLength(2);
  });

  it('a 503 once then an answer succeeds', async () => {
    fedex = await localFedex();
    fedex.server.once(TRACK, { status: 503, body: {} });
    expect((await trackOne(fedex.adapter, '799900000043', SETTINGS)).status).toBe('ok');
  });

  it('a call that hangs is abandoned at the deadline', async () => {
    fedex = await localFedex({ track: () => ({ hang: true }) });
    const started = Date.now();
    const [result] = await fedex.adapter.track(requestsFor('799900000043'), SETTINGS, {
      now: new Date(),
      signal: AbortSignal.timeout(300),
    });
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('an answer over 4 MiB is refused without retrying', async () => {
    fedex = await localFedex({
      track: () => ({ body: `{"output":{"completeTrackResults":[],"pad":"${'x'.repeat(4 * 1_048_576 + 10)}"}}` }),
    });
    const result = await trackOne(fedex.adapter, '799900000043', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(fedex.server.to(TRACK)).toHaveLength(1);
  });

  it('a 400 is reported with FedEx’s code and not retried', async () => {
    fedex = await localFedex({ track: () => ({ status: 400, body: fixture('bad-request.json') }) });
    const result = await trackOne(fedex.adapter, '799900000043', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('TRACKING.TRACKINGNUMBER.EMPTY') });
  });

  it('a 200 that is not a tracking answer is a retryable error (a proxy page, a truncated body), not a crash', async () => {
    for (const body of [fixture('malformed.json'), 'not json at all']) {
      fedex = await localFedex({ track: () => ({ body }) });
      const result = await trackOne(fedex.adapter, '799900000293', SETTINGS);
      expect(result).toMatchObject({ status: 'error', retryable: true, message: expect.stringContaining('could not be read') });
      await fedex.close();
    }
  });

  it('refused credentials are a non-retryable error; no secret appears in any result', async () => {
    fedex = await localFedex();
    fedex.server.once(TOKEN, {
      status: 401,
      body: {
        errors: [{ code: 'NOT.AUTHORIZED.ERROR', message: `The given client credentials were not valid: ${CLIENT_ID} ${CLIENT_SECRET}` }],
      },
    });
    const [refused] = await fedex.adapter.track(requestsFor('799900000043'), SETTINGS, { now: new Date() });
    expect(refused).toMatchObject({ status: 'error', retryable: false });
    expectNoSecrets(refused);

    fedex.server.once(TRACK, {
      status: 400,
      body: { errors: [{ code: 'BAD.REQUEST', message: `token ${ACCESS_TOKEN} secret ${CLIENT_SECRET}` }] },
    });
    const results: TrackResult[] = await fedex.adapter.track(requestsFor('799900000043'), SETTINGS, { now: new Date() });
    expect(results[0]).toMatchObject({ status: 'error', retryable: false });
    expectNoSecrets(results);
    expectNoSecrets(await fedex.adapter.track(requestsFor('799900000021', '799900000227'), SETTINGS, { now: new Date() }));
  });

  it('a configuration without its secret is refused before FedEx is called', async () => {
    fedex = await localFedex();
    const result = await trackOne(fedex.adapter, '799900000043', { client_id: CLIENT_ID });
    expect(result).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('client_secret') });
    expect(fedex.server.requests).toHaveLength(0);
  });

  it('counts codes the table does not know', async () => {
    fedex = await localFedex();
    await trackOne(fedex.adapter, '799900000043', SETTINGS);
    const metric = await fedex.kit.metrics.registry.getSingleMetricAsString('waybill_carrier_unmapped_codes_total');
    expect(metric).toContain('carrier="fdxglb",code="AE"');
  });
});

describe('fdxglb signature proof of delivery', () => {
  let fedex: LocalFedex;
  afterEach(async () => {
    await fedex?.close();
  });

  it('downloads the PDF through /track/v1/trackingdocuments with the same token', async () => {
    fedex = await localFedex();
    const result = await trackOne(fedex.adapter, '799900000021', SETTINGS);
    if (result.status !== 'ok' || !result.proof_of_delivery) throw new Error('expected a proof of delivery');
    const proof = result.proof_of_delivery;
    expect(proof).toMatchObject({
      reference: 'fedex-spod:12026~799900000021~FDXE',
      file_name: 'fedex-pod-799900000021.pdf',
      content_type: 'application/pdf',
      signed_by: 'A.TESTER',
    });
    const fetched = await proof.fetch({});
    expect(fetched.status).toBe('ok');
    if (fetched.status === 'ok') expect(fetched.content.subarray(0, 5).toString()).toBe('%PDF-');
    const [request] = fedex.server.to(DOCUMENTS);
    expect(request.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(request.headers['x-customer-transaction-id']).toBeDefined();
    expect(JSON.parse(request.body)).toEqual({
      trackDocumentDetail: { documentType: 'SIGNATURE_PROOF_OF_DELIVERY', documentFormat: 'PDF' },
      trackDocumentSpecification: [
        { trackingNumberInfo: { trackingNumber: '799900000021', trackingNumberUniqueId: '12026~799900000021~FDXE', carrierCode: 'FDXE' } },
      ],
    });
    expect(fedex.server.to(TOKEN)).toHaveLength(1);
  });

  it('a document FedEx does not have, or a throttled download, is a failure as data', async () => {
    fedex = await localFedex();
    const result = await trackOne(fedex.adapter, '799900000021', SETTINGS);
    if (result.status !== 'ok' || !result.proof_of_delivery) throw new Error('expected a proof of delivery');
    fedex.server.once(DOCUMENTS, { body: { output: { documentType: 'SIGNATURE_PROOF_OF_DELIVERY', document: [] } } });
    expect(await result.proof_of_delivery.fetch({})).toMatchObject({ status: 'error', retryable: true });
    fedex.server.once(DOCUMENTS, { status: 429, headers: { 'retry-after': '30' }, body: fixture('rate-limited.json') });
    const throttled = await result.proof_of_delivery.fetch({});
    expect(throttled).toMatchObject({ status: 'error', throttled: 'rate', retry_after_seconds: 30 });
    expectNoSecrets(throttled);
    const calls = fedex.server.to(DOCUMENTS).length;
    expect(await result.proof_of_delivery.fetch({})).toMatchObject({ status: 'error', throttled: 'rate' });
    expect(fedex.server.to(DOCUMENTS)).toHaveLength(calls);
  });

  it('fingerprints each number on its entry as FedEx sent it; an entry as stored is answered unchanged without being parsed', async () => {
    const TRANSIT = '799900000043';
    const CUSTOMS = '799900000087';
    const entryOf = (number: string) =>
      fixture<{ output: { completeTrackResults: Array<{ trackingNumber: string }> } }>(
        NUMBERS_FILE[number],
      ).output.completeTrackResults.find((entry) => entry.trackingNumber === number) as object;
    // Spread out over lines, as a carrier may send it: the fingerprint is of the entry's text, white space and all.
    const transit = entryOf(TRANSIT);
    let customs = entryOf(CUSTOMS);
    const answer = () => JSON.stringify({ transactionId: 't', output: { completeTrackResults: [transit, customs] } }, null, 2);
    const sent: string[] = [];
    fedex = await localFedex({
      track: () => {
        sent.push(answer());
        return { body: sent[sent.length - 1] };
      },
    });
    const first = await fedex.adapter.track(requestsFor(TRANSIT, CUSTOMS), SETTINGS, { now: new Date() });
    expect(first.map((result) => result.status)).toEqual(['ok', 'ok']);
    // The entry as it stands in the answer: three levels in, so every line after its first is indented by six.
    const transitText = JSON.stringify(transit, null, 2).split('\n').join('\n      ');
    expect(sent[0]).toContain(transitText);
    const probe = new KnownAnswers('fdxglb', []);
    probe.same(TRANSIT, transitText);
    const fingerprint = (first[0] as { fingerprint?: string }).fingerprint;
    expect(fingerprint).toBe(probe.fingerprintOf(TRANSIT));

    // FedEx scans the customs parcel again; the parcel in transit is as it was.
    customs = { ...(customs as Record<string, unknown>), transactionNote: 'scanned again' };
    const parsed = vi.spyOn(JSON, 'parse');
    try {
      const second = await fedex.adapter.track(
        requestsFor(TRANSIT, CUSTOMS).map((request, i) => ({
          ...request,
          known_answer: (first[i] as { fingerprint?: string }).fingerprint,
        })),
        SETTINGS,
        { now: new Date() },
      );
      expect(second.map((result) => result.status)).toEqual(['unchanged', 'ok']);
      // Neither the whole answer nor the entry in transit was parsed; the customs entry was, on its own.
      const texts = parsed.mock.calls.map(([text]) => String(text));
      expect(texts.some((text) => text.includes(transitText))).toBe(false);
      expect(texts.filter((text) => text.includes('scanned again'))).toEqual([
        JSON.stringify(customs, null, 2).split('\n').join('\n      '),
      ]);
    } finally {
      parsed.mockRestore();
    }
  });
});

describe('fdxglb adapter record', () => {
  it('has production and sandbox, FedEx’s batch size and quota, booking and location search, no push', async () => {
    const fedex = await localFedex();
    try {
      expect(fedex.adapter.environments).toEqual(['production', 'sandbox']);
      expect(fedex.adapter.limits).toMatchObject({ numbers_per_call: 30, daily_quota: 100_000, quota_reset_utc: '00:00' });
      expect(fedex.adapter.capabilities).toEqual({ tracking: true, booking: true, pudo: true, push: false });
      expect(fedex.adapter.settingsSchema.required).toEqual(['client_id', 'client_secret']);
      expect(fedex.adapter.settingsSchema.properties.client_secret['x-secret']).toBe(true);
      expect(fedex.adapter.settingsSchema.properties.ship_client_secret['x-secret']).toBe(true);
      expect(fedex.adapter.maxParcels).toBe(40);
      expect(fedex.adapter.products.map((p) => p.code)).toContain('FEDEX_INTERNATIONAL_PRIORITY');
    } finally {
      await fedex.close();
    }
  });
});

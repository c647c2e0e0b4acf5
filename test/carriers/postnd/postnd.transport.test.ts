import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostnordCarrier } from '../../../src/carriers/postnd/postnd.carrier.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { localToolkit, requestsFor, trackOne } from '../support/kit.js';
import { postndFixture } from './fixtures.js';
import { API_KEY, postndAdapter, postndServer, SETTINGS, TRACKING_PATH, UNKNOWN } from './postnd-server.js';

let server: CarrierServer;
let adapter: PostnordCarrier;

beforeEach(async () => {
  server = await postndServer();
  adapter = postndAdapter(server).adapter;
});

afterEach(async () => {
  await server.close();
});

const track = (numbers: string[], settings: Record<string, unknown> = SETTINGS, signal?: AbortSignal) =>
  adapter.track(requestsFor(...numbers), settings, { now: new Date(), signal });

describe('PostNord transport: requests', () => {
  it('asks findByIdentifier with the key, the identifier and English texts as query parameters', async () => {
    const result = await trackOne(adapter, 'RR900000019SE', SETTINGS);
    expect(result.status).toBe('ok');
    const [request] = server.to(TRACKING_PATH);
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/rest/shipment/v5/trackandtrace/findByIdentifier.json');
    expect(Object.fromEntries(request.query)).toEqual({ id: 'RR900000019SE', locale: 'en', apikey: API_KEY });
    expect(request.headers.accept).toBe('application/json');
    expect(request.headers.authorization).toBeUndefined();
  });

  it('sends the identifier as PostNord takes it, and the configured locale', async () => {
    await trackOne(adapter, 'rr 900 000 019-se', { ...SETTINGS, locale: 'sv' });
    const [request] = server.to(TRACKING_PATH);
    expect(request.query.get('id')).toBe('RR900000019SE');
    expect(request.query.get('locale')).toBe('sv');
  });

  it('refuses a locale PostNord does not offer, and numbers that cannot be identifiers, before any call', async () => {
    const [refused] = await track(['RR900000019SE'], { ...SETTINGS, locale: 'de' });
    expect(refused).toMatchObject({ status: 'error', retryable: false });
    expect(refused.status === 'error' && refused.message).toContain('locale');
    const results = await track(['RR9000', 'RR900000019SE/2', 'RR900000019SE']);
    expect(results.map((r) => r.status)).toEqual(['error', 'error', 'ok']);
    expect(results[0]).toMatchObject({ retryable: false, tracking_number: 'RR9000' });
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
  });

  it('goes to api2 in production and atapi2 in the sandbox', () => {
    const plain = new PostnordCarrier(localToolkit('other', 'http://127.0.0.1:1'));
    expect(plain.environments).toEqual(['production', 'sandbox']);
    expect((plain as unknown as { baseUrls: Record<string, string> }).baseUrls).toEqual({
      production: 'https://api2.postnord.com',
      sandbox: 'https://atapi2.postnord.com',
    });
  });

  it('one identifier per call, one result per request in order (a repeated number asked once)', async () => {
    const numbers = ['90000000505SE', 'UA900000022SE', UNKNOWN, '00373900000000000037', '90000000505SE'];
    const results = await track(numbers);
    expect(results.map((r) => [r.tracking_number, r.status])).toEqual([
      ['90000000505SE', 'ok'],
      ['UA900000022SE', 'ok'],
      [UNKNOWN, 'not_found'],
      ['00373900000000000037', 'ok'],
      ['90000000505SE', 'ok'],
    ]);
    const calls = server.to(TRACKING_PATH);
    expect(calls).toHaveLength(4);
    for (const call of calls) expect(call.query.getAll('id')).toHaveLength(1);
  });

  it('events come back oldest first', async () => {
    const result = await trackOne(adapter, 'RR900000019SE', SETTINGS);
    expect(result.status === 'ok' && result.events.map((e) => e.additional_info.carrier_code)).toEqual(['8', '21', '31', '32']);
  });

  it('never more calls in flight than limits.concurrent_calls', async () => {
    await server.close();
    server = await postndServer({ delayMs: 700 });
    adapter = postndAdapter(server).adapter;
    const numbers = Array.from({ length: 12 }, (_, i) => `9000002${String(i).padStart(4, '0')}SE`);
    const results = await track(numbers);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    expect(server.to(TRACKING_PATH)).toHaveLength(12);
    expect(server.maxInFlight).toBeLessThanOrEqual(adapter.limits.concurrent_calls);
    expect(server.maxInFlight).toBeGreaterThan(1);
  });

  it('counts statuses its table lacks', async () => {
    const { adapter: counted, kit } = postndAdapter(server);
    await trackOne(counted, '90000000606SE', SETTINGS);
    const metrics = await kit.metrics.registry.getMetricsAsJSON();
    const unmapped = metrics.find((m) => m.name === 'waybill_carrier_unmapped_codes_total');
    const codes = (unmapped?.values ?? []).map((v) => v.labels.code);
    expect(codes).toEqual(expect.arrayContaining(['OTHER', '99']));
    expect(codes).not.toContain('DELAYED');
  });

  it('the same answer again is answered unchanged, without mapping it', async () => {
    const [first] = await track(['UA900000022SE']);
    expect(first.status === 'ok' && first.fingerprint).toEqual(expect.any(String));
    const fingerprint = first.status === 'ok' ? first.fingerprint : null;
    const [again] = await adapter.track([{ ...requestsFor('UA900000022SE')[0], known_answer: fingerprint }], SETTINGS, { now: new Date() });
    expect(again).toEqual({ status: 'unchanged', tracking_number: 'UA900000022SE', fingerprint });
  });
});

describe('PostNord transport: answers', () => {
  it('an empty shipment list, or a 404, is not found', async () => {
    expect(await trackOne(adapter, UNKNOWN, SETTINGS)).toEqual({ status: 'not_found', tracking_number: UNKNOWN });
    server.once(TRACKING_PATH, { status: 404, body: { message: 'Not found' } });
    expect(await trackOne(adapter, '90000000101SE', SETTINGS)).toEqual({ status: 'not_found', tracking_number: '90000000101SE' });
  });

  it('a 400 is not retried and quotes PostNord’s faults; a 200 that is not JSON is a retryable error', async () => {
    server.once(TRACKING_PATH, { status: 400, body: postndFixture('invalid-id') });
    const invalid = await trackOne(adapter, '90000000101SE', SETTINGS);
    expect(invalid).toMatchObject({ status: 'error', retryable: false });
    expect(invalid.status === 'error' && invalid.message).toBe(
      'PostNord refused the identifier (HTTP 400): API-001: The identifier is not valid',
    );
    server.once(TRACKING_PATH, { status: 400, body: 'Bad Request' });
    expect(await trackOne(adapter, '90000000101SE', SETTINGS)).toMatchObject({ status: 'error', retryable: false });
    server.once(TRACKING_PATH, { status: 200, body: '<html>maintenance</html>' });
    expect(await trackOne(adapter, '90000000101SE', SETTINGS)).toMatchObject({ status: 'error', retryable: true });
    server.once(TRACKING_PATH, { status: 200, body: postndFixture('malformed') });
    expect(await trackOne(adapter, '90000000101SE', SETTINGS)).toMatchObject({ status: 'error', retryable: true });
    expect(server.to(TRACKING_PATH)).toHaveLength(4);
  });

  it('one number failing leaves the others answered', async () => {
    await server.close();
    let failures = 0;
    server = await postndServer({
      answer: (id) => {
        if (id !== 'UA900000022SE') return undefined;
        failures++;
        return { status: 500, body: 'boom' };
      },
    });
    adapter = postndAdapter(server).adapter;
    const results = await track(['90000000101SE', 'UA900000022SE', 'RR900000019SE']);
    expect(results.map((r) => r.status)).toEqual(['ok', 'error', 'ok']);
    expect(results[1]).toMatchObject({ retryable: true, tracking_number: 'UA900000022SE' });
    expect(failures).toBe(2); // retried once
  });

  it('a refused key (403 from PostNord’s gateway, or 401) is not retried', async () => {
    const refused = await trackOne(adapter, '90000000101SE', { ...SETTINGS, api_key: 'wrong-key-123' });
    expect(refused).toMatchObject({ status: 'error', retryable: false });
    expect(refused.status === 'error' && refused.message).toContain('HTTP 403');
    server.once(TRACKING_PATH, { status: 401, body: 'Unauthorized' });
    expect(await trackOne(adapter, '90000000101SE', SETTINGS)).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(TRACKING_PATH)).toHaveLength(2);
  });

  it('429 with Retry-After seconds pauses the credential; the next call does not reach PostNord', async () => {
    server.once(TRACKING_PATH, { status: 429, headers: { 'retry-after': '7' }, body: 'Usage limit exceeded' });
    const first = await trackOne(adapter, '90000000101SE', SETTINGS);
    expect(first).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const second = await trackOne(adapter, 'RR900000019SE', SETTINGS);
    expect(second).toMatchObject({ status: 'error', retryable: true, throttled: 'rate' });
    expect(second.status === 'error' && second.retry_after_seconds).toBeGreaterThanOrEqual(6);
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
  });

  it('429 with an HTTP date', async () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    const dated = postndAdapter(server, () => now).adapter;
    server.once(TRACKING_PATH, { status: 429, headers: { 'retry-after': 'Fri, 20 Nov 2026 10:01:30 GMT' } });
    const result = await trackOne(dated, '90000000101SE', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 90 });
    expect(await trackOne(dated, 'RR900000019SE', SETTINGS)).toMatchObject({ throttled: 'rate', retry_after_seconds: 90 });
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
  });

  it('503 is retried once, then reported', async () => {
    server.once(TRACKING_PATH, { status: 503, body: 'unavailable' });
    expect((await trackOne(adapter, '90000000101SE', SETTINGS)).status).toBe('ok');
    expect(server.to(TRACKING_PATH)).toHaveLength(2);
    server.once(TRACKING_PATH, { status: 503, body: 'unavailable' });
    server.once(TRACKING_PATH, { status: 503, body: 'unavailable' });
    const failed = await trackOne(adapter, '90000000101SE', SETTINGS);
    expect(failed).toMatchObject({ status: 'error', retryable: true });
    expect(failed.status === 'error' && failed.message).toContain('HTTP 503');
    expect(server.to(TRACKING_PATH)).toHaveLength(4);
  });

  it('a call hanging past the deadline is abandoned', async () => {
    server.once(TRACKING_PATH, { hang: true });
    const started = Date.now();
    const [result] = await track(['90000000101SE'], SETTINGS, AbortSignal.timeout(300));
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('an answer over 4 MiB is refused and not retried', async () => {
    server.once(TRACKING_PATH, { status: 200, body: `{"TrackingInformationResponse":{"x":"${'x'.repeat(4 * 1_048_576 + 10)}"}}` });
    const result = await trackOne(adapter, '90000000101SE', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
  });

  it('a configuration without its key is refused before any call', async () => {
    const [result] = await track(['90000000101SE'], { environment: 'sandbox' });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('api_key');
    expect(server.requests).toHaveLength(0);
  });

  it('the operator’s key serves configurations without one', async () => {
    const operated = postndAdapter(server, undefined, { WAYBILL_CARRIER_POSTND_API_KEY: API_KEY }).adapter;
    expect((await trackOne(operated, '90000000101SE', { environment: 'sandbox' })).status).toBe('ok');
    expect(server.to(TRACKING_PATH)[0].query.get('apikey')).toBe(API_KEY);
  });

  it('no secret appears in any result, though the key travels in the URL and PostNord may echo it', async () => {
    server.once(TRACKING_PATH, {
      status: 400,
      body: { message: 'x', compositeFault: { faults: [{ faultCode: 'K', explanationText: `apikey ${API_KEY}` }] } },
    });
    server.once(TRACKING_PATH, { status: 403, body: `Key ${API_KEY} refused` });
    server.once(TRACKING_PATH, { status: 503, body: `down for ${API_KEY}` });
    server.once(TRACKING_PATH, { status: 503, body: `down for ${API_KEY}` });
    server.once(TRACKING_PATH, { status: 200, body: `not json ${API_KEY}` });
    const results = [
      await trackOne(adapter, '90000000101SE', SETTINGS),
      await trackOne(adapter, '90000000101SE', SETTINGS),
      await trackOne(adapter, '90000000101SE', SETTINGS),
      await trackOne(adapter, '90000000101SE', SETTINGS),
      ...(await track(['90000000505SE', 'UA900000022SE', UNKNOWN])),
    ];
    expect(results.slice(0, 4).every((r) => r.status === 'error')).toBe(true);
    expect(JSON.stringify(results)).not.toContain(API_KEY);
  });

  it('a refused connection names no key either', async () => {
    const closed = postndAdapter({ url: 'http://127.0.0.1:1' } as CarrierServer).adapter;
    const [result] = await closed.track(requestsFor('90000000101SE'), SETTINGS, { now: new Date() });
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(JSON.stringify(result)).not.toContain(API_KEY);
  });
});

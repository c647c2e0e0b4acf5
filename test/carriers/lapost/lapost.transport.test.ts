import { afterEach, describe, expect, it } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { requestsFor, trackOne } from '../support/kit.js';
import { fixtureRoute, lapostFixture, numbersOf, reply, startLaPoste, TEST_KEY, TRACKING_PATH } from './lapost.fixtures.js';

const SETTINGS = { api_key: TEST_KEY };

let running: Awaited<ReturnType<typeof startLaPoste>> | null = null;
async function start(env: Record<string, string> = {}) {
  running = await startLaPoste(env);
  return running;
}
afterEach(async () => {
  await running?.close();
  running = null;
});

function noSecrets(results: unknown, ...secrets: string[]): void {
  const text = JSON.stringify(results);
  for (const secret of [TEST_KEY, ...secrets]) expect(text).not.toContain(secret);
}

/** Synthetic 13-character La Poste numbers. */
function numbers(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `6A9100000${String(i).padStart(4, '0')}`);
}

describe('La Poste transport: requests', () => {
  it('GET /suivi/v2/idships/{id} with X-Okapi-Key and Accept: application/json, lang en_GB by default', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, fixtureRoute('delivered'));
    const result = await trackOne(adapter, '6A90000000101', SETTINGS);
    expect(result.status).toBe('ok');
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.path).toBe('/suivi/v2/idships/6A90000000101');
    expect(request.query.get('lang')).toBe('en_GB');
    expect(request.headers['x-okapi-key']).toBe(TEST_KEY);
    expect(request.headers.accept).toBe('application/json');
    expect(request.headers.authorization).toBeUndefined();
    noSecrets(result);
  });

  it('asks in the configured language and sends numbers without spaces, upper case', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, fixtureRoute('delivered'));
    const result = await trackOne(adapter, ' 6a 9000 0000 101', { ...SETTINGS, language: 'fr_FR' });
    expect(result.status).toBe('ok');
    expect(result.tracking_number).toBe(' 6a 9000 0000 101');
    expect(server.requests[0].path).toBe('/suivi/v2/idships/6A90000000101');
    expect(server.requests[0].query.get('lang')).toBe('fr_FR');
  });

  it('batches at most 10 numbers per call (comma-separated) and answers each number in request order', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, fixtureRoute());
    const asked = numbers(23);
    const results = await adapter.track(requestsFor(...asked), SETTINGS, { now: new Date() });
    expect(results.map((r) => r.tracking_number)).toEqual(asked);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    const sizes = server.requests.map((r) => numbersOf(r).length).sort((a, b) => b - a);
    expect(sizes).toEqual([10, 10, 3]);
    expect(server.requests.flatMap(numbersOf).sort()).toEqual([...asked].sort());
  });

  it('a 207 batch gives each number its own answer', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, () => reply(lapostFixture('batch-partial')));
    const asked = ['EE900005055FR', '6A90000000707', 'LA900002023FR', '6A90000000808'];
    const results = await adapter.track(requestsFor(...asked), SETTINGS, { now: new Date() });
    expect(results.map((r) => [r.tracking_number, r.status])).toEqual([
      ['EE900005055FR', 'error'],
      ['6A90000000707', 'ok'],
      ['LA900002023FR', 'not_found'],
      ['6A90000000808', 'not_found'],
    ]);
    expect(server.requests).toHaveLength(1);
    expect(numbersOf(server.requests[0])).toEqual(asked);
  });

  it('a number missing from a batch answer is a retryable error for that number alone', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, () => ({ status: 207, body: [lapostFixture('not-found').body] }));
    const results = await adapter.track(requestsFor('CA900006060FR', '6A90000000101'), SETTINGS, { now: new Date() });
    expect(results[0].status).toBe('not_found');
    expect(results[1]).toMatchObject({ status: 'error', retryable: true });
  });

  it('never has more calls in flight than limits.concurrent_calls', async () => {
    const { server, adapter } = await start();
    const route = fixtureRoute();
    server.on('GET', TRACKING_PATH, (request) => ({ ...route(request), delayMs: 400 }));
    const results = await adapter.track(requestsFor(...numbers(80)), SETTINGS, { now: new Date() });
    expect(results).toHaveLength(80);
    expect(server.requests).toHaveLength(8);
    expect(server.maxInFlight).toBeGreaterThan(1);
    expect(server.maxInFlight).toBeLessThanOrEqual(adapter.limits.concurrent_calls);
  });

  it('API key only: no token endpoint, every call carries the same key', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, fixtureRoute('delivered'));
    for (let i = 0; i < 3; i++) await trackOne(adapter, '6A90000000101', SETTINGS);
    expect(server.requests.map((r) => [r.path, r.headers['x-okapi-key']])).toEqual(
      Array(3).fill(['/suivi/v2/idships/6A90000000101', TEST_KEY]),
    );
  });
});

describe('La Poste transport: keys', () => {
  it('uses the operator key (WAYBILL_CARRIER_LAPOST_API_KEY) when the configuration has none, the configuration’s over it', async () => {
    const operatorKey = 'lp-operator-key-91b2c3d4e5f6';
    const { server, adapter } = await start({ WAYBILL_CARRIER_LAPOST_API_KEY: operatorKey });
    server.on('GET', TRACKING_PATH, fixtureRoute('delivered'));
    const withOperator = await trackOne(adapter, '6A90000000101', {});
    const withOwn = await trackOne(adapter, '6A90000000101', SETTINGS);
    expect([withOperator.status, withOwn.status]).toEqual(['ok', 'ok']);
    expect(server.requests.map((r) => r.headers['x-okapi-key'])).toEqual([operatorKey, TEST_KEY]);
    noSecrets([withOperator, withOwn], operatorKey);
  });

  it('without any key: a non-retryable error naming settings.api_key, and no call', async () => {
    const { server, adapter } = await start();
    const result = await trackOne(adapter, '6A90000000101', {});
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect((result as { message: string }).message).toContain('settings.api_key');
    expect(server.requests).toHaveLength(0);
  });

  it('settings outside the schema (an unknown language) are refused before any call', async () => {
    const { server, adapter } = await start();
    const result = await trackOne(adapter, '6A90000000101', { ...SETTINGS, language: 'pt_PT' });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(server.requests).toHaveLength(0);
  });

  it('401 from the gateway: a non-retryable error, not retried (no token to refresh), the key redacted', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, () => ({ status: 401, body: { code: 'UNAUTHORIZED', message: `key ${TEST_KEY} is not subscribed` } }));
    const result = await trackOne(adapter, '6A90000000101', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect((result as { message: string }).message).toContain('[redacted]');
    expect(server.requests).toHaveLength(1);
    noSecrets(result);
  });
});

describe('La Poste transport: throttling and failures', () => {
  it('429 with Retry-After: 7 → throttled rate for 7 s, and the next call waits without asking La Poste', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, fixtureRoute('delivered'));
    server.once(TRACKING_PATH, {
      status: 429,
      headers: { 'retry-after': '7' },
      body: { code: 'TOO_MANY_REQUESTS', message: 'Quota exceeded' },
    });
    const first = await trackOne(adapter, '6A90000000101', SETTINGS);
    expect(first).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const second = await trackOne(adapter, '6A90000000101', SETTINGS);
    expect(second).toMatchObject({ status: 'error', retryable: true, throttled: 'rate' });
    expect((second as { retry_after_seconds: number }).retry_after_seconds).toBeGreaterThanOrEqual(6);
    expect((second as { retry_after_seconds: number }).retry_after_seconds).toBeLessThanOrEqual(7);
    expect(server.requests).toHaveLength(1);
    noSecrets([first, second]);
  });

  it('429 with an HTTP date in Retry-After → the seconds until then', async () => {
    const { server, adapter } = await start();
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 120_000).toUTCString();
    server.once(TRACKING_PATH, { status: 429, headers: { 'retry-after': at }, body: '' });
    const result = await trackOne(adapter, '6A90000000101', SETTINGS);
    expect(result).toMatchObject({ status: 'error', throttled: 'rate' });
    const seconds = (result as { retry_after_seconds: number }).retry_after_seconds;
    expect(seconds).toBeGreaterThanOrEqual(118);
    expect(seconds).toBeLessThanOrEqual(121);
  });

  it('a 429 pauses only its own credential', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, fixtureRoute('delivered'));
    server.once(TRACKING_PATH, { status: 429, headers: { 'retry-after': '30' } });
    await trackOne(adapter, '6A90000000101', SETTINGS);
    const other = await trackOne(adapter, '6A90000000101', { api_key: 'lp-other-merchant-key-77aa' });
    expect(other.status).toBe('ok');
  });

  it('503 is retried once, then a retryable error', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, () => ({ status: 503, body: 'unavailable' }));
    const result = await trackOne(adapter, '6A90000000101', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(server.requests).toHaveLength(2);
  });

  it('503 then an answer: the retry succeeds', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, fixtureRoute('delivered'));
    server.once(TRACKING_PATH, { status: 503, body: 'unavailable' });
    const result = await trackOne(adapter, '6A90000000101', SETTINGS);
    expect(result.status).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('a hanging La Poste is abandoned at the caller’s deadline', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, () => ({ hang: true }));
    const started = Date.now();
    const [result] = await adapter.track(requestsFor('6A90000000101'), SETTINGS, { now: new Date(), signal: AbortSignal.timeout(300) });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect((result as { message: string }).message).toContain('deadline');
  });

  it('an answer over 4 MiB is a non-retryable error', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: `"${'x'.repeat(4 * 1_048_576 + 10)}"`,
    }));
    const result = await trackOne(adapter, '6A90000000101', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false });
  });

  it('an HTML page instead of JSON is an unreadable answer (whether to retry is the SDK’s rule for unreadable answers)', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, () => reply(lapostFixture('malformed')));
    const result = await trackOne(adapter, '6A90000000101', SETTINGS);
    expect(result).toMatchObject({ status: 'error' });
    expect((result as { message: string }).message).toContain('could not be read');
  });

  it('a bare 404 without JSON is read as not found (La Poste has answered unknown numbers so)', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACKING_PATH, () => ({ status: 404, body: 'Not Found' }));
    expect(await trackOne(adapter, '6A90000000101', SETTINGS)).toEqual({ status: 'not_found', tracking_number: '6A90000000101' });
  });

  it('counts codes the table lacks in waybill_carrier_unmapped_codes_total', async () => {
    const { server, adapter, kit } = await start();
    server.on('GET', TRACKING_PATH, fixtureRoute('in-transit-international'));
    await trackOne(adapter, 'CB900001014FR', SETTINGS);
    const metrics = await kit.metrics.registry.getSingleMetricAsString('waybill_carrier_unmapped_codes_total');
    expect(metrics).toContain('carrier="lapost",code="ZZ9"');
    expect(metrics).not.toContain('code="ET3"');
  });

  it('no result of any scenario holds the key', async () => {
    const { server, adapter } = await start();
    const results: TrackResult[] = [];
    server.on('GET', TRACKING_PATH, fixtureRoute('delivered', 'batch-partial', 'invalid-number'));
    results.push(...(await adapter.track(requestsFor('6A90000000101', 'EE900005055FR', 'LB900007079FR'), SETTINGS, { now: new Date() })));
    results.push(await trackOne(adapter, 'LB900007079FR', SETTINGS));
    server.once(TRACKING_PATH, { status: 500, body: `internal error for key ${TEST_KEY}` });
    server.once(TRACKING_PATH, { status: 500, body: `internal error for key ${TEST_KEY}` });
    results.push(await trackOne(adapter, '6A90000000101', SETTINGS));
    expect(results.some((r) => r.status === 'error' && r.message.includes('[redacted]'))).toBe(true);
    noSecrets(results);
  });
});

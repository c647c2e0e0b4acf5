import { afterEach, describe, expect, it } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { requestsFor, trackOne } from '../support/kit.js';
import { auspostFixture, fixtureRoute, idsOf, reply, SETTINGS, startAusPost, TRACK_PATH } from './auspos.fixtures.js';

let running: Awaited<ReturnType<typeof startAusPost>> | null = null;
async function start(options: Parameters<typeof startAusPost>[0] = {}) {
  running = await startAusPost(options);
  return running;
}
afterEach(async () => {
  await running?.close();
  running = null;
});

const BASIC = `Basic ${Buffer.from(`${SETTINGS.api_key}:${SETTINGS.password}`).toString('base64')}`;

function noSecrets(results: unknown, ...secrets: string[]): void {
  const text = JSON.stringify(results);
  for (const secret of [SETTINGS.api_key, SETTINGS.password, BASIC.slice(6), ...secrets]) expect(text).not.toContain(secret);
}

function errorOf(result: TrackResult) {
  expect(result.status, JSON.stringify(result)).toBe('error');
  return result as Extract<TrackResult, { status: 'error' }>;
}

/** Synthetic eParcel article numbers. */
function numbers(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `WBX8${String(i).padStart(6, '0')}010020`);
}

/** A clock tests move by hand. */
function manualClock(start = Date.parse('2026-11-23T10:00:00Z')): { now: () => number; advance(ms: number): void } {
  let at = start;
  return { now: () => at, advance: (ms) => (at += ms) };
}

describe('Australia Post transport: requests', () => {
  it('declares what Australia Post documents: ten ids a call, ten calls a minute, production and the testbed', async () => {
    const { adapter } = await start();
    expect(adapter.limits).toEqual({
      numbers_per_call: 10,
      concurrent_calls: 2,
      requests_per_second: 10 / 60,
      daily_quota: null,
      quota_reset_utc: '00:00',
      min_poll_interval_seconds: 1800,
    });
    expect(adapter.environments).toEqual(['production', 'sandbox']);
    expect(adapter.capabilities).toEqual({ tracking: true, booking: false, pudo: false, push: false });
    expect(adapter.record).toMatchObject({ id: 'auspos', name: 'Australia Post', country_iso: ['AU'] });
  });

  it('GET /shipping/v1/track?tracking_ids=… with Basic auth (key and password), the account-number header and JSON', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, fixtureRoute('delivered'));
    const result = await trackOne(adapter, 'WBX9000001010020', SETTINGS);
    expect(result.status).toBe('ok');
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.path).toBe('/shipping/v1/track');
    expect(idsOf(request)).toEqual(['WBX9000001010020']);
    expect(request.headers.authorization).toBe(BASIC);
    expect(request.headers['account-number']).toBe('0009876543');
    expect(request.headers.accept).toBe('application/json');
    noSecrets(result);
  });

  it('sends numbers without spaces, upper case, and answers them as written', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, fixtureRoute('delivered'));
    const result = await trackOne(adapter, ' wbx 9000 0010 1002 0', SETTINGS);
    expect(result).toMatchObject({ status: 'ok', tracking_number: ' wbx 9000 0010 1002 0' });
    expect(idsOf(server.requests[0])).toEqual(['WBX9000001010020']);
  });

  it('batches at most ten ids per call (comma-separated) and answers each number in request order', async () => {
    const { server, adapter } = await start({ unpaced: true });
    server.on('GET', TRACK_PATH, fixtureRoute());
    const asked = numbers(23);
    const results = await adapter.track(requestsFor(...asked), SETTINGS, { now: new Date() });
    expect(results.map((r) => r.tracking_number)).toEqual(asked);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    expect(server.requests.map((r) => idsOf(r).length).sort((a, b) => b - a)).toEqual([10, 10, 3]);
    expect(server.requests.flatMap(idsOf).sort()).toEqual([...asked].sort());
  });

  it('one call of ten answers each status; a partial batch answers each number on its own', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, fixtureRoute('statuses', 'batch-partial'));
    const ten = Array.from({ length: 10 }, (_, i) => `WBX90000${String(6 + i).padStart(2, '0')}010020`);
    const results = await adapter.track(requestsFor(...ten), SETTINGS, { now: new Date() });
    expect(server.requests).toHaveLength(1);
    expect(results.every((r) => r.status === 'ok')).toBe(true);
    const partial = await adapter.track(requestsFor('WBX9000017010020', 'CX900002023AU', 'LX900003032AU', 'EE900004041AU'), SETTINGS, {
      now: new Date(),
    });
    expect(partial.map((r) => [r.status, r.status === 'error' ? r.retryable : null])).toEqual([
      ['ok', null],
      ['not_found', null],
      ['error', false],
      ['error', true],
    ]);
  });

  it('a number missing from the answer is a retryable error for that number alone', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, () => reply(auspostFixture('delivered')));
    const results = await adapter.track(requestsFor('WBX9000001010020', 'WBX9000002010020'), SETTINGS, { now: new Date() });
    expect(results[0].status).toBe('ok');
    expect(results[1]).toMatchObject({ status: 'error', retryable: true });
  });

  it('never has more calls in flight than limits.concurrent_calls', async () => {
    const { server, adapter } = await start({ unpaced: true });
    const route = fixtureRoute();
    server.on('GET', TRACK_PATH, (request) => ({ ...route(request), delayMs: 300 }));
    const results = await adapter.track(requestsFor(...numbers(60)), SETTINGS, { now: new Date() });
    expect(results).toHaveLength(60);
    expect(server.requests).toHaveLength(6);
    expect(server.maxInFlight).toBe(adapter.limits.concurrent_calls);
  });

  it('keeps ten calls a minute (and 5%) per credential; another credential has its own minute', async () => {
    const clock = manualClock();
    const { server, adapter } = await start({ now: clock.now });
    server.on('GET', TRACK_PATH, fixtureRoute('delivered'));
    expect((await trackOne(adapter, 'WBX9000001010020', SETTINGS)).status).toBe('ok');
    clock.advance(6_000);
    const [early] = await adapter.track(requestsFor('WBX9000001010020'), SETTINGS, { now: new Date(), signal: AbortSignal.timeout(200) });
    expect(errorOf(early)).toMatchObject({ retryable: true, message: expect.stringContaining('deadline') });
    expect(server.requests).toHaveLength(1);
    // Six seconds and 5% (the margin kept between two requests): the next call goes.
    clock.advance(400);
    expect((await trackOne(adapter, 'WBX9000001010020', SETTINGS)).status).toBe('ok');
    expect((await trackOne(adapter, 'WBX9000001010020', { ...SETTINGS, api_key: 'ap-other-merchant-key-55c2' })).status).toBe('ok');
    expect(server.requests).toHaveLength(3);
  });

  it('asks the testbed under /test when the configuration says sandbox', async () => {
    const { server, adapter } = await start();
    server.on('GET', /\/shipping\/v1\/track$/, fixtureRoute('delivered'));
    // The operator's base URL replaces the whole base, the testbed's /test included: shown with the defaults here.
    expect((adapter as unknown as { baseUrls: Record<string, string> }).baseUrls).toEqual({
      production: 'https://digitalapi.auspost.com.au',
      sandbox: 'https://digitalapi.auspost.com.au/test',
    });
    expect((await trackOne(adapter, 'WBX9000001010020', { ...SETTINGS, environment: 'sandbox' })).status).toBe('ok');
    expect(server.requests[0].path).toBe('/shipping/v1/track');
  });
});

describe('Australia Post transport: refusals about the numbers', () => {
  it('51104 for a batch: each number asked again on its own; the unknown one is not found', async () => {
    const { server, adapter } = await start();
    const route = fixtureRoute('delivered');
    server.on('GET', TRACK_PATH, (request) => {
      const ids = idsOf(request);
      if (ids.length > 1 || ids[0] === 'WBX9000099010020') return reply(auspostFixture('ids-not-found'));
      return route(request);
    });
    const results = await adapter.track(requestsFor('WBX9000001010020', 'WBX9000099010020'), SETTINGS, { now: new Date() });
    expect(results.map((r) => r.status)).toEqual(['ok', 'not_found']);
    expect(server.requests.map(idsOf)).toEqual([['WBX9000001010020', 'WBX9000099010020'], ['WBX9000001010020'], ['WBX9000099010020']]);
  });

  it('51103 (Australia Post and StarTrack ids mixed): each number asked on its own', async () => {
    const { server, adapter } = await start();
    const route = fixtureRoute('delivered', 'startrack-consignment');
    server.on('GET', TRACK_PATH, (request) => (idsOf(request).length > 1 ? reply(auspostFixture('ids-mixed')) : route(request)));
    const results = await adapter.track(requestsFor('WBX9000001010020', 'ZQW900000001'), SETTINGS, { now: new Date() });
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(server.requests).toHaveLength(3);
  });

  it('other refusals (51101) are a non-retryable error quoting Australia Post', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, () => reply(auspostFixture('too-many-ids')));
    const result = errorOf(await trackOne(adapter, 'WBX9000001010020', SETTINGS));
    expect(result.retryable).toBe(false);
    expect(result.message).toContain('51101 TOO_MANY_AP_TRACKING_IDS');
    expect(server.requests).toHaveLength(1);
  });
});

describe('Australia Post transport: credentials', () => {
  it('settings are checked before any call: a missing password or an account number of the wrong length', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, fixtureRoute('delivered'));
    const { password: _password, ...withoutPassword } = SETTINGS;
    const missing = errorOf(await trackOne(adapter, 'WBX9000001010020', withoutPassword));
    expect(missing).toMatchObject({ retryable: false, message: expect.stringContaining('settings.password') });
    const short = errorOf(await trackOne(adapter, 'WBX9000001010020', { ...SETTINGS, account_number: '12345' }));
    expect(short).toMatchObject({ retryable: false, message: expect.stringContaining('settings.account_number') });
    expect((await trackOne(adapter, 'WBX9000001010020', { ...SETTINGS, account_number: '12345678' })).status).toBe('ok');
    expect(server.requests[0].headers['account-number']).toBe('12345678');
    expect(server.requests).toHaveLength(1);
    noSecrets([missing, short]);
  });

  it('401: a non-retryable error, not retried (nothing to refresh), the credentials redacted', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, () => ({ status: 401, body: `Unauthorized: ${SETTINGS.api_key} / ${BASIC}` }));
    const result = errorOf(await trackOne(adapter, 'WBX9000001010020', SETTINGS));
    expect(result.retryable).toBe(false);
    expect(result.message).toContain('[redacted]');
    expect(server.requests).toHaveLength(1);
    noSecrets(result);
  });
});

describe('Australia Post transport: throttling and failures', () => {
  it('429 with Retry-After: 7 → throttled for 7 s, and the next call waits without asking Australia Post', async () => {
    const { server, adapter } = await start({ now: Date.now });
    server.on('GET', TRACK_PATH, fixtureRoute('delivered'));
    server.once(TRACK_PATH, { ...reply(auspostFixture('throttled')), headers: { 'retry-after': '7' } });
    const first = errorOf(await trackOne(adapter, 'WBX9000001010020', SETTINGS));
    expect(first).toMatchObject({ retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    expect(first.message).toContain('API_002');
    const second = errorOf(await trackOne(adapter, 'WBX9000001010020', SETTINGS));
    expect(second).toMatchObject({ retryable: true, throttled: 'rate' });
    expect(second.retry_after_seconds).toBeGreaterThanOrEqual(6);
    expect(second.retry_after_seconds).toBeLessThanOrEqual(7);
    expect(server.requests).toHaveLength(1);
    noSecrets([first, second]);
  });

  it('429 with an HTTP date in Retry-After → the seconds until then', async () => {
    const { server, adapter } = await start({ now: Date.now });
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 120_000).toUTCString();
    server.once(TRACK_PATH, { ...reply(auspostFixture('throttled')), headers: { 'retry-after': at } });
    const result = errorOf(await trackOne(adapter, 'WBX9000001010020', SETTINGS));
    expect(result.throttled).toBe('rate');
    expect(result.retry_after_seconds).toBeGreaterThanOrEqual(118);
    expect(result.retry_after_seconds).toBeLessThanOrEqual(121);
  });

  it('a 429 without Retry-After pauses the credential a minute, and only that credential', async () => {
    const { server, adapter } = await start({ now: Date.now });
    server.on('GET', TRACK_PATH, fixtureRoute('delivered'));
    server.once(TRACK_PATH, reply(auspostFixture('throttled')));
    expect(errorOf(await trackOne(adapter, 'WBX9000001010020', SETTINGS)).throttled).toBe('rate');
    const paused = errorOf(await trackOne(adapter, 'WBX9000001010020', SETTINGS));
    expect(paused.retry_after_seconds).toBeGreaterThanOrEqual(59);
    expect((await trackOne(adapter, 'WBX9000001010020', { ...SETTINGS, api_key: 'ap-other-merchant-key-55c2' })).status).toBe('ok');
  });

  it('503 is retried once, then a retryable error', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, () => ({ status: 503, body: 'unavailable' }));
    expect(errorOf(await trackOne(adapter, 'WBX9000001010020', SETTINGS)).retryable).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('503 then an answer: the retry succeeds', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, fixtureRoute('delivered'));
    server.once(TRACK_PATH, { status: 503, body: 'unavailable' });
    expect((await trackOne(adapter, 'WBX9000001010020', SETTINGS)).status).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('a hanging Australia Post is abandoned at the caller’s deadline', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, () => ({ hang: true }));
    const started = Date.now();
    const [result] = await adapter.track(requestsFor('WBX9000001010020'), SETTINGS, { now: new Date(), signal: AbortSignal.timeout(300) });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(errorOf(result)).toMatchObject({ retryable: true, message: expect.stringContaining('deadline') });
  });

  it('an answer over 4 MiB is a non-retryable error', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: `"${'x'.repeat(4 * 1_048_576 + 10)}"`,
    }));
    expect(errorOf(await trackOne(adapter, 'WBX9000001010020', SETTINGS)).retryable).toBe(false);
  });

  it('an HTML page instead of JSON is an unreadable answer', async () => {
    const { server, adapter } = await start();
    server.on('GET', TRACK_PATH, () => reply(auspostFixture('malformed')));
    const result = errorOf(await trackOne(adapter, 'WBX9000001010020', SETTINGS));
    expect(result).toMatchObject({ retryable: true, message: expect.stringContaining('could not be read') });
  });

  it('counts statuses the table lacks in waybill_carrier_unmapped_codes_total, and no event texts', async () => {
    const { server, adapter, kit } = await start();
    server.on('GET', TRACK_PATH, fixtureRoute('statuses'));
    await trackOne(adapter, 'WBX9000015010020', SETTINGS);
    await trackOne(adapter, 'WBX9000006010020', SETTINGS);
    const metrics = await kit.metrics.registry.getSingleMetricAsString('waybill_carrier_unmapped_codes_total');
    expect(metrics).toContain('carrier="auspos",code="Lodged at counter"');
    expect(metrics).not.toContain('Lodged at Post Office');
    expect(metrics).not.toContain('Delayed due to severe weather');
    expect(metrics).not.toContain('code="Possible delay"');
  });

  it('no result of any scenario holds a credential', async () => {
    const { server, adapter } = await start();
    const results: TrackResult[] = [];
    server.on('GET', TRACK_PATH, fixtureRoute('delivered', 'batch-partial'));
    results.push(
      ...(await adapter.track(requestsFor('WBX9000001010020', 'LX900003032AU', 'EE900004041AU'), SETTINGS, { now: new Date() })),
    );
    server.once(TRACK_PATH, { status: 500, body: `internal error for ${SETTINGS.password} ${BASIC}` });
    server.once(TRACK_PATH, { status: 500, body: `internal error for ${SETTINGS.password} ${BASIC}` });
    results.push(await trackOne(adapter, 'WBX9000001010020', SETTINGS));
    server.once(TRACK_PATH, {
      status: 400,
      body: { errors: [{ code: '51100', name: 'TRACKING_IDS_MISSING', message: SETTINGS.api_key }] },
    });
    results.push(await trackOne(adapter, 'WBX9000001010020', SETTINGS));
    expect(results.filter((r) => r.status === 'error' && r.message.includes('[redacted]'))).toHaveLength(2);
    noSecrets(results);
  });
});

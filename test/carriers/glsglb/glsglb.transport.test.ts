import { afterEach, describe, expect, it } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { nextReset } from '../../../src/carriers/sdk/limits.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { requestsFor } from '../support/kit.js';
import { bookRequest } from './gls-book-requests.js';
import { fixture, glsAdapter, glsServer, idsOf, SETTINGS, TOKEN_PATH, TRACK_PATH } from './gls-server.js';
import { BOOKING_SETTINGS, GlsShipitRoutes } from './gls-shipit-server.js';

const servers: CarrierServer[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

async function setup(options: { delayMs?: number; env?: Record<string, string> } = {}) {
  const server = await glsServer({ delayMs: options.delayMs });
  servers.push(server);
  return { server, ...glsAdapter(server, options.env) };
}

const track = (
  adapter: ReturnType<typeof glsAdapter>['adapter'],
  numbers: string[],
  settings: Record<string, unknown> = SETTINGS,
  signal?: AbortSignal,
) => adapter.track(requestsFor(...numbers), settings, { now: new Date(), signal });

function errorOf(result: TrackResult | undefined) {
  if (result?.status !== 'error') throw new Error(`expected an error, got ${JSON.stringify(result)}`);
  return result;
}

describe('glsglb transport against a local GLS', () => {
  it('asks for a token with Basic credentials, then tracks with the bearer token, EN and events', async () => {
    const { server, adapter } = await setup();
    const [result] = await track(adapter, ['531000000060']);
    expect(result.status).toBe('ok');

    const [tokenCall] = server.to(TOKEN_PATH);
    expect(tokenCall.method).toBe('POST');
    const basic = Buffer.from(`${SETTINGS.client_id}:${SETTINGS.client_secret}`).toString('base64');
    expect(tokenCall.headers.authorization).toBe(`Basic ${basic}`);
    expect(tokenCall.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(tokenCall.body).get('grant_type')).toBe('client_credentials');
    expect(tokenCall.body).not.toContain(SETTINGS.client_secret);

    const [trackCall] = server.to(TRACK_PATH);
    expect(trackCall.method).toBe('GET');
    expect(trackCall.path).toBe('/track-and-trace-v1/tracking/simple/trackids/531000000060');
    expect(trackCall.query.get('showEvents')).toBe('true');
    expect(trackCall.headers.authorization).toBe('Bearer tok-1');
    expect(trackCall.headers.accept).toBe('application/json');
    expect(trackCall.headers['accept-language']).toBe('EN');
  });

  it('sends at most ten numbers per call, comma-separated, and answers every number in order', async () => {
    const { server, adapter } = await setup();
    const found = ['531000000022', '531000000039', '531000000053', '531000000060', '531000000077', '531000000084'];
    const unknown = Array.from({ length: 19 }, (_, i) => `5399${String(i).padStart(8, '0')}`);
    const numbers = [...found, ...unknown];
    const results = await track(adapter, numbers);
    expect(results.map((r) => r.tracking_number)).toEqual(numbers);
    expect(results.map((r) => r.status)).toEqual([...found.map(() => 'ok'), ...unknown.map(() => 'not_found')]);
    const sizes = server.to(TRACK_PATH).map((r) => idsOf(r.url).length);
    expect(sizes.sort((a, b) => b - a)).toEqual([10, 10, 5]);
    expect(
      server
        .to(TRACK_PATH)
        .flatMap((r) => idsOf(r.url))
        .sort(),
    ).toEqual([...numbers].sort());
    expect(server.to(TRACK_PATH)[0].path).toContain('531000000022,531000000039,');
  });

  it('reuses one token for many polls', async () => {
    const { server, adapter } = await setup();
    for (let i = 0; i < 3; i++) expect((await track(adapter, ['531000000039']))[0].status).toBe('ok');
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    expect(server.to(TRACK_PATH)).toHaveLength(3);
  });

  it('never has more calls in flight than the limit', async () => {
    const { server, adapter } = await setup({ delayMs: 1_300 });
    const numbers = Array.from({ length: 30 }, (_, i) => `5398${String(i).padStart(8, '0')}`);
    const results = await track(adapter, numbers);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    expect(server.to(TRACK_PATH)).toHaveLength(3);
    expect(server.maxInFlight).toBeGreaterThanOrEqual(1);
    expect(server.maxInFlight).toBeLessThanOrEqual(adapter.limits.concurrent_calls);
  });

  it('a 401 drops the token, fetches a new one and retries once', async () => {
    const { server, adapter } = await setup();
    await track(adapter, ['531000000039']);
    server.once(TRACK_PATH, { status: 401, body: { fault: { faultstring: 'Access Token expired' } } });
    const [result] = await track(adapter, ['531000000039']);
    expect(result.status).toBe('ok');
    expect(server.to(TOKEN_PATH)).toHaveLength(2);
    expect(server.to(TRACK_PATH).map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('a 429 with Retry-After seconds pauses the credential; the next call does not reach GLS', async () => {
    const { server, adapter } = await setup();
    server.once(TRACK_PATH, { status: 429, headers: { 'retry-after': '7' }, body: fixture('spike-arrest.json') });
    const [first] = await track(adapter, ['531000000039']);
    expect(errorOf(first)).toMatchObject({ retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const calls = server.to(TRACK_PATH).length;
    const [second] = await track(adapter, ['531000000039']);
    expect(errorOf(second)).toMatchObject({ retryable: true, throttled: 'rate' });
    expect(errorOf(second).retry_after_seconds).toBeLessThanOrEqual(7);
    expect(server.to(TRACK_PATH)).toHaveLength(calls);
  });

  it('a 429 with an HTTP-date Retry-After', async () => {
    const { server, adapter } = await setup();
    const at = new Date(Date.now() + 30_000).toUTCString();
    server.once(TRACK_PATH, { status: 429, headers: { 'retry-after': at }, body: fixture('spike-arrest.json') });
    const error = errorOf((await track(adapter, ['531000000039']))[0]);
    expect(error.throttled).toBe('rate');
    expect(error.retry_after_seconds).toBeGreaterThanOrEqual(28);
    expect(error.retry_after_seconds).toBeLessThanOrEqual(31);
  });

  it.each([
    [429, 'a 429'],
    [500, "the gateway's default 500"],
  ])('the daily quota answer (%s, %s) pauses until the reset without calling GLS again', async (status) => {
    const { server, adapter } = await setup();
    server.once(TRACK_PATH, { status, body: fixture('quota-exceeded.json') });
    const error = errorOf((await track(adapter, ['531000000039', '531000000053']))[1]);
    expect(error).toMatchObject({ retryable: true, throttled: 'quota' });
    const untilReset = Math.ceil((nextReset(Date.now(), adapter.limits.quota_reset_utc) - Date.now()) / 1000);
    expect(Math.abs((error.retry_after_seconds ?? 0) - untilReset)).toBeLessThanOrEqual(2);
    const calls = server.to(TRACK_PATH).length;
    expect(calls).toBe(1);
    const again = errorOf((await track(adapter, ['531000000039']))[0]);
    expect(again.throttled).toBe('quota');
    expect(server.to(TRACK_PATH)).toHaveLength(calls);
  });

  it('a 503 is retried once, then reported as a retryable error', async () => {
    const { server, adapter } = await setup();
    server.once(TRACK_PATH, { status: 503, body: 'Service Unavailable' });
    server.once(TRACK_PATH, { status: 503, body: 'Service Unavailable' });
    const error = errorOf((await track(adapter, ['531000000039']))[0]);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('503');
    expect(server.to(TRACK_PATH)).toHaveLength(2);
    // The next poll succeeds.
    expect((await track(adapter, ['531000000039']))[0].status).toBe('ok');
  });

  it('a call that hangs is abandoned at the deadline', async () => {
    const { server, adapter } = await setup();
    server.once(TRACK_PATH, { hang: true });
    const started = Date.now();
    const error = errorOf((await track(adapter, ['531000000039'], SETTINGS, AbortSignal.timeout(400)))[0]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/deadline/);
  });

  it('an answer over 4 MiB is refused without retrying', async () => {
    const { server, adapter } = await setup();
    const huge = JSON.stringify({ parcels: [], padding: 'x'.repeat(4 * 1_048_576 + 10) });
    server.once(TRACK_PATH, { status: 200, headers: { 'content-type': 'application/json' }, body: huge });
    const error = errorOf((await track(adapter, ['531000000039']))[0]);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/limit/);
    expect(server.to(TRACK_PATH)).toHaveLength(1);
  });

  it('a 400 is a non-retryable error in GLS words; a whole-call 404 stays retryable', async () => {
    const { server, adapter } = await setup();
    server.once(TRACK_PATH, { status: 400, body: fixture('bad-request.json') });
    const bad = errorOf((await track(adapter, ['531000000039']))[0]);
    expect(bad).toMatchObject({
      retryable: false,
      message: 'GLS refused the tracking request (HTTP 400): Bad Request: A requested id has an invalid format.',
    });
    server.once(TRACK_PATH, { status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No static resource.' } });
    expect(errorOf((await track(adapter, ['531000000039']))[0]).retryable).toBe(true);
    server.once(TRACK_PATH, { status: 418, body: 'teapot' });
    expect(errorOf((await track(adapter, ['531000000039']))[0])).toMatchObject({
      retryable: false,
      message: expect.stringContaining('HTTP 418'),
    });
  });

  it('a 200 that is not a parcels list is a retryable error', async () => {
    const { server, adapter } = await setup();
    server.once(TRACK_PATH, { status: 200, body: '<html>maintenance</html>' });
    const error = errorOf((await track(adapter, ['531000000039']))[0]);
    expect(error).toMatchObject({ retryable: true, message: 'GLS answer could not be read: it holds no parcels list' });
  });

  it('partial batches: one call, a result per number', async () => {
    const { server, adapter } = await setup();
    const results = await track(adapter, ['531000000237', '531000000244', '531000000268']);
    expect(results.map((r) => r.status)).toEqual(['ok', 'not_found', 'error']);
    expect(server.to(TRACK_PATH)).toHaveLength(1);
  });

  it('no secret or token appears in any result', async () => {
    const { server, adapter } = await setup();
    const results: TrackResult[] = [];
    // Refused credentials, with the gateway echoing them.
    server.once(TOKEN_PATH, {
      status: 401,
      body: { fault: { faultstring: `Invalid client ${SETTINGS.client_id}:${SETTINGS.client_secret}` } },
    });
    results.push(...(await track(adapter, ['531000000039'])));
    // A token refused twice, echoed back in the error body.
    results.push(...(await track(adapter, ['531000000039'])));
    // (The scripted token answer above issued nothing: the tokens are tok-1, then tok-2 after the first 401.)
    server.once(TRACK_PATH, { status: 401, body: 'bad token tok-1' });
    server.once(TRACK_PATH, { status: 401, body: `bad token tok-2 for ${SETTINGS.client_secret}` });
    results.push(...(await track(adapter, ['531000000039'])));
    server.once(TRACK_PATH, { status: 400, body: { title: 'Bad Request', detail: `client ${SETTINGS.client_secret}` } });
    results.push(...(await track(adapter, ['531000000039'])));
    const text = JSON.stringify(results);
    expect(results.map((r) => r.status)).toEqual(['error', 'ok', 'error', 'error']);
    for (const secret of [SETTINGS.client_secret, SETTINGS.client_id, 'tok-1', 'tok-2']) expect(text).not.toContain(secret);
    expect(errorOf(results[0]).retryable).toBe(false);
    expect(errorOf(results[2]).retryable).toBe(false);
    expect(server.to(TOKEN_PATH)).toHaveLength(3);
  });

  it('uses operator credentials from WAYBILL_CARRIER_GLSGLB_*', async () => {
    const { server, adapter } = await setup({
      env: { WAYBILL_CARRIER_GLSGLB_CLIENT_ID: 'operator-id', WAYBILL_CARRIER_GLSGLB_CLIENT_SECRET: 'operator-secret' },
    });
    const [result] = await track(adapter, ['531000000039'], {});
    expect(result.status).toBe('ok');
    expect(server.to(TOKEN_PATH)[0].headers.authorization).toBe(`Basic ${Buffer.from('operator-id:operator-secret').toString('base64')}`);
  });

  it('an incomplete configuration is refused without calling GLS', async () => {
    const { server, adapter } = await setup();
    const error = errorOf((await track(adapter, ['531000000039'], { client_id: 'only-the-id' }))[0]);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('settings.client_secret');
    expect(server.requests).toHaveLength(0);
  });

  it('declares its environments, limits and capabilities', async () => {
    const { adapter } = await setup();
    expect(adapter.environments).toEqual(['production', 'sandbox']);
    expect(adapter.capabilities).toEqual({ tracking: true, booking: true, pudo: true, push: false });
    expect(adapter.limits).toMatchObject({ numbers_per_call: 10, daily_quota: 500, quota_reset_utc: '00:00' });
    expect(adapter.callsLeftToday(SETTINGS)).toBe(500);
    await track(adapter, ['531000000039']);
    expect(adapter.callsLeftToday(SETTINGS)).toBe(499);
  });

  it('ShipIT calls share the token and the base URL but not Track And Trace’s daily quota', async () => {
    const { server, adapter } = await setup();
    GlsShipitRoutes.install(server);
    await track(adapter, ['531000000039'], BOOKING_SETTINGS);
    const booked = await adapter.book(bookRequest(), BOOKING_SETTINGS, { now: new Date() });
    expect(booked.status).toBe('ok');
    const found = await adapter.searchPudo({ lat: 53.55, lng: 9.99, radius_meters: 2000, limit: 5 }, BOOKING_SETTINGS, { now: new Date() });
    expect(found).toMatchObject({ status: 'ok' });
    expect(adapter.callsLeftToday(BOOKING_SETTINGS)).toBe(499);
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import type { CarrierLimits } from '../../../src/carriers/sdk/limits.js';
import { UspsCarrier } from '../../../src/carriers/uspsus/uspsus.carrier.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { localToolkit, requestsFor } from '../support/kit.js';
import { askedNumbers, fixture, manualClock, SETTINGS, TOKEN_PATH, TRACK_PATH, trackingReply, uspsServer } from './usps-server.js';

/** The adapter with USPS's hourly pace lifted, to observe batching and concurrency without waiting a minute per call. */
class UnpacedUsps extends UspsCarrier {
  override readonly limits: CarrierLimits = {
    ...new UspsCarrier(localToolkit('uspsus', 'http://127.0.0.1:9')).limits,
    requests_per_second: 1000,
  };
}

const DELIVERED = '9400111899223851000014';
const OUT_FOR_DELIVERY = '9400111899223851000076';
const UNKNOWN = '9400111899223851000083';

function errorOf(result: TrackResult) {
  expect(result.status, JSON.stringify(result)).toBe('error');
  return result as Extract<TrackResult, { status: 'error' }>;
}

describe('uspsus transport against a local USPS', () => {
  let server: CarrierServer;
  afterEach(async () => {
    await server?.close();
  });

  async function setUp(options: { unpaced?: boolean; env?: Record<string, string>; now?: () => number } = {}) {
    server = await uspsServer();
    const kit = localToolkit('uspsus', server.url, options.env, options.now);
    return options.unpaced ? new UnpacedUsps(kit) : new UspsCarrier(kit);
  }

  it('declares USPS as documented: 35 numbers a call, one call in flight, 60 calls an hour, production and TEM hosts, booking and Post Office search', async () => {
    const adapter = await setUp();
    expect(adapter.limits).toEqual({
      numbers_per_call: 35,
      concurrent_calls: 1,
      requests_per_second: 60 / 3600,
      daily_quota: 1440,
      quota_reset_utc: '00:00',
      min_poll_interval_seconds: 1800,
    });
    expect(adapter.environments).toEqual(['production', 'sandbox']);
    expect(adapter.capabilities).toEqual({ tracking: true, booking: true, pudo: true, push: false });
    expect(adapter.record).toMatchObject({ id: 'uspsus', country_iso: ['US'] });
  });

  it('gets a token with a JSON client-credentials body and tracks with a bearer token and a JSON array of numbers', async () => {
    const adapter = await setUp();
    const [result] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    expect(result.status).toBe('ok');
    const [token] = server.to(TOKEN_PATH);
    expect(token.method).toBe('POST');
    expect(token.headers['content-type']).toBe('application/json');
    expect(JSON.parse(token.body)).toEqual({
      grant_type: 'client_credentials',
      client_id: SETTINGS.client_id,
      client_secret: SETTINGS.client_secret,
    });
    const [track] = server.to(TRACK_PATH);
    expect(track.method).toBe('POST');
    expect(track.headers.authorization).toBe('Bearer usps-access-token-1');
    expect(track.headers['content-type']).toBe('application/json');
    expect(track.headers.accept).toBe('application/json');
    expect(JSON.parse(track.body)).toEqual([{ trackingNumber: DELIVERED }]);
  });

  it('never asks more than 35 numbers in one call, with one call in flight, and one token for them all', async () => {
    server = await uspsServer((request) => ({ ...trackingReply(request), delayMs: 30 }));
    const adapter = new UnpacedUsps(localToolkit('uspsus', server.url));
    const numbers = Array.from({ length: 80 }, (_, i) => `9400111899223851${String(100_000 + i).slice(1)}0`);
    const results = await adapter.track(requestsFor(...numbers), SETTINGS, { now: new Date() });
    expect(results.map((r) => r.tracking_number)).toEqual(numbers);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    const sizes = server.to(TRACK_PATH).map((r) => askedNumbers(r).length);
    expect(sizes.sort((a, b) => b - a)).toEqual([35, 35, 10]);
    expect(server.maxInFlight).toBe(1);
    await adapter.track(requestsFor(DELIVERED, OUT_FOR_DELIVERY), SETTINGS, { now: new Date() });
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
  });

  it('spends the hourly quota at one call a minute (and 5%) per credential, and then calls again', async () => {
    const clock = manualClock();
    const adapter = await setUp({ now: clock.now });
    expect((await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() }))[0].status).toBe('ok');
    clock.advance(59_500);
    const [early] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date(), signal: AbortSignal.timeout(200) });
    expect(errorOf(early)).toMatchObject({ retryable: true, message: expect.stringContaining('deadline') });
    expect(server.to(TRACK_PATH)).toHaveLength(1);
    // A minute and 5% (the margin kept between two requests): the next call goes.
    clock.advance(3_600);
    const again = (await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() }))[0];
    expect(again.status, JSON.stringify(again)).toBe('ok');
    expect(server.to(TRACK_PATH)).toHaveLength(2);
    // Another merchant's credential has its own minute.
    expect((await adapter.track(requestsFor(DELIVERED), { ...SETTINGS, client_id: 'another-key' }, { now: new Date() }))[0].status).toBe(
      'ok',
    );
    expect(server.to(TRACK_PATH)).toHaveLength(3);
  });

  it('drops a refused token, fetches a new one and retries once', async () => {
    const adapter = await setUp({ unpaced: true });
    await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    server.once(TRACK_PATH, { status: 401, body: fixture('unauthorized') });
    const [result] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    expect(result.status).toBe('ok');
    expect(server.to(TOKEN_PATH)).toHaveLength(2);
    expect(server.to(TRACK_PATH).map((r) => r.headers.authorization)).toEqual([
      'Bearer usps-access-token-1',
      'Bearer usps-access-token-1',
      'Bearer usps-access-token-2',
    ]);
  });

  it('reports credentials USPS keeps refusing as a non-retryable error that says what to check, secrets redacted', async () => {
    const adapter = await setUp({ unpaced: true });
    const echo = { status: 401, body: { error: { code: '401', message: `invalid client ${SETTINGS.client_secret}` } } };
    server.once(TRACK_PATH, echo).once(TRACK_PATH, echo);
    const [result] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    const error = errorOf(result);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('tracking');
    expect(JSON.stringify(result)).not.toContain(SETTINGS.client_secret);
    expect(JSON.stringify(result)).not.toContain('usps-access-token');
  });

  it('a token USPS will not issue is a non-retryable error, without a tracking call', async () => {
    const adapter = await setUp();
    server.once(TOKEN_PATH, { status: 400, body: { error: 'invalid_client', error_description: 'bad credentials' } });
    const [result] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    expect(errorOf(result).retryable).toBe(false);
    expect(server.to(TRACK_PATH)).toHaveLength(0);
  });

  it('429 with Retry-After: 7 pauses the credential 7 s: the next track answers the pause without calling USPS', async () => {
    const adapter = await setUp({ unpaced: true });
    server.once(TRACK_PATH, { status: 429, headers: { 'retry-after': '7' }, body: fixture('throttled') });
    const [first] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    expect(errorOf(first)).toMatchObject({ retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const [second] = await adapter.track(requestsFor(OUT_FOR_DELIVERY), SETTINGS, { now: new Date() });
    expect(errorOf(second)).toMatchObject({ retryable: true, throttled: 'rate' });
    expect(errorOf(second).retry_after_seconds).toBeLessThanOrEqual(7);
    expect(server.to(TRACK_PATH)).toHaveLength(1);
  });

  it('429 with an HTTP-date Retry-After counts the seconds to that date', async () => {
    const clock = manualClock(Date.parse('2026-11-23T10:00:00Z'));
    const adapter = await setUp({ now: clock.now });
    server.once(TRACK_PATH, { status: 429, headers: { 'retry-after': 'Mon, 23 Nov 2026 10:02:00 GMT' }, body: fixture('throttled') });
    const [result] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    expect(errorOf(result)).toMatchObject({ throttled: 'rate', retry_after_seconds: 120 });
  });

  it("USPS's quota answer pauses the credential until the next full hour, or its Retry-After", async () => {
    const clock = manualClock(Date.parse('2026-11-23T10:45:30Z'));
    const adapter = await setUp({ now: clock.now });
    server.once(TRACK_PATH, { status: 429, body: fixture('quota') });
    const [result] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    expect(errorOf(result)).toMatchObject({ retryable: true, throttled: 'quota', retry_after_seconds: 14 * 60 + 30 });
    const [paused] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    expect(errorOf(paused)).toMatchObject({ throttled: 'quota', retry_after_seconds: 14 * 60 + 30 });
    expect(server.to(TRACK_PATH)).toHaveLength(1);

    clock.advance(60 * 60_000);
    server.once(TRACK_PATH, { status: 429, headers: { 'retry-after': '120' }, body: fixture('quota') });
    const [again] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    expect(errorOf(again)).toMatchObject({ throttled: 'quota', retry_after_seconds: 120 });
  });

  it('retries a 503 once, then reports a retryable error', async () => {
    const adapter = await setUp({ unpaced: true });
    server
      .once(TRACK_PATH, { status: 503, body: { error: { code: '503' } } })
      .once(TRACK_PATH, { status: 503, body: { error: { code: '503' } } });
    const [result] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    expect(errorOf(result).retryable).toBe(true);
    expect(server.to(TRACK_PATH)).toHaveLength(2);
    expect((await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() }))[0].status).toBe('ok');
  });

  it('abandons a call USPS never answers at the deadline', async () => {
    const adapter = await setUp();
    server.once(TRACK_PATH, { hang: true });
    const started = Date.now();
    const [result] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date(), signal: AbortSignal.timeout(300) });
    expect(errorOf(result).retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses an answer over 4 MiB without retrying', async () => {
    const adapter = await setUp();
    server.once(TRACK_PATH, { status: 200, headers: { 'content-type': 'application/json' }, body: `[${'"x",'.repeat(1_200_000)}"x"]` });
    const [result] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    expect(errorOf(result).retryable).toBe(false);
    expect(server.to(TRACK_PATH)).toHaveLength(1);
  });

  it('answers a batch per number: found, unknown (207), and a number USPS cannot take, which is not sent', async () => {
    const adapter = await setUp();
    const [found, unknown, invalid] = await adapter.track(requestsFor(DELIVERED, UNKNOWN, 'AB-1'), SETTINGS, { now: new Date() });
    expect(found.status).toBe('ok');
    expect(unknown).toEqual({ status: 'not_found', tracking_number: UNKNOWN });
    expect(errorOf(invalid).retryable).toBe(false);
    expect(askedNumbers(server.to(TRACK_PATH)[0])).toEqual([DELIVERED, UNKNOWN]);
  });

  it("reads USPS's whole-request 400 with code 150002 as not found", async () => {
    const adapter = await setUp();
    server.once(TRACK_PATH, { status: 400, body: fixture('not-found') });
    const [result] = await adapter.track(requestsFor(UNKNOWN), SETTINGS, { now: new Date() });
    expect(result).toEqual({ status: 'not_found', tracking_number: UNKNOWN });
  });

  it('reports an answer that is not JSON as unreadable', async () => {
    const adapter = await setUp();
    server.once(TRACK_PATH, { status: 200, body: '<html>maintenance</html>' });
    const [result] = await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() });
    expect(errorOf(result).message).toContain('could not be read');
  });

  it("uses the operator's credentials when the configuration has none, and names a missing secret", async () => {
    const adapter = await setUp({
      env: { WAYBILL_CARRIER_USPSUS_CLIENT_ID: 'operator-key', WAYBILL_CARRIER_USPSUS_CLIENT_SECRET: 'operator-secret-77' },
    });
    const [result] = await adapter.track(requestsFor(DELIVERED), {}, { now: new Date() });
    expect(result.status).toBe('ok');
    expect(JSON.parse(server.to(TOKEN_PATH)[0].body)).toMatchObject({ client_id: 'operator-key', client_secret: 'operator-secret-77' });

    const bare = new UspsCarrier(localToolkit('uspsus', server.url));
    const [missing] = await bare.track(requestsFor(DELIVERED), { client_id: 'only-the-key' }, { now: new Date() });
    expect(errorOf(missing)).toMatchObject({ retryable: false, message: expect.stringContaining('client_secret') });
  });

  it('puts no secret into any result', async () => {
    const adapter = await setUp({ unpaced: true });
    const echo = { status: 500, body: `server echoed ${SETTINGS.client_secret}, ${SETTINGS.client_id} and usps-access-token-1` };
    server.once(TRACK_PATH, echo).once(TRACK_PATH, echo).once(TRACK_PATH, echo).once(TRACK_PATH, echo);
    const results = [
      ...(await adapter.track(requestsFor(DELIVERED), SETTINGS, { now: new Date() })),
      ...(await adapter.track(requestsFor(DELIVERED, UNKNOWN, 'x'), SETTINGS, { now: new Date() })),
    ];
    const text = JSON.stringify(results);
    for (const secret of [SETTINGS.client_secret, SETTINGS.client_id, 'usps-access-token-1']) expect(text).not.toContain(secret);
  });
});

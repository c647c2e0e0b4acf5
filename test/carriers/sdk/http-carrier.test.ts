import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { retryAfterSeconds } from '../../../src/carriers/sdk/http.js';
import { CarrierServer, type ReceivedRequest } from '../support/carrier-server.js';
import { localToolkit, requestsFor } from '../support/kit.js';
import { TEST_LIMITS, TestCarrier } from './test-carrier.js';

const SETTINGS = { client_id: 'merchant-client', client_secret: 'merchant-secret-value' };

function answer(request: ReceivedRequest) {
  const numbers = decodeURIComponent(request.path.replace('/track/', '')).split(',');
  return {
    body: {
      results: numbers.map((number) => ({
        number,
        found: !number.startsWith('NF'),
        events: [
          { code: 'DLV', at: '2026-11-02T10:00:00+01:00' },
          { code: 'TRN', at: '2026-11-01T09:00:00+01:00' },
          { code: 'ZZZ', at: '2026-11-01T12:00:00' },
        ],
      })),
    },
  };
}

describe('the carrier SDK against a local carrier server', () => {
  let server: CarrierServer;
  let tokens = 0;
  beforeEach(async () => {
    tokens = 0;
    server = await new CarrierServer().start();
    server.on('POST', '/oauth/token', () => ({ body: { access_token: `token-${++tokens}`, expires_in: 3600 } }));
    server.on('GET', /^\/track\//, (r) => ({ ...answer(r), delayMs: 20 }));
  });
  afterEach(() => server.close());

  const carrier = (limits = TEST_LIMITS, env: Record<string, string> = {}) =>
    new TestCarrier(localToolkit('tstcar', server.url, env), limits);

  it('one result per request in order, batches within numbers_per_call, concurrency within the limit, one token for every call', async () => {
    const adapter = carrier();
    const numbers = ['A1', 'NF2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A1'];
    const results = await adapter.track(requestsFor(...numbers), SETTINGS, { now: new Date() });
    expect(results.map((r) => r.tracking_number)).toEqual(numbers);
    expect(results.map((r) => r.status)).toEqual(['ok', 'not_found', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    const calls = server.to(/^\/track\//);
    expect(calls.map((c) => c.path.split(',').length).sort()).toEqual([2, 3, 3]);
    expect(server.maxInFlight).toBeLessThanOrEqual(2);
    expect(server.to('/oauth/token')).toHaveLength(1);
    for (const call of calls) expect(call.headers.authorization).toBe('Bearer token-1');
    await adapter.track(requestsFor('A9'), SETTINGS, { now: new Date() });
    expect(server.to('/oauth/token')).toHaveLength(1);
    const first = results[0];
    if (first.status !== 'ok') throw new Error('expected ok');
    expect(first.events.map((e) => e.additional_info.carrier_code)).toEqual(['TRN', 'ZZZ', 'DLV']);
    expect(first.events.map((e) => e.event_key)).toEqual(['in_transit', null, 'delivered']);
  });

  it('keeps tokens and limits per credential: another merchant gets its own token', async () => {
    const adapter = carrier();
    await adapter.track(requestsFor('A1'), SETTINGS, { now: new Date() });
    await adapter.track(requestsFor('A1'), { client_id: 'other', client_secret: 'other-secret-value' }, { now: new Date() });
    expect(server.to('/oauth/token').map((r) => r.headers.authorization)).toEqual([
      `Basic ${Buffer.from('merchant-client:merchant-secret-value').toString('base64')}`,
      `Basic ${Buffer.from('other:other-secret-value').toString('base64')}`,
    ]);
  });

  it('a 401 drops the token, fetches a new one and retries once', async () => {
    const adapter = carrier();
    server.once(/^\/track\//, { status: 401, body: { error: 'expired' } });
    const [result] = await adapter.track(requestsFor('A1'), SETTINGS, { now: new Date() });
    expect(result.status).toBe('ok');
    expect(server.to('/oauth/token')).toHaveLength(2);
    expect(server.to(/^\/track\//).map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('a 429 with Retry-After in seconds or as an HTTP date pauses the credential without calling again', async () => {
    const adapter = carrier();
    server.once(/^\/track\//, { status: 429, headers: { 'retry-after': '7' }, body: 'slow down' });
    const [first] = await adapter.track(requestsFor('A1'), SETTINGS, { now: new Date() });
    expect(first).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const before = server.to(/^\/track\//).length;
    const [second] = await adapter.track(requestsFor('A2'), SETTINGS, { now: new Date() });
    expect(second).toMatchObject({ status: 'error', throttled: 'rate' });
    expect(server.to(/^\/track\//)).toHaveLength(before);

    const other = carrier();
    const date = new Date(Date.now() + 120_000).toUTCString();
    server.once(/^\/track\//, { status: 429, headers: { 'retry-after': date }, body: 'slow down' });
    const [dated] = await other.track(requestsFor('A1'), SETTINGS, { now: new Date() });
    expect(dated.status === 'error' && dated.retry_after_seconds).toBeGreaterThanOrEqual(118);
    expect(retryAfterSeconds('Wed, 21 Oct 2026 07:28:00 GMT', Date.parse('2026-10-21T07:27:00Z'))).toBe(60);
    expect(retryAfterSeconds('soon', Date.now())).toBeUndefined();
  });

  it('a daily-quota answer pauses the credential until the reset; a spent local quota never calls the carrier', async () => {
    const adapter = carrier({ ...TEST_LIMITS, daily_quota: 2, quota_reset_utc: '00:00' });
    server.once(/^\/track\//, { status: 429, body: 'daily quota exceeded' });
    const [result] = await adapter.track(requestsFor('A1'), SETTINGS, { now: new Date() });
    expect(result).toMatchObject({ status: 'error', throttled: 'quota' });

    const counted = carrier({ ...TEST_LIMITS, numbers_per_call: 1, concurrent_calls: 1, daily_quota: 2 });
    const results = await counted.track(requestsFor('B1', 'B2', 'B3'), SETTINGS, { now: new Date() });
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'error']);
    expect(results[2]).toMatchObject({ throttled: 'quota' });
    expect(counted.callsLeftToday(SETTINGS)).toBe(0);
  });

  it('a 503 is retried once, then reported; a hang ends at the deadline; an oversized answer is refused', async () => {
    const adapter = carrier();
    server.once(/^\/track\//, { status: 503, body: 'busy' });
    expect((await adapter.track(requestsFor('A1'), SETTINGS, { now: new Date() }))[0].status).toBe('ok');
    server.once(/^\/track\//, { status: 503, body: 'busy' }).once(/^\/track\//, { status: 502, body: 'still busy' });
    expect((await adapter.track(requestsFor('A1'), SETTINGS, { now: new Date() }))[0]).toMatchObject({ status: 'error', retryable: true });

    server.once(/^\/track\//, { hang: true });
    const started = Date.now();
    const [hung] = await adapter.track(requestsFor('A1'), SETTINGS, { now: new Date(), signal: AbortSignal.timeout(300) });
    expect(hung).toMatchObject({ status: 'error', retryable: true });
    expect(Date.now() - started).toBeLessThan(3000);

    server.once(/^\/track\//, { body: 'x'.repeat(4 * 1_048_576 + 10) });
    const [large] = await adapter.track(requestsFor('A1'), SETTINGS, { now: new Date() });
    expect(large).toMatchObject({ status: 'error', retryable: false });
  });

  it('never puts a secret or a token in a result, and refuses incomplete settings before calling', async () => {
    const adapter = carrier();
    server.once(/^\/track\//, { status: 400, body: 'bad request for merchant-secret-value with Bearer token-1' });
    const [result] = await adapter.track(requestsFor('A1'), SETTINGS, { now: new Date() });
    expect(result.status).toBe('error');
    expect(JSON.stringify(result)).not.toContain('merchant-secret-value');
    expect(JSON.stringify(result)).not.toContain('token-1');
    const before = server.requests.length;
    const [incomplete] = await adapter.track(requestsFor('A1'), { client_id: 'x' }, { now: new Date() });
    expect(incomplete).toMatchObject({ status: 'error', retryable: false });
    expect(incomplete.status === 'error' && incomplete.message).toContain('settings.client_secret');
    expect(server.requests.length).toBe(before);
  });

  it('operator settings fill what a configuration leaves out; the operator base URL is the only one used', async () => {
    const adapter = carrier(TEST_LIMITS, { WAYBILL_CARRIER_TSTCAR_CLIENT_SECRET: 'operator-secret-value' });
    const [result] = await adapter.track(requestsFor('A1'), { client_id: 'merchant-client', environment: 'sandbox' }, { now: new Date() });
    expect(result.status).toBe('ok');
    expect(server.to('/oauth/token')[0].headers.authorization).toBe(
      `Basic ${Buffer.from('merchant-client:operator-secret-value').toString('base64')}`,
    );
  });

  it('paces requests as they are sent: never more than the rate in any sliding second, retries and all counted', async () => {
    const adapter = carrier({ ...TEST_LIMITS, numbers_per_call: 1, concurrent_calls: 4, requests_per_second: 5, daily_quota: 100 });
    server.once(/^\/track\//, { status: 503, body: 'busy' });
    const numbers = Array.from({ length: 8 }, (_, i) => `R${i}`);
    const results = await adapter.track(requestsFor(...numbers), SETTINGS, { now: new Date() });
    expect(results.every((r) => r.status === 'ok')).toBe(true);
    const times = server.to(/^\/track\//).map((r) => r.at);
    expect(times).toHaveLength(9);
    for (let i = 5; i < times.length; i++) expect(times[i] - times[i - 5]).toBeGreaterThanOrEqual(1000);
    // Eight answers, nine requests: the retry after the 503 was paced and counted too.
    expect(adapter.callsLeftToday(SETTINGS)).toBe(91);
  });

  it('a call that gives up waiting for a slot takes none: the next calls still run one at a time', async () => {
    const adapter = carrier({ ...TEST_LIMITS, numbers_per_call: 1, concurrent_calls: 1, requests_per_second: 1000 });
    server.once(/^\/track\//, { body: answer({ path: '/track/S1' } as ReceivedRequest).body, delayMs: 300 });
    const first = adapter.track(requestsFor('S1'), SETTINGS, { now: new Date() });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [gaveUp] = await adapter.track(requestsFor('S2'), SETTINGS, { now: new Date(), signal: AbortSignal.timeout(100) });
    expect(gaveUp).toMatchObject({ status: 'error', throttled: 'rate' });
    await first;
    await Promise.all([
      adapter.track(requestsFor('S3'), SETTINGS, { now: new Date() }),
      adapter.track(requestsFor('S4'), SETTINGS, { now: new Date() }),
    ]);
    expect(server.maxInFlight).toBe(1);
  });

  it('with waitMs, a call that cannot go within the wait is held back at once, without a failure and without calling', async () => {
    const adapter = carrier({ ...TEST_LIMITS, numbers_per_call: 1, concurrent_calls: 1, requests_per_second: 1 / 60 });
    expect((await adapter.track(requestsFor('W1'), SETTINGS, { now: new Date() }))[0].status).toBe('ok');
    const started = Date.now();
    const [held] = await adapter.track(requestsFor('W2'), SETTINGS, { now: new Date(), signal: AbortSignal.timeout(60_000), waitMs: 100 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(held).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', held: true });
    expect(server.to(/^\/track\//)).toHaveLength(1);
  });

  it('with waitMs, a wait for the credential ends at its deadline however often the garbage collector runs', async () => {
    // Node's AbortSignal.any over AbortSignal.timeout loses the timeout in a collection (nodejs/node#57736).
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const adapter = carrier({ ...TEST_LIMITS, numbers_per_call: 1, concurrent_calls: 1, requests_per_second: 1 / 60 });
    expect((await adapter.track(requestsFor('G1'), SETTINGS, { now: new Date() }))[0].status).toBe('ok');
    const collector = setInterval(gc, 20);
    try {
      const started = Date.now();
      const [held] = await adapter.track(requestsFor('G2'), SETTINGS, {
        now: new Date(),
        signal: AbortSignal.timeout(60_000),
        waitMs: 100,
      });
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(held).toMatchObject({ status: 'error', throttled: 'rate', held: true });
    } finally {
      clearInterval(collector);
    }
    expect(server.to(/^\/track\//)).toHaveLength(1);
  });

  it('with waitMs, a call whose turn has come is sent even when the token took longer than the wait', async () => {
    const adapter = carrier({ ...TEST_LIMITS, numbers_per_call: 1, concurrent_calls: 1, requests_per_second: 1 / 60 });
    server.once('/oauth/token', { body: { access_token: 'slow-token', expires_in: 3600 }, delayMs: 300 });
    const [result] = await adapter.track(requestsFor('T1'), SETTINGS, {
      now: new Date(),
      signal: AbortSignal.timeout(60_000),
      waitMs: 100,
    });
    expect(result.status).toBe('ok');
    expect(server.to(/^\/track\//)).toHaveLength(1);
  });
});

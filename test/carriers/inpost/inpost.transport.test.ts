import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InpostCarrier } from '../../../src/carriers/inpost/inpost.carrier.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { localToolkit, requestsFor, trackOne } from '../support/kit.js';
import { API_TOKEN, inpostAdapter, inpostServer, SETTINGS, TOKEN_SETTINGS, TRACKING_PATH, UNKNOWN } from './inpost-server.js';

let server: CarrierServer;
let adapter: InpostCarrier;

beforeEach(async () => {
  server = await inpostServer();
  adapter = inpostAdapter(server).adapter;
});

afterEach(async () => {
  await server.close();
});

const track = (numbers: string[], settings: Record<string, unknown> = SETTINGS) =>
  adapter.track(requestsFor(...numbers), settings, { now: new Date() });

describe('InPost transport: requests', () => {
  it('asks the documented path with no token (tracking is public), accepting JSON', async () => {
    const result = await trackOne(adapter, '620000000000000000000003', SETTINGS);
    expect(result.status).toBe('ok');
    const [request] = server.to(TRACKING_PATH);
    expect(request.method).toBe('GET');
    expect(request.url).toBe('/v1/tracking/620000000000000000000003');
    expect(request.headers.accept).toBe('application/json');
    expect(request.headers.authorization).toBeUndefined();
  });

  it('sends a configured ShipX token as a bearer token', async () => {
    expect((await trackOne(adapter, '620000000000000000000003', TOKEN_SETTINGS)).status).toBe('ok');
    expect(server.to(TRACKING_PATH)[0].headers.authorization).toBe(`Bearer ${API_TOKEN}`);
  });

  it('goes to the Polish production host by default and the sandbox host for sandbox settings', () => {
    const plain = new InpostCarrier(localToolkit('other', 'http://127.0.0.1:1'));
    expect(plain.environments).toEqual(['production', 'sandbox']);
    expect((plain as unknown as { baseUrls: Record<string, string> }).baseUrls).toEqual({
      production: 'https://api-shipx-pl.easypack24.net',
      sandbox: 'https://sandbox-api-shipx-pl.easypack24.net',
    });
  });

  it('one number per call, one result per request in order; a repeated number is asked once', async () => {
    const numbers = [
      '620000000000000000000001',
      '620000000000000000000002',
      UNKNOWN,
      '620000000000000000000003',
      '620000000000000000000001',
    ];
    const results = await track(numbers);
    expect(results.map((r) => [r.tracking_number, r.status])).toEqual([
      ['620000000000000000000001', 'ok'],
      ['620000000000000000000002', 'ok'],
      [UNKNOWN, 'not_found'],
      ['620000000000000000000003', 'ok'],
      ['620000000000000000000001', 'ok'],
    ]);
    const calls = server.to(TRACKING_PATH);
    expect(calls).toHaveLength(4);
    for (const call of calls) expect(call.path.split('/').pop()).toMatch(/^\d{24}$/);
  });

  it('events come back oldest first', async () => {
    const result = await trackOne(adapter, '620000000000000000000004', SETTINGS);
    expect(result.status === 'ok' && result.events.map((e) => e.additional_info.carrier_code)).toEqual([
      'ready_to_pickup',
      'pickup_reminder_sent',
      'pickup_time_expired',
      'avizo',
      'returned_to_sender',
    ]);
  });

  it('never more calls in flight than limits.concurrent_calls', async () => {
    await server.close();
    server = await inpostServer({ delayMs: 700 });
    adapter = inpostAdapter(server).adapter;
    const numbers = Array.from({ length: 12 }, (_, i) => `6299999999999999999${String(i).padStart(5, '0')}`);
    const results = await track(numbers);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    expect(server.to(TRACKING_PATH)).toHaveLength(12);
    expect(server.maxInFlight).toBeLessThanOrEqual(adapter.limits.concurrent_calls);
    expect(server.maxInFlight).toBeGreaterThan(1);
  });

  it('counts statuses its table lacks, and those it leaves without a key on purpose', async () => {
    const { adapter: counted, kit } = inpostAdapter(server);
    await trackOne(counted, '620000000000000000000010', SETTINGS);
    const metrics = await kit.metrics.registry.getMetricsAsJSON();
    const unmapped = metrics.find((m) => m.name === 'waybill_carrier_unmapped_codes_total');
    const codes = (unmapped?.values ?? []).map((v) => v.labels.code);
    expect(codes).toEqual(expect.arrayContaining(['a_status_not_yet_documented', 'other', 'undelivered']));
    expect(codes).not.toContain('collected_from_sender');
  });

  it('configurations without a token share one credential; a token is a credential of its own', () => {
    expect(adapter.credentialKey(SETTINGS)).toBe(adapter.credentialKey({ environment: 'sandbox', poll_interval_seconds: 600 }));
    expect(adapter.credentialKey(TOKEN_SETTINGS)).not.toBe(adapter.credentialKey(SETTINGS));
    expect(adapter.credentialKey({})).not.toBe(adapter.credentialKey(SETTINGS));
  });
});

describe('InPost transport: answers', () => {
  it('404 resource_not_found is not found', async () => {
    expect(await trackOne(adapter, UNKNOWN, SETTINGS)).toEqual({ status: 'not_found', tracking_number: UNKNOWN });
  });

  it('a 200 that is not JSON is a retryable error; a 400 is not retried and quotes ShipX', async () => {
    server.once(TRACKING_PATH, { status: 200, body: '<html>maintenance</html>' });
    expect(await trackOne(adapter, '620000000000000000000001', SETTINGS)).toMatchObject({ status: 'error', retryable: true });
    server.once(TRACKING_PATH, {
      status: 400,
      body: { status: 400, error: 'invalid_parameter', message: 'Invalid tracking number', details: {} },
    });
    const invalid = await trackOne(adapter, '620000000000000000000001', SETTINGS);
    expect(invalid).toMatchObject({ status: 'error', retryable: false });
    expect(invalid.status === 'error' && invalid.message).toBe(
      'InPost refused the tracking call (HTTP 400): invalid_parameter: Invalid tracking number',
    );
    server.once(TRACKING_PATH, { status: 400, body: 'plain text' });
    const plain = await trackOne(adapter, '620000000000000000000001', SETTINGS);
    expect(plain).toMatchObject({ status: 'error', retryable: false });
    expect(plain.status === 'error' && plain.message).toContain('HTTP 400');
  });

  it('one number failing leaves the others answered', async () => {
    server.once('/v1/tracking/620000000000000000000003', { status: 500, body: 'boom' });
    server.once('/v1/tracking/620000000000000000000003', { status: 500, body: 'boom' });
    const results = await track(['620000000000000000000001', '620000000000000000000003', '620000000000000000000002']);
    expect(results.map((r) => r.status)).toEqual(['ok', 'error', 'ok']);
    expect(results[1]).toMatchObject({ retryable: true, tracking_number: '620000000000000000000003' });
  });

  it('401: a refused token is not retried and is no token to refresh', async () => {
    const result = await trackOne(adapter, '620000000000000000000001', { ...TOKEN_SETTINGS, api_token: 'wrong-token-123' });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('HTTP 401');
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
  });

  it('429 with Retry-After seconds pauses the credential; the next call does not reach InPost', async () => {
    server.once(TRACKING_PATH, { status: 429, headers: { 'retry-after': '7' }, body: { status: 429, error: 'too_many_requests' } });
    const first = await trackOne(adapter, '620000000000000000000001', SETTINGS);
    expect(first).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const second = await trackOne(adapter, '620000000000000000000002', SETTINGS);
    expect(second).toMatchObject({ status: 'error', retryable: true, throttled: 'rate' });
    expect(second.status === 'error' && second.retry_after_seconds).toBeGreaterThanOrEqual(6);
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
  });

  it('429 with an HTTP date', async () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    const dated = inpostAdapter(server, () => now).adapter;
    server.once(TRACKING_PATH, { status: 429, headers: { 'retry-after': 'Sat, 21 Nov 2026 10:01:30 GMT' } });
    const result = await trackOne(dated, '620000000000000000000001', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 90 });
    expect(await trackOne(dated, '620000000000000000000002', SETTINGS)).toMatchObject({ throttled: 'rate', retry_after_seconds: 90 });
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
  });

  it('503 is retried once, then reported', async () => {
    server.once(TRACKING_PATH, { status: 503, body: 'unavailable' });
    expect((await trackOne(adapter, '620000000000000000000001', SETTINGS)).status).toBe('ok');
    expect(server.to(TRACKING_PATH)).toHaveLength(2);
    server.once(TRACKING_PATH, { status: 503, body: 'unavailable' });
    server.once(TRACKING_PATH, { status: 503, body: 'unavailable' });
    const failed = await trackOne(adapter, '620000000000000000000001', SETTINGS);
    expect(failed).toMatchObject({ status: 'error', retryable: true });
    expect(failed.status === 'error' && failed.message).toContain('HTTP 503');
    expect(server.to(TRACKING_PATH)).toHaveLength(4);
  });

  it('a call hanging past the deadline is abandoned', async () => {
    server.once(TRACKING_PATH, { hang: true });
    const started = Date.now();
    const [result] = await adapter.track(requestsFor('620000000000000000000001'), SETTINGS, {
      now: new Date(),
      signal: AbortSignal.timeout(300),
    });
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('an answer over 4 MiB is refused and not retried', async () => {
    server.once(TRACKING_PATH, { status: 200, body: `{"tracking_number":"${'x'.repeat(4 * 1_048_576 + 10)}"}` });
    const result = await trackOne(adapter, '620000000000000000000001', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
  });

  it('a setting the adapter does not know is refused before any call', async () => {
    const [result] = await track(['620000000000000000000001'], { api_key: 'x', environment: 'sandbox' });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('api_key');
    expect(server.requests).toHaveLength(0);
  });

  it('the operator’s token serves configurations without one', async () => {
    const kit = localToolkit('inpost', server.url, { WAYBILL_CARRIER_INPOST_API_TOKEN: API_TOKEN });
    const operated = new InpostCarrier(kit);
    expect((await trackOne(operated, '620000000000000000000001', SETTINGS)).status).toBe('ok');
    expect(server.to(TRACKING_PATH)[0].headers.authorization).toBe(`Bearer ${API_TOKEN}`);
  });

  it('no token appears in any result, even when ShipX echoes it', async () => {
    server.once(TRACKING_PATH, { status: 400, body: { status: 400, error: 'invalid_parameter', message: `Bad request for ${API_TOKEN}` } });
    server.once(TRACKING_PATH, { status: 403, body: { status: 403, error: 'forbidden', message: `Token ${API_TOKEN} refused` } });
    server.once(TRACKING_PATH, { status: 503, body: `down for ${API_TOKEN}` });
    server.once(TRACKING_PATH, { status: 503, body: `down for ${API_TOKEN}` });
    const results = [
      await trackOne(adapter, '620000000000000000000001', TOKEN_SETTINGS),
      await trackOne(adapter, '620000000000000000000001', TOKEN_SETTINGS),
      await trackOne(adapter, '620000000000000000000001', TOKEN_SETTINGS),
      ...(await track(['620000000000000000000001', '620000000000000000000005', UNKNOWN], TOKEN_SETTINGS)),
    ];
    expect(results.slice(0, 3).every((r) => r.status === 'error')).toBe(true);
    expect(results[0].status === 'error' && results[0].message).toContain('[redacted]');
    expect(JSON.stringify(results)).not.toContain(API_TOKEN);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { requestsFor } from '../support/kit.js';
import { NUMBERS, SETTINGS, TOKEN_PATH, TRACK_PATH, UpsServer, upsAdapter } from './ups-server.js';

let server: UpsServer;
beforeEach(async () => {
  server = await UpsServer.create();
});
afterEach(async () => {
  await server.close();
});

const track = (
  adapter: ReturnType<typeof upsAdapter>,
  numbers: string[],
  options: { signal?: AbortSignal; settings?: Record<string, unknown> } = {},
) => adapter.track(requestsFor(...numbers), options.settings ?? SETTINGS, { now: new Date(), signal: options.signal });

function noSecrets(results: TrackResult[]): void {
  const text = JSON.stringify(results);
  for (const secret of [SETTINGS.client_secret, SETTINGS.client_id, ...server.validTokens, 'wb-access-token-']) {
    expect(text).not.toContain(secret);
  }
}

describe('UPS transport: the calls UPS documents', () => {
  it('asks for a token with Basic auth and the client-credentials grant, then tracks with its headers', async () => {
    const [result] = await track(upsAdapter(server), [NUMBERS.delivered]);
    expect(result.status).toBe('ok');

    const [tokenCall] = server.to(TOKEN_PATH);
    expect(tokenCall.method).toBe('POST');
    expect(tokenCall.headers.authorization).toBe(
      `Basic ${Buffer.from(`${SETTINGS.client_id}:${SETTINGS.client_secret}`).toString('base64')}`,
    );
    expect(tokenCall.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(tokenCall.body).get('grant_type')).toBe('client_credentials');

    const [trackCall] = server.to(TRACK_PATH);
    expect(trackCall.method).toBe('GET');
    expect(trackCall.path).toBe(`/api/track/v1/details/${NUMBERS.delivered}`);
    expect(trackCall.headers.authorization).toBe('Bearer wb-access-token-1');
    expect(trackCall.headers.transid).toMatch(/^[0-9a-f]{32}$/);
    expect(trackCall.headers.transactionsrc).toBe('waybill');
    expect(Object.fromEntries(trackCall.query)).toEqual({
      locale: 'en_US',
      returnSignature: 'true',
      returnMilestones: 'false',
      returnPOD: 'false',
    });
  });

  it('sends one number per call, a new transId each time, and answers in request order', async () => {
    const numbers = [NUMBERS.inTransit, NUMBERS.delivered, NUMBERS.notFound, NUMBERS.attempts, NUMBERS.returns, NUMBERS.cancelled];
    const results = await track(upsAdapter(server), numbers);
    expect(results.map((r) => r.tracking_number)).toEqual(numbers);
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'not_found', 'ok', 'ok', 'ok']);
    const calls = server.to(TRACK_PATH);
    expect(calls.map((c) => server.numberOf(c)).sort()).toEqual([...numbers].sort());
    expect(new Set(calls.map((c) => c.headers.transid)).size).toBe(numbers.length);
  });

  it('reuses one token for many polls', async () => {
    const adapter = upsAdapter(server);
    for (let i = 0; i < 4; i++) await track(adapter, [NUMBERS.delivered, NUMBERS.inTransit]);
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    expect(server.to(TRACK_PATH)).toHaveLength(8);
  });

  it('never has more calls in flight than limits.concurrent_calls', async () => {
    server.trackDelayMs = 700; // longer than the 215 ms between two requests at 5 per second, so calls overlap
    const adapter = upsAdapter(server);
    const numbers = Array.from({ length: 12 }, (_, i) => [NUMBERS.delivered, NUMBERS.inTransit, NUMBERS.attempts][i % 3]);
    const unique = [...new Set(numbers)];
    await Promise.all([track(adapter, unique), track(adapter, unique), track(adapter, unique), track(adapter, unique)]);
    expect(server.to(TRACK_PATH)).toHaveLength(12);
    expect(server.maxInFlight).toBeLessThanOrEqual(adapter.limits.concurrent_calls);
    expect(server.maxInFlight).toBeGreaterThan(1);
  });

  it('not found: the 200 with TW0001 and the documented 404', async () => {
    const results = await track(upsAdapter(server), [NUMBERS.notFound, NUMBERS.notFound404]);
    expect(results).toEqual([
      { status: 'not_found', tracking_number: NUMBERS.notFound },
      { status: 'not_found', tracking_number: NUMBERS.notFound404 },
    ]);
  });

  it('a 400 in UPS’s shape is a lasting error quoting UPS; an unreadable 200 is a passing one', async () => {
    const [bad, malformed, unexpected] = await track(upsAdapter(server), [NUMBERS.badRequest, NUMBERS.malformed, NUMBERS.unexpected]);
    expect(bad).toMatchObject({ status: 'error', retryable: false });
    expect(bad.status === 'error' && bad.message).toContain('TV0001: Invalid inquiry number');
    expect(malformed).toMatchObject({ status: 'error', retryable: true });
    expect(malformed.status === 'error' && malformed.message).toContain('could not be read (HTTP 200)');
    expect(unexpected).toMatchObject({ status: 'error', retryable: true });
  });

  it('a 404 that is not UPS’s error shape is an error, not an unknown number', async () => {
    server.once(TRACK_PATH, { status: 404, body: '<html>Not Found</html>', headers: { 'content-type': 'text/html' } });
    const [result] = await track(upsAdapter(server), [NUMBERS.delivered]);
    expect(result).toMatchObject({ status: 'error' });
  });
});

describe('UPS transport: tokens', () => {
  it('a 401 drops the token, fetches a new one and retries the call once', async () => {
    const adapter = upsAdapter(server);
    await track(adapter, [NUMBERS.delivered]);
    server.validTokens.clear();
    const [result] = await track(adapter, [NUMBERS.inTransit]);
    expect(result.status).toBe('ok');
    expect(server.to(TOKEN_PATH)).toHaveLength(2);
    const calls = server.to(TRACK_PATH);
    expect(calls.map((c) => c.headers.authorization)).toEqual([
      'Bearer wb-access-token-1',
      'Bearer wb-access-token-1',
      'Bearer wb-access-token-2',
    ]);
  });

  it('a 401 that survives the new token is a lasting error', async () => {
    server.once(TRACK_PATH, {
      status: 401,
      body: { response: { errors: [{ code: '250002', message: 'Invalid Authentication Information.' }] } },
    });
    server.once(TRACK_PATH, {
      status: 401,
      body: { response: { errors: [{ code: '250002', message: 'Invalid Authentication Information.' }] } },
    });
    const [result] = await track(upsAdapter(server), [NUMBERS.delivered]);
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(TRACK_PATH)).toHaveLength(2);
  });

  it('refused credentials are a lasting error that quotes no secret', async () => {
    const results = await track(upsAdapter(server), [NUMBERS.delivered], {
      settings: { ...SETTINGS, client_secret: 'wb-wrong-secret-55' },
    });
    expect(results[0]).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(TRACK_PATH)).toHaveLength(0);
    expect(JSON.stringify(results)).not.toContain('wb-wrong-secret-55');
    noSecrets(results);
  });

  it('a configuration without its secret is refused before any call', async () => {
    const results = await track(upsAdapter(server), [NUMBERS.delivered], { settings: { client_id: SETTINGS.client_id } });
    expect(results[0]).toMatchObject({ status: 'error', retryable: false });
    expect(results[0].status === 'error' && results[0].message).toContain('client_secret');
    expect(server.requests).toHaveLength(0);
  });
});

describe('UPS transport: throttling and faults', () => {
  it('a 429 with Retry-After in seconds pauses the credential; the next call gets the pause without calling UPS', async () => {
    const adapter = upsAdapter(server);
    server.once(TRACK_PATH, {
      status: 429,
      headers: { 'retry-after': '7' },
      body: { response: { errors: [{ code: '429', message: 'Too Many Requests' }] } },
    });
    const [first] = await track(adapter, [NUMBERS.delivered]);
    expect(first).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const before = server.requests.length;
    const [second] = await track(adapter, [NUMBERS.inTransit]);
    expect(second).toMatchObject({ status: 'error', retryable: true, throttled: 'rate' });
    expect(second.status === 'error' && second.retry_after_seconds).toBeGreaterThanOrEqual(6);
    expect(server.requests.length).toBe(before);
    // Another merchant's credential is not paused.
    const [other] = await track(adapter, [NUMBERS.inTransit], { settings: { ...SETTINGS, client_id: 'wb-other-client' } });
    expect(other.status).toBe('error');
    expect(other.status === 'error' && other.throttled).toBeUndefined();
  });

  it('a 429 with Retry-After as an HTTP date', async () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const adapter = upsAdapter(server, () => now);
    server.once(TRACK_PATH, { status: 429, headers: { 'retry-after': new Date(now + 120_000).toUTCString() } });
    const [result] = await track(adapter, [NUMBERS.delivered]);
    expect(result).toMatchObject({ status: 'error', throttled: 'rate', retry_after_seconds: 120 });
  });

  it('a 429 from the token endpoint (UPS documents it as its quota) pauses the credential too', async () => {
    server.once(TOKEN_PATH, {
      status: 429,
      headers: { 'retry-after': '30' },
      body: { response: { errors: [{ code: '10429', message: 'Quota Limit Exceeded' }] } },
    });
    const [result] = await track(upsAdapter(server), [NUMBERS.delivered]);
    expect(result).toMatchObject({ status: 'error', throttled: 'rate', retry_after_seconds: 30 });
    expect(server.to(TRACK_PATH)).toHaveLength(0);
  });

  it('a 503 is retried once, then reported as a passing error', async () => {
    const adapter = upsAdapter(server);
    server.once(TRACK_PATH, { status: 503, body: { response: { errors: [{ code: '503', message: 'Service Unavailable' }] } } });
    const [recovered] = await track(adapter, [NUMBERS.delivered]);
    expect(recovered.status).toBe('ok');
    expect(server.to(TRACK_PATH)).toHaveLength(2);

    server.once(TRACK_PATH, { status: 503 });
    server.once(TRACK_PATH, { status: 503 });
    const [failed] = await track(adapter, [NUMBERS.inTransit]);
    expect(failed).toMatchObject({ status: 'error', retryable: true });
    expect(server.to(TRACK_PATH)).toHaveLength(4);
  });

  it('a hanging call is abandoned at the deadline', async () => {
    const adapter = upsAdapter(server);
    await track(adapter, [NUMBERS.delivered]);
    server.once(TRACK_PATH, { hang: true });
    const started = Date.now();
    const [result] = await track(adapter, [NUMBERS.inTransit], { signal: AbortSignal.timeout(300) });
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('an answer over 4 MiB is a lasting error', async () => {
    server.once(TRACK_PATH, {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: `{"pad":"${'x'.repeat(4.5 * 1_048_576)}"}`,
    });
    const [result] = await track(upsAdapter(server), [NUMBERS.delivered]);
    expect(result).toMatchObject({ status: 'error', retryable: false });
  });

  it('no secret or token appears in any result, even when UPS echoes them', async () => {
    const adapter = upsAdapter(server);
    const results: TrackResult[] = [];
    results.push(...(await track(adapter, Object.values(NUMBERS))));
    server.once(TRACK_PATH, {
      status: 400,
      body: {
        response: { errors: [{ code: 'TV9999', message: `bad ${SETTINGS.client_secret} wb-access-token-1 ${SETTINGS.client_id}` }] },
      },
    });
    results.push(...(await track(adapter, [NUMBERS.delivered])));
    server.once(TRACK_PATH, { status: 418, body: `teapot ${SETTINGS.client_secret} wb-access-token-1` });
    results.push(...(await track(adapter, [NUMBERS.inTransit])));
    expect(results.at(-2)).toMatchObject({ status: 'error', retryable: false });
    noSecrets(results);
  });
});

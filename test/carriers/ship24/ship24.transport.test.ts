import { afterEach, describe, expect, it } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { nextReset } from '../../../src/carriers/sdk/limits.js';
import { clientTrackerId } from '../../../src/carriers/ship24/ship24.trackers.js';
import { requestsFor } from '../support/kit.js';
import {
  API_KEY,
  BULK_PATH,
  COURIERS_PATH,
  fixture,
  NUMBERS,
  RESULTS_PATH,
  SETTINGS,
  type Ship24Server,
  ship24Adapter,
  ship24Server,
  TRACKER_PATH,
} from './ship24-server.js';

const servers: Ship24Server[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

async function setup(options: { registered?: readonly string[]; delayMs?: number; env?: Record<string, string> } = {}) {
  const server = await ship24Server(options);
  servers.push(server);
  return { server, ...ship24Adapter(server, options.env) };
}

type Adapter = ReturnType<typeof ship24Adapter>['adapter'];

const track = (adapter: Adapter, numbers: string[], settings: Record<string, unknown> = SETTINGS, signal?: AbortSignal) =>
  adapter.track(requestsFor(...numbers), settings, { now: new Date(), signal });

function errorOf(result: TrackResult | undefined) {
  if (result?.status !== 'error') throw new Error(`expected an error, got ${JSON.stringify(result)}`);
  return result;
}

async function registrations(kit: ReturnType<typeof ship24Adapter>['kit']): Promise<number> {
  const metric = await kit.metrics.registry.getSingleMetric('waybill_carrier_registrations_total')?.get();
  return metric?.values.find((v) => v.labels.carrier === 'ship24')?.value ?? 0;
}

const everyNumber = Object.values(NUMBERS);

describe('ship24 transport against a local Ship24', () => {
  it('reads results by clientTrackerId with the API key as a bearer token, and the courier list once', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    const [result] = await track(adapter, [NUMBERS.delivered]);
    expect(result).toMatchObject({ status: 'ok', carrier_of_record: { name: 'Royal Mail', courier_code: 'royal-mail', carrier_id: null } });
    const [call] = server.to(RESULTS_PATH);
    expect(call.method).toBe('GET');
    expect(call.path).toBe(`/public/v1/trackers/${clientTrackerId(NUMBERS.delivered)}/results`);
    expect(call.query.get('searchBy')).toBe('clientTrackerId');
    expect(call.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(call.headers.accept).toBe('application/json');
    await track(adapter, [NUMBERS.delivered]);
    expect(server.to(COURIERS_PATH)).toHaveLength(1);
    expect(server.to(BULK_PATH)).toHaveLength(0);
  });

  it('registers numbers Ship24 does not know in one bulk call, counts them, and answers them not found for now', async () => {
    const { server, adapter, kit } = await setup({ registered: [NUMBERS.delivered] });
    const numbers = [NUMBERS.delivered, NUMBERS.pickup, NUMBERS.international, 'TT200000037GB'];
    const results = await track(adapter, numbers);
    expect(results.map((r) => r.status)).toEqual(['ok', 'not_found', 'not_found', 'not_found']);
    const [bulk] = server.to(BULK_PATH);
    expect(server.to(BULK_PATH)).toHaveLength(1);
    expect(bulk.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(bulk.headers['content-type']).toContain('application/json');
    expect(JSON.parse(bulk.body)).toEqual(
      numbers.slice(1).map((number) => ({ trackingNumber: number, clientTrackerId: clientTrackerId(number) })),
    );
    expect(await registrations(kit)).toBe(3);
    // Found the next time, from the trackers made.
    const again = await track(adapter, numbers);
    expect(again.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'not_found']);
    expect(server.to(BULK_PATH)).toHaveLength(1);
    expect(await registrations(kit)).toBe(3);
  });

  it('registers each number once over repeated polls, failed calls and a restart', async () => {
    const { server, adapter } = await setup();
    // The first results call of one number fails twice (503, retried once): that number is not registered.
    server.once(RESULTS_PATH, { status: 503, body: 'Service Unavailable' });
    server.once(RESULTS_PATH, { status: 503, body: 'Service Unavailable' });
    const first = await track(adapter, [NUMBERS.pending]);
    expect(errorOf(first[0]).retryable).toBe(true);
    expect(server.created).toEqual([]);
    // A results call that hangs until the deadline: nothing is registered either.
    server.once(RESULTS_PATH, { hang: true });
    const hung = await track(adapter, [NUMBERS.pending], SETTINGS, AbortSignal.timeout(400));
    expect(errorOf(hung[0]).retryable).toBe(true);
    expect(server.created).toEqual([]);
    // The bulk answer is lost (a 503 twice): Ship24 may have created the tracker, the next poll finds it either way.
    server.once(BULK_PATH, { status: 503, body: 'Service Unavailable' });
    server.once(BULK_PATH, { status: 503, body: 'Service Unavailable' });
    expect(errorOf((await track(adapter, [NUMBERS.pending]))[0]).retryable).toBe(true);
    for (let i = 0; i < 3; i++) await track(adapter, [NUMBERS.pending, NUMBERS.delivered]);
    // A restart: a new toolkit and adapter, the same Ship24.
    const restarted = ship24Adapter(server).adapter;
    for (let i = 0; i < 2; i++) await track(restarted, [NUMBERS.pending, NUMBERS.delivered, NUMBERS.inpost]);
    expect([...server.created].sort()).toEqual([NUMBERS.delivered, NUMBERS.inpost, NUMBERS.pending].sort());
    expect((await track(restarted, [NUMBERS.inpost]))[0]).toMatchObject({ status: 'ok', carrier_of_record: { name: 'InPost' } });
  });

  it('asks at most 20 numbers per batch, one results call each, and registers a batch in one bulk call', async () => {
    const { server, adapter } = await setup();
    const numbers = Array.from({ length: 25 }, (_, i) => `TT2${String(i).padStart(8, '0')}9GB`);
    const results = await track(adapter, numbers);
    expect(results.map((r) => r.tracking_number)).toEqual(numbers);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    expect(server.to(RESULTS_PATH)).toHaveLength(25);
    const sizes = server.to(BULK_PATH).map((r) => (JSON.parse(r.body) as unknown[]).length);
    expect(sizes.sort((a, b) => b - a)).toEqual([20, 5]);
    expect(server.created).toHaveLength(25);
  });

  it('a 401 is a non-retryable error that quotes no key', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(RESULTS_PATH, { status: 401, body: { errors: [{ code: 'auth_invalid_api_key', message: `Invalid key ${API_KEY}` }] } });
    const error = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('401');
    expect(JSON.stringify(error)).not.toContain(API_KEY);
    // A wrong key throughout.
    const refused = await track(adapter, [NUMBERS.delivered], { api_key: 'apik_wrong_key_0000' });
    expect(errorOf(refused[0]).retryable).toBe(false);
    expect(JSON.stringify(refused)).not.toContain('apik_wrong_key_0000');
  });

  it('a 429 with Retry-After seconds pauses the credential; the next call does not reach Ship24', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(RESULTS_PATH, { status: 429, headers: { 'retry-after': '7' }, body: 'Too Many Requests' });
    const first = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(first).toMatchObject({ retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const calls = server.requests.length;
    const second = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(second).toMatchObject({ throttled: 'rate', held: true });
    expect(second.retry_after_seconds).toBeLessThanOrEqual(7);
    expect(server.requests).toHaveLength(calls);
  });

  it('a 429 with an HTTP-date Retry-After', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    const at = new Date(Date.now() + 30_000).toUTCString();
    server.once(RESULTS_PATH, { status: 429, headers: { 'retry-after': at }, body: 'Too Many Requests' });
    const error = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(error.throttled).toBe('rate');
    expect(error.retry_after_seconds).toBeGreaterThanOrEqual(28);
    expect(error.retry_after_seconds).toBeLessThanOrEqual(31);
  });

  it('a spent tracker quota pauses the credential until 00:00 UTC; nothing is sent meanwhile', async () => {
    const { server, adapter, kit } = await setup({ registered: [NUMBERS.delivered] });
    server.once(BULK_PATH, { status: 403, body: fixture('quota-exceeded.json') });
    const results = await track(adapter, [NUMBERS.delivered, NUMBERS.pickup]);
    expect(results[0].status).toBe('ok');
    const error = errorOf(results[1]);
    expect(error).toMatchObject({ retryable: true, throttled: 'quota' });
    const untilReset = Math.ceil((nextReset(Date.now(), adapter.limits.quota_reset_utc) - Date.now()) / 1000);
    expect(Math.abs((error.retry_after_seconds ?? 0) - untilReset)).toBeLessThanOrEqual(2);
    expect(server.created).toEqual([]);
    expect(await registrations(kit)).toBe(0);
    const calls = server.requests.length;
    const held = await track(adapter, [NUMBERS.delivered, NUMBERS.pickup]);
    expect(held.map((r) => errorOf(r))).toEqual([
      expect.objectContaining({ throttled: 'quota', held: true }),
      expect.objectContaining({ throttled: 'quota', held: true }),
    ]);
    expect(server.requests).toHaveLength(calls);
    expect(adapter.callsLeftToday(SETTINGS)).toBe(0);
    expect(adapter.pollCapacity(SETTINGS, 60_000).numbers).toBe(0);
  });

  it('a quota answer to a results call pauses the credential too', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(RESULTS_PATH, {
      status: 403,
      body: { errors: [{ code: 'quota_limit_reached', message: 'No more quota left.' }], data: null },
    });
    expect(errorOf((await track(adapter, [NUMBERS.delivered]))[0])).toMatchObject({ throttled: 'quota' });
    const calls = server.requests.length;
    expect(errorOf((await track(adapter, [NUMBERS.delivered]))[0])).toMatchObject({ throttled: 'quota', held: true });
    expect(server.requests).toHaveLength(calls);
  });

  it('a 503 is retried once, then reported as a retryable error', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(RESULTS_PATH, { status: 503, body: 'Service Unavailable' });
    server.once(RESULTS_PATH, { status: 503, body: 'Service Unavailable' });
    const error = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('503');
    expect(server.to(RESULTS_PATH)).toHaveLength(2);
    expect((await track(adapter, [NUMBERS.delivered]))[0].status).toBe('ok');
  });

  it('a call that hangs is abandoned at the deadline', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(RESULTS_PATH, { hang: true });
    const started = Date.now();
    const error = errorOf((await track(adapter, [NUMBERS.delivered], SETTINGS, AbortSignal.timeout(400)))[0]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/deadline/);
  });

  it('an answer over 4 MiB is refused without retrying', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    const huge = JSON.stringify({ data: { trackings: [] }, padding: 'x'.repeat(4 * 1_048_576 + 10) });
    server.once(RESULTS_PATH, { status: 200, headers: { 'content-type': 'application/json' }, body: huge });
    const error = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/limit/);
    expect(server.to(RESULTS_PATH)).toHaveLength(1);
  });

  it('a 200 that is not a results answer is a retryable error; a 400 is not retryable, in Ship24 words', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(RESULTS_PATH, { status: 200, body: '<html>maintenance</html>' });
    expect(errorOf((await track(adapter, [NUMBERS.delivered]))[0])).toMatchObject({
      retryable: true,
      message: expect.stringContaining('HTTP 200'),
    });
    server.once(RESULTS_PATH, { status: 400, body: { errors: [{ code: 'validation_error', message: 'Bad searchBy.' }], data: null } });
    expect(errorOf((await track(adapter, [NUMBERS.delivered]))[0])).toEqual(
      expect.objectContaining({
        retryable: false,
        message: 'Ship24 refused the tracking results (HTTP 400, validation_error): Bad searchBy.',
      }),
    );
    // A 404 without Ship24's code is not taken for an unknown tracker: nothing is registered.
    server.once(RESULTS_PATH, { status: 404, body: 'Not Found' });
    expect(errorOf((await track(adapter, [NUMBERS.delivered]))[0]).status).toBe('error');
    expect(server.to(BULK_PATH)).toHaveLength(0);
  });

  it('a number Ship24 will not track is a non-retryable error', async () => {
    const { server, adapter, kit } = await setup();
    const [result] = await track(adapter, ['A-1']);
    expect(errorOf(result)).toMatchObject({ retryable: false, message: expect.stringContaining('validation_error') });
    expect(server.created).toEqual([]);
    expect(await registrations(kit)).toBe(0);
  });

  it('a courier list that cannot be read does not fail the poll: names wait for it', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered, NUMBERS.international] });
    server.once(COURIERS_PATH, { status: 500, body: 'oops' });
    const [gb, us] = await track(adapter, [NUMBERS.delivered, NUMBERS.international]);
    expect(gb.status === 'ok' && gb.carrier_of_record).toBeUndefined();
    expect(us).toMatchObject({ status: 'ok', carrier_of_record: { name: 'USPS', carrier_id: 'uspsus' } });
    // Not asked again at once.
    await track(adapter, [NUMBERS.delivered]);
    expect(server.to(COURIERS_PATH)).toHaveLength(1);
  });

  it('stops tracking with PATCH isSubscribed false by clientTrackerId; an unknown tracker counts as stopped', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    const outcome = await adapter.stopTracking([NUMBERS.delivered, 'TT200000037GB'], SETTINGS, { now: new Date() });
    expect(outcome).toEqual({ status: 'ok' });
    const calls = server.to(TRACKER_PATH);
    expect(calls.map((c) => c.method)).toEqual(['PATCH', 'PATCH']);
    expect(calls[0].path).toBe(`/public/v1/trackers/${clientTrackerId(NUMBERS.delivered)}`);
    expect(calls[0].query.get('searchBy')).toBe('clientTrackerId');
    expect(calls[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(JSON.parse(calls[0].body)).toEqual({ isSubscribed: false });
    expect(server.trackers.get(clientTrackerId(NUMBERS.delivered))?.subscribed).toBe(false);
  });

  it('a stop that fails is data, never a throw', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(TRACKER_PATH, { status: 503, body: 'down' });
    server.once(TRACKER_PATH, { status: 503, body: 'down' });
    expect(await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      retryable: true,
    });
    server.once(TRACKER_PATH, { status: 400, body: { errors: [{ code: 'validation_error', message: 'isSubscribed must be a boolean' }] } });
    expect(await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      retryable: false,
    });
    server.once(TRACKER_PATH, { status: 400, body: { errors: [{ code: 'tracker_not_updatable', message: 'Processed.' }] } });
    expect(await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toEqual({ status: 'ok' });
    expect(await adapter.stopTracking([NUMBERS.delivered], {}, { now: new Date() })).toMatchObject({ status: 'error', retryable: false });
  });

  it('subscribes an unsubscribed tracker again by creating it anew with the same clientTrackerId, counted; a subscribed one is existing', async () => {
    const { server, adapter, kit } = await setup({ registered: [NUMBERS.delivered, NUMBERS.inpost] });
    expect(await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toEqual({ status: 'ok' });
    const numbers = [NUMBERS.delivered, ` ${NUMBERS.delivered.toLowerCase()}`, NUMBERS.inpost];
    expect(await adapter.resumeTracking(numbers, SETTINGS, { now: new Date() })).toEqual({ status: 'ok' });
    const [bulk] = server.to(BULK_PATH);
    expect(server.to(BULK_PATH)).toHaveLength(1);
    expect(bulk.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(JSON.parse(bulk.body)).toEqual(
      [NUMBERS.delivered, NUMBERS.inpost].map((number) => ({ trackingNumber: number, clientTrackerId: clientTrackerId(number) })),
    );
    expect(server.created).toEqual([NUMBERS.delivered]);
    expect(server.trackers.get(clientTrackerId(NUMBERS.delivered))?.subscribed).toBe(true);
    // Ship24 bills the new tracker: counted as a registration.
    expect(await registrations(kit)).toBe(1);
    // Asked again (an answer lost): the tracker exists, nothing is created or counted.
    expect(await adapter.resumeTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toEqual({ status: 'ok' });
    expect(server.created).toEqual([NUMBERS.delivered]);
    expect(await registrations(kit)).toBe(1);
    // Read by the same clientTrackerId; no registration on the poll.
    expect((await track(adapter, [NUMBERS.delivered]))[0].status).toBe('ok');
    expect(server.to(BULK_PATH)).toHaveLength(2);
  });

  it('a re-subscription that fails is data, never a throw', async () => {
    const { server, adapter, kit } = await setup({ registered: [NUMBERS.delivered] });
    await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date() });
    server.once(BULK_PATH, { status: 503, body: 'down' });
    server.once(BULK_PATH, { status: 503, body: 'down' });
    expect(await adapter.resumeTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      retryable: true,
    });
    expect(await adapter.resumeTracking(['TT2'], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      retryable: false,
      message: expect.stringContaining('validation_error'),
    });
    expect(await adapter.resumeTracking([NUMBERS.delivered], {}, { now: new Date() })).toMatchObject({ status: 'error', retryable: false });
    expect(server.created).toEqual([]);
    server.once(BULK_PATH, { status: 403, body: fixture('quota-exceeded.json') });
    expect(await adapter.resumeTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      throttled: 'quota',
    });
    // The spent quota pauses the credential: nothing is sent until its reset.
    const calls = server.requests.length;
    expect(await adapter.resumeTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      throttled: 'quota',
      held: true,
    });
    expect(server.requests).toHaveLength(calls);
    expect(await registrations(kit)).toBe(0);
  });

  it('an incomplete configuration is refused without calling Ship24', async () => {
    const { server, adapter } = await setup();
    const error = errorOf((await track(adapter, [NUMBERS.delivered], {}))[0]);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('settings.api_key');
    expect(server.requests).toHaveLength(0);
  });

  it('uses an operator key from WAYBILL_CARRIER_SHIP24_API_KEY', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered], env: { WAYBILL_CARRIER_SHIP24_API_KEY: API_KEY } });
    expect((await track(adapter, [NUMBERS.delivered], {}))[0].status).toBe('ok');
    expect(server.to(RESULTS_PATH)[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('declares an aggregator: push, registration, production only, its limits', async () => {
    const { adapter } = await setup();
    expect(adapter.registersNumbers).toBe(true);
    expect(adapter.environments).toEqual(['production']);
    expect(adapter.capabilities).toEqual({ tracking: true, booking: false, pudo: false, push: true });
    expect(adapter.limits).toMatchObject({ numbers_per_call: 20, requests_per_second: 10, daily_quota: null });
    expect(adapter.callsLeftToday(SETTINGS)).toBeNull();
    // One results call per number: a minute at 10 calls a second is a little under 600 numbers.
    const capacity = adapter.pollCapacity(SETTINGS, 60_000).numbers;
    expect(capacity).toBeGreaterThan(500);
    expect(capacity).toBeLessThanOrEqual(600);
    expect(everyNumber).toContain(NUMBERS.inpost);
  });
});

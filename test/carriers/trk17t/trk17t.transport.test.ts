import { afterEach, describe, expect, it } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { nextReset } from '../../../src/carriers/sdk/limits.js';
import { requestsFor } from '../support/kit.js';
import {
  API_KEY,
  fixture,
  NUMBERS,
  numbersOf,
  REGISTER_PATH,
  RETRACK_PATH,
  SETTINGS,
  STOP_PATH,
  TRACK_PATH,
  type Trk17tServer,
  trk17tAdapter,
  trk17tServer,
} from './trk17t-server.js';

const servers: Trk17tServer[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

async function setup(
  options: { registered?: readonly string[]; quota?: number | null; env?: Record<string, string>; now?: () => number } = {},
) {
  const server = await trk17tServer(options);
  servers.push(server);
  return { server, ...trk17tAdapter(server, options.env, options.now) };
}

type Adapter = ReturnType<typeof trk17tAdapter>['adapter'];

const track = (adapter: Adapter, numbers: string[], settings: Record<string, unknown> = SETTINGS, signal?: AbortSignal) =>
  adapter.track(requestsFor(...numbers), settings, { now: new Date(), signal });

function errorOf(result: TrackResult | undefined) {
  if (result?.status !== 'error') throw new Error(`expected an error, got ${JSON.stringify(result)}`);
  return result;
}

async function registrations(kit: ReturnType<typeof trk17tAdapter>['kit']): Promise<number> {
  const metric = await kit.metrics.registry.getSingleMetric('waybill_carrier_registrations_total')?.get();
  return metric?.values.find((v) => v.labels.carrier === 'trk17t')?.value ?? 0;
}

/** Synthetic numbers 17TRACK does not know yet. */
const freshNumbers = (count: number) => Array.from({ length: count }, (_, i) => `RR9${String(i).padStart(8, '0')}0GB`);

describe('trk17t transport against a local 17TRACK', () => {
  it('asks gettrackinfo with the 17token header and a JSON list of numbers, and names the carrier of record', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered, NUMBERS.inpost] });
    const results = await track(adapter, ['rr 9000 1234 3gb', NUMBERS.inpost]);
    expect(results[0]).toMatchObject({
      status: 'ok',
      tracking_number: 'rr 9000 1234 3gb',
      carrier_of_record: { name: 'Royal Mail', courier_code: '11031', carrier_id: 'royalm' },
    });
    expect(results[1]).toMatchObject({ status: 'ok', carrier_of_record: { courier_code: '100043', carrier_id: 'inpost' } });
    expect(server.requests).toHaveLength(1);
    const [call] = server.requests;
    expect(call.method).toBe('POST');
    expect(call.path).toBe(TRACK_PATH);
    expect(call.headers['17token']).toBe(API_KEY);
    expect(call.headers['content-type']).toContain('application/json');
    expect(JSON.parse(call.body)).toEqual([{ number: NUMBERS.delivered }, { number: NUMBERS.inpost }]);
    expect(server.to(REGISTER_PATH)).toHaveLength(0);
  });

  it('registers the numbers 17TRACK does not know in one call, counts them, and answers them not found for now', async () => {
    const { server, adapter, kit } = await setup({ registered: [NUMBERS.delivered] });
    const numbers = [NUMBERS.delivered, NUMBERS.inpost, NUMBERS.international, NUMBERS.fresh];
    const results = await track(adapter, numbers);
    expect(results.map((r) => r.status)).toEqual(['ok', 'not_found', 'not_found', 'not_found']);
    const [register] = server.to(REGISTER_PATH);
    expect(server.to(REGISTER_PATH)).toHaveLength(1);
    expect(register.headers['17token']).toBe(API_KEY);
    expect(JSON.parse(register.body)).toEqual(numbers.slice(1).map((number) => ({ number })));
    expect(await registrations(kit)).toBe(3);
    // Found the next time; nothing registered again.
    const again = await track(adapter, numbers);
    expect(again.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'not_found']);
    expect(server.to(REGISTER_PATH)).toHaveLength(1);
    expect(await registrations(kit)).toBe(3);
  });

  it('registers each number once over repeated polls, failed calls and a restart', async () => {
    const { server, adapter } = await setup();
    // The results call fails twice (503, retried once): nothing is registered.
    server.once(TRACK_PATH, { status: 503, body: 'Service Unavailable' });
    server.once(TRACK_PATH, { status: 503, body: 'Service Unavailable' });
    expect(errorOf((await track(adapter, [NUMBERS.inpost]))[0]).retryable).toBe(true);
    expect(server.registrations).toEqual([]);
    // A results call that hangs until the deadline: nothing registered either.
    server.once(TRACK_PATH, { hang: true });
    const asked = server.to(TRACK_PATH).length;
    expect(errorOf((await track(adapter, [NUMBERS.inpost], SETTINGS, AbortSignal.timeout(1_500)))[0]).retryable).toBe(true);
    expect(server.to(TRACK_PATH)).toHaveLength(asked + 1);
    expect(server.registrations).toEqual([]);
    // The registration's answer is lost (503 twice): 17TRACK may have registered it; the next poll finds it either way.
    server.once(REGISTER_PATH, { status: 503, body: 'Service Unavailable' });
    server.once(REGISTER_PATH, { status: 503, body: 'Service Unavailable' });
    expect(errorOf((await track(adapter, [NUMBERS.inpost]))[0]).retryable).toBe(true);
    for (let i = 0; i < 3; i++) await track(adapter, [NUMBERS.inpost, NUMBERS.delivered]);
    // A restart: a new toolkit and adapter, the same 17TRACK.
    const restarted = trk17tAdapter(server).adapter;
    for (let i = 0; i < 2; i++) await track(restarted, [NUMBERS.inpost, NUMBERS.delivered, NUMBERS.exceptions]);
    expect([...server.registrations].sort()).toEqual([NUMBERS.delivered, NUMBERS.exceptions, NUMBERS.inpost].sort());
    expect((await track(restarted, [NUMBERS.exceptions]))[0]).toMatchObject({ status: 'ok', carrier_of_record: { name: 'Royal Mail' } });
  });

  it('a number registered meanwhile (-18019901) is taken as registered and not counted', async () => {
    const { server, adapter, kit } = await setup({ registered: [NUMBERS.delivered] });
    // The results call does not know it yet; the registration says it is known.
    server.once(TRACK_PATH, { body: fixture('not-registered.json') });
    server.registered.set(NUMBERS.fresh, 11031);
    const [result] = await track(adapter, [NUMBERS.fresh]);
    expect(result).toEqual({ status: 'not_found', tracking_number: NUMBERS.fresh });
    expect(server.to(REGISTER_PATH)).toHaveLength(1);
    expect(server.registrations).toEqual([]);
    expect(await registrations(kit)).toBe(0);
  });

  it('asks and registers at most 40 numbers per call', async () => {
    const { server, adapter, kit } = await setup();
    const numbers = freshNumbers(45);
    const results = await track(adapter, numbers);
    expect(results.map((r) => r.tracking_number)).toEqual(numbers);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    const sizes = (path: string) =>
      server
        .to(path)
        .map((r) => numbersOf(r).length)
        .sort((a, b) => b - a);
    expect(sizes(TRACK_PATH)).toEqual([40, 5]);
    expect(sizes(REGISTER_PATH)).toEqual([40, 5]);
    expect(server.registrations).toHaveLength(45);
    expect(await registrations(kit)).toBe(45);
  });

  it('a number whose carrier 17TRACK cannot detect is a non-retryable error, not counted', async () => {
    const { server, adapter, kit } = await setup();
    const [result] = await track(adapter, ['ZZ0000000000']);
    expect(errorOf(result)).toMatchObject({ retryable: false, message: expect.stringContaining('-18019903') });
    expect(server.registrations).toEqual([]);
    expect(await registrations(kit)).toBe(0);
  });

  it('a number 17TRACK refuses as malformed is a non-retryable error in 17TRACK’s words', async () => {
    const { server, adapter } = await setup();
    server.once(TRACK_PATH, {
      body: {
        code: 0,
        data: { accepted: [], rejected: [{ number: 'AB12', error: { code: -18010012, message: 'The format of AB12 is invalid.' } }] },
      },
    });
    expect(errorOf((await track(adapter, ['AB12']))[0])).toEqual(
      expect.objectContaining({ retryable: false, message: '17TRACK refused the number (-18010012): The format of AB12 is invalid.' }),
    );
    expect(server.to(REGISTER_PATH)).toHaveLength(0);
  });

  it('a 401 is a non-retryable error that quotes no key; so is a request refused with -18010002', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    const refused = await track(adapter, [NUMBERS.delivered], { api_key: 'trk17t-wrong-key-0000' });
    expect(errorOf(refused[0])).toMatchObject({ retryable: false, message: expect.stringContaining('401') });
    expect(JSON.stringify(refused)).not.toContain('trk17t-wrong-key-0000');
    server.once(TRACK_PATH, { status: 200, body: fixture('invalid-key.json') });
    const error = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(error).toMatchObject({ retryable: false, message: '17TRACK refused the credentials (-18010002): The security key is invalid.' });
  });

  it('a 429 with Retry-After seconds pauses the credential; the next call does not reach 17TRACK', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(TRACK_PATH, { status: 429, headers: { 'retry-after': '7' }, body: 'Too Many Requests' });
    expect(errorOf((await track(adapter, [NUMBERS.delivered]))[0])).toMatchObject({
      retryable: true,
      throttled: 'rate',
      retry_after_seconds: 7,
    });
    const calls = server.requests.length;
    const second = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(second).toMatchObject({ throttled: 'rate', held: true });
    expect(second.retry_after_seconds).toBeLessThanOrEqual(7);
    expect(server.requests).toHaveLength(calls);
  });

  it('a 429 with an HTTP-date Retry-After', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 30_000).toUTCString();
    server.once(TRACK_PATH, { status: 429, headers: { 'retry-after': at }, body: '' });
    const error = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(error.throttled).toBe('rate');
    expect(error.retry_after_seconds).toBeGreaterThanOrEqual(28);
    expect(error.retry_after_seconds).toBeLessThanOrEqual(31);
  });

  it('a spent quota (-18019908) pauses the credential until 00:00 UTC: nothing is sent until then, then it asks again', async () => {
    let clock = Date.UTC(2026, 10, 28, 15, 0, 0);
    const { server, adapter, kit } = await setup({ registered: [NUMBERS.delivered], quota: 0, now: () => clock });
    const results = await track(adapter, [NUMBERS.delivered, NUMBERS.fresh]);
    expect(results[0].status).toBe('ok');
    const error = errorOf(results[1]);
    expect(error).toMatchObject({ retryable: true, throttled: 'quota', retry_after_seconds: 9 * 3600 });
    expect(error.message).toContain('-18019908');
    expect(await registrations(kit)).toBe(0);
    const calls = server.requests.length;
    clock += 3 * 3600_000;
    const held = await track(adapter, [NUMBERS.delivered, NUMBERS.fresh]);
    expect(held.map((r) => errorOf(r))).toEqual([
      expect.objectContaining({ throttled: 'quota', held: true }),
      expect.objectContaining({ throttled: 'quota', held: true }),
    ]);
    expect(server.requests).toHaveLength(calls);
    expect(adapter.callsLeftToday(SETTINGS)).toBe(0);
    expect(adapter.pollCapacity(SETTINGS, 60_000).numbers).toBe(0);
    // Past the reset: asked again (the quota bought meanwhile registers the number).
    clock = Date.UTC(2026, 10, 29, 0, 0, 1);
    server.quota = 1;
    const after = await track(adapter, [NUMBERS.delivered, NUMBERS.fresh]);
    expect(after.map((r) => r.status)).toEqual(['ok', 'not_found']);
    expect(server.registrations).toEqual([NUMBERS.fresh]);
    expect(await registrations(kit)).toBe(1);
  });

  it('a request refused as a whole with a quota code pauses the credential too', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(TRACK_PATH, { body: { code: -18019907, data: { errors: [{ code: -18019907, message: 'Daily limit exceeded.' }] } } });
    const error = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(error).toMatchObject({ throttled: 'quota' });
    const untilReset = Math.ceil((nextReset(Date.now(), adapter.limits.quota_reset_utc) - Date.now()) / 1000);
    expect(Math.abs((error.retry_after_seconds ?? 0) - untilReset)).toBeLessThanOrEqual(2);
    const calls = server.requests.length;
    expect(errorOf((await track(adapter, [NUMBERS.delivered]))[0])).toMatchObject({ throttled: 'quota', held: true });
    expect(server.requests).toHaveLength(calls);
  });

  it('a 503 is retried once, then reported as a retryable error', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(TRACK_PATH, { status: 503, body: 'Service Unavailable' });
    server.once(TRACK_PATH, { status: 503, body: 'Service Unavailable' });
    const error = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('503');
    expect(server.to(TRACK_PATH)).toHaveLength(2);
    expect((await track(adapter, [NUMBERS.delivered]))[0].status).toBe('ok');
  });

  it('a call that hangs is abandoned at the deadline', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(TRACK_PATH, { hang: true });
    const started = Date.now();
    const error = errorOf((await track(adapter, [NUMBERS.delivered], SETTINGS, AbortSignal.timeout(400)))[0]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/deadline/);
  });

  it('an answer over 4 MiB is refused without retrying', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    const huge = JSON.stringify({ code: 0, data: { accepted: [], rejected: [] }, padding: 'x'.repeat(4 * 1_048_576 + 10) });
    server.once(TRACK_PATH, { status: 200, headers: { 'content-type': 'application/json' }, body: huge });
    const error = errorOf((await track(adapter, [NUMBERS.delivered]))[0]);
    expect(error.retryable).toBe(false);
    expect(server.to(TRACK_PATH)).toHaveLength(1);
  });

  it('a 200 that is not 17TRACK’s envelope is a retryable error; a number missing from the answer too', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered, NUMBERS.inpost] });
    server.once(TRACK_PATH, { status: 200, body: '<html>maintenance</html>' });
    expect(errorOf((await track(adapter, [NUMBERS.delivered]))[0])).toMatchObject({
      retryable: true,
      message: expect.stringContaining('could not be read'),
    });
    server.once(TRACK_PATH, { body: { code: 0, data: { accepted: [], rejected: [] } } });
    expect(errorOf((await track(adapter, [NUMBERS.delivered]))[0])).toMatchObject({ retryable: true });
  });

  it('counts sub-statuses the table lacks in waybill_carrier_unmapped_codes_total', async () => {
    const { adapter, kit } = await setup({ registered: [NUMBERS.unmapped] });
    expect((await track(adapter, [NUMBERS.unmapped]))[0].status).toBe('ok');
    const metrics = await kit.metrics.registry.getSingleMetricAsString('waybill_carrier_unmapped_codes_total');
    expect(metrics).toContain('carrier="trk17t",code="InTransit_Sorting"');
    expect(metrics).not.toContain('code="Exception_Lost"');
  });

  it('stops tracking with stoptrack; a number no longer tracked or never registered counts as stopped', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered, NUMBERS.exceptions] });
    server.stopped.add(NUMBERS.exceptions);
    const outcome = await adapter.stopTracking([NUMBERS.delivered, NUMBERS.exceptions, NUMBERS.fresh], SETTINGS, { now: new Date() });
    expect(outcome).toEqual({ status: 'ok' });
    const [call] = server.to(STOP_PATH);
    expect(server.to(STOP_PATH)).toHaveLength(1);
    expect(call.headers['17token']).toBe(API_KEY);
    expect(JSON.parse(call.body)).toEqual([{ number: NUMBERS.delivered }, { number: NUMBERS.exceptions }, { number: NUMBERS.fresh }]);
    expect(server.stopped.has(NUMBERS.delivered)).toBe(true);
    // 45 numbers: two calls.
    expect(await adapter.stopTracking(freshNumbers(45), SETTINGS, { now: new Date() })).toEqual({ status: 'ok' });
    expect(
      server
        .to(STOP_PATH)
        .slice(1)
        .map((r) => numbersOf(r).length),
    ).toEqual([40, 5]);
  });

  it('a stop that fails is data, never a throw', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.once(STOP_PATH, { status: 503, body: 'down' });
    server.once(STOP_PATH, { status: 503, body: 'down' });
    expect(await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      retryable: true,
    });
    server.once(STOP_PATH, { body: fixture('invalid-key.json') });
    expect(await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      retryable: false,
    });
    server.once(STOP_PATH, {
      body: {
        code: 0,
        data: { accepted: [], rejected: [{ number: NUMBERS.delivered, error: { code: -18010003, message: 'Try again later.' } }] },
      },
    });
    expect(await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      retryable: true,
    });
    server.once(STOP_PATH, { hang: true });
    const before = server.to(STOP_PATH).length;
    expect(
      await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date(), signal: AbortSignal.timeout(1_500) }),
    ).toMatchObject({
      status: 'error',
      retryable: true,
    });
    expect(server.to(STOP_PATH)).toHaveLength(before + 1);
    expect(await adapter.stopTracking([NUMBERS.delivered], {}, { now: new Date() })).toMatchObject({ status: 'error', retryable: false });
    expect(await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toEqual({ status: 'ok' });
  });

  it('tracks stopped numbers again with retrack, not counted as registrations; 40 numbers a call', async () => {
    const { server, adapter, kit } = await setup({ registered: [NUMBERS.delivered, NUMBERS.inpost] });
    await adapter.stopTracking([NUMBERS.delivered, NUMBERS.inpost], SETTINGS, { now: new Date() });
    // What 17TRACK learns of the parcel from now on (here: that it has nothing on it) a stopped number does not show.
    server.parcels.delete(NUMBERS.delivered);
    expect((await track(adapter, [NUMBERS.delivered]))[0].status).toBe('ok');

    expect(await adapter.resumeTracking([NUMBERS.delivered, ` ${NUMBERS.inpost.toLowerCase()}`], SETTINGS, { now: new Date() })).toEqual({
      status: 'ok',
    });
    const [call] = server.to(RETRACK_PATH);
    expect(server.to(RETRACK_PATH)).toHaveLength(1);
    expect(call.headers['17token']).toBe(API_KEY);
    expect(JSON.parse(call.body)).toEqual([{ number: NUMBERS.delivered }, { number: NUMBERS.inpost }]);
    expect(server.stopped.size).toBe(0);
    expect(server.retracked).toEqual([NUMBERS.delivered, NUMBERS.inpost]);
    expect(await registrations(kit)).toBe(0);
    // Tracked again: the parcel as 17TRACK has it now (no information left for it here).
    expect((await track(adapter, [NUMBERS.delivered]))[0].status).toBe('not_found');

    const numbers = freshNumbers(45);
    for (const number of numbers) server.registered.set(number, 0);
    await adapter.stopTracking(numbers, SETTINGS, { now: new Date() });
    expect(await adapter.resumeTracking(numbers, SETTINGS, { now: new Date() })).toEqual({ status: 'ok' });
    expect(
      server
        .to(RETRACK_PATH)
        .slice(1)
        .map((r) => numbersOf(r).length),
    ).toEqual([40, 5]);
  });

  it('a number re-tracked once already (-18019905), tracked already (-18019904) or never registered counts as done', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered, NUMBERS.inpost] });
    await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date() });
    expect(await adapter.resumeTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toEqual({ status: 'ok' });
    await adapter.stopTracking([NUMBERS.delivered], SETTINGS, { now: new Date() });
    // 17TRACK re-tracks a number once in its life: the second time is refused, and asking again would not change that.
    expect(await adapter.resumeTracking([NUMBERS.delivered, NUMBERS.inpost, NUMBERS.fresh], SETTINGS, { now: new Date() })).toEqual({
      status: 'ok',
    });
    expect(server.to(RETRACK_PATH)).toHaveLength(2);
    expect(server.stopped.has(NUMBERS.delivered)).toBe(true);
    expect(server.retracked).toEqual([NUMBERS.delivered]);
  });

  it('a re-tracking that fails is data, never a throw', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered] });
    server.stopped.add(NUMBERS.delivered);
    server.once(RETRACK_PATH, { status: 503, body: 'down' });
    server.once(RETRACK_PATH, { status: 503, body: 'down' });
    expect(await adapter.resumeTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      retryable: true,
    });
    server.once(RETRACK_PATH, { body: fixture('invalid-key.json') });
    expect(await adapter.resumeTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      retryable: false,
    });
    server.once(RETRACK_PATH, {
      body: {
        code: 0,
        data: { accepted: [], rejected: [{ number: NUMBERS.delivered, error: { code: -18010003, message: 'Try again later.' } }] },
      },
    });
    expect(await adapter.resumeTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      retryable: true,
      message: expect.stringContaining('Try again later.'),
    });
    server.once(RETRACK_PATH, { body: { code: 0, data: { accepted: [], rejected: [] } } });
    expect(await adapter.resumeTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toMatchObject({
      status: 'error',
      retryable: true,
    });
    expect(await adapter.resumeTracking([NUMBERS.delivered], {}, { now: new Date() })).toMatchObject({ status: 'error', retryable: false });
    expect(server.stopped.has(NUMBERS.delivered)).toBe(true);
    expect(await adapter.resumeTracking([NUMBERS.delivered], SETTINGS, { now: new Date() })).toEqual({ status: 'ok' });
    expect(server.stopped.has(NUMBERS.delivered)).toBe(false);
  });

  it('an incomplete configuration is refused without calling 17TRACK', async () => {
    const { server, adapter } = await setup();
    const error = errorOf((await track(adapter, [NUMBERS.delivered], {}))[0]);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('settings.api_key');
    expect(server.requests).toHaveLength(0);
  });

  it('uses an operator key from WAYBILL_CARRIER_TRK17T_API_KEY', async () => {
    const { server, adapter } = await setup({ registered: [NUMBERS.delivered], env: { WAYBILL_CARRIER_TRK17T_API_KEY: API_KEY } });
    expect((await track(adapter, [NUMBERS.delivered], {}))[0].status).toBe('ok');
    expect(server.to(TRACK_PATH)[0].headers['17token']).toBe(API_KEY);
  });

  it('declares an aggregator: push, registration, production only, its limits', async () => {
    const { adapter } = await setup();
    expect(adapter.registersNumbers).toBe(true);
    expect(adapter.environments).toEqual(['production']);
    expect(adapter.capabilities).toEqual({ tracking: true, booking: false, pudo: false, push: true });
    expect(adapter.limits).toMatchObject({ numbers_per_call: 40, requests_per_second: 3, daily_quota: null });
    expect(adapter.callsLeftToday(SETTINGS)).toBeNull();
    // The webhook key does not make another credential.
    expect(adapter.credentialKey({ ...SETTINGS, webhook_key: 'other-key' })).toBe(adapter.credentialKey(SETTINGS));
  });
});

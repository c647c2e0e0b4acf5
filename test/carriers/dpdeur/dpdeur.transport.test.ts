import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dpdCheckCharacter } from '../../../src/carriers/detect/dpdeur.js';
import type { DpdCarrier } from '../../../src/carriers/dpdeur/dpdeur.carrier.js';
import { requestsFor, trackOne } from '../support/kit.js';
import {
  DELIS_ID,
  type DpdServer,
  dpdAdapter,
  dpdServer,
  elementOf,
  LOGIN_PATH,
  PASSWORD,
  REFUSED,
  SETTINGS,
  TRACKING_PATH,
  UNKNOWN,
} from './dpdeur-server.js';
import { dpdFixtureText } from './fixtures.js';

let server: DpdServer;
let adapter: DpdCarrier;

beforeEach(async () => {
  server = await dpdServer();
  adapter = dpdAdapter(server).adapter;
});

afterEach(async () => {
  await server.close();
});

const track = (numbers: string[], settings: Record<string, unknown> = SETTINGS, signal?: AbortSignal) =>
  adapter.track(requestsFor(...numbers), settings, { now: new Date(), signal });

const xml = (name: string, status = 500) => ({ status, headers: { 'content-type': 'text/xml' }, body: dpdFixtureText(name) });

describe('DPD transport: requests', () => {
  it('logs in once, then asks getTrackingData with the token in the SOAP header', async () => {
    const result = await trackOne(adapter, '09980000000012', SETTINGS);
    expect(result.status).toBe('ok');
    const [login] = server.to(LOGIN_PATH);
    expect(login.method).toBe('POST');
    expect(login.path).toBe('/services/LoginService/V2_0/');
    expect(login.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(login.headers.soapaction).toBe('"http://dpd.com/common/service/LoginService/2.0/getAuth"');
    expect(login.body).toContain('xmlns:ns="http://dpd.com/common/service/types/LoginService/2.0"');
    expect([elementOf(login, 'delisId'), elementOf(login, 'password'), elementOf(login, 'messageLanguage')]).toEqual([
      DELIS_ID,
      PASSWORD,
      'en_US',
    ]);
    const [request] = server.to(TRACKING_PATH);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/services/ParcelLifeCycleService/V2_0/');
    expect(request.headers.soapaction).toBe('"http://dpd.com/common/service/ParcelLifeCycleService/2.0/getTrackingData"');
    expect(request.headers.accept).toBe('text/xml');
    expect(request.headers.authorization).toBeUndefined();
    expect(elementOf(request, 'authToken')).toBe('dpd-session-1-7e4a90c2');
    expect(elementOf(request, 'parcelLabelNumber')).toBe('09980000000012');
    expect(request.body).not.toContain(PASSWORD);
  });

  it('reuses the token across polls and numbers: one login a day', async () => {
    await track(['09980000000011', '09980000000012', '09980000000013']);
    await track(['09980000000014', UNKNOWN]);
    expect(server.to(LOGIN_PATH)).toHaveLength(1);
    expect(server.to(TRACKING_PATH)).toHaveLength(5);
    expect(new Set(server.to(TRACKING_PATH).map((r) => elementOf(r, 'authToken')))).toEqual(new Set(['dpd-session-1-7e4a90c2']));
  });

  it('one number per call, one result per request in order; a number written with its check character is asked as 14 digits', async () => {
    const withCheck = `09980000000011${dpdCheckCharacter('09980000000011')}`;
    const numbers = ['09980000000011', UNKNOWN, '0998 0000 0000 13', withCheck, '09980000000011'];
    const results = await track(numbers);
    expect(results.map((r) => [r.tracking_number, r.status])).toEqual([
      ['09980000000011', 'ok'],
      [UNKNOWN, 'not_found'],
      ['0998 0000 0000 13', 'ok'],
      [withCheck, 'ok'],
      ['09980000000011', 'ok'],
    ]);
    const asked = server.to(TRACKING_PATH).map((r) => elementOf(r, 'parcelLabelNumber'));
    expect(asked.sort()).toEqual(['09980000000011', '09980000000011', '09980000000013', UNKNOWN].sort());
  });

  it('refuses a number that is no DPD parcel number without asking DPD', async () => {
    const [result] = await track(['1Z999AA10123456784']);
    expect(result).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('14 digits') });
    const [wrongCheck] = await track([`09980000000011${dpdCheckCharacter('09980000000011') === 'A' ? 'B' : 'A'}`]);
    expect(wrongCheck).toMatchObject({ status: 'error', retryable: false });
    expect(server.requests).toHaveLength(0);
  });

  it('asks the company named by settings.instance, on its paths', async () => {
    const nl = await trackOne(adapter, '05210000000021', { ...SETTINGS, instance: 'nl', message_language: 'nl_NL' });
    expect(nl.status).toBe('ok');
    expect(server.to(LOGIN_PATH)[0].path).toBe('/PublicAPI/soap/services/LoginService/V2_1');
    expect(server.to(LOGIN_PATH)[0].body).toContain('LoginService/2.1');
    expect(server.to(TRACKING_PATH)[0].path).toBe('/PublicAPI/soap/services/ParcelLifeCycleService/V2_0');
    expect(elementOf(server.to(TRACKING_PATH)[0], 'messageLanguage')).toBe('nl_NL');
    expect(nl.status === 'ok' && nl.events[0].timezone).toBe('Europe/Amsterdam');
    await trackOne(adapter, '05320000000031', { ...SETTINGS, instance: 'be', environment: 'production' });
    expect(server.to(LOGIN_PATH)[1].path).toBe('/soap/services/LoginService/V2_1');
    expect(server.to(TRACKING_PATH)[1].path).toBe('/soap/services/ParcelLifeCycleService/V2_0');
    // Another company, another account: a login of its own.
    expect(server.to(LOGIN_PATH)).toHaveLength(2);
  });

  it('has each company’s production and stage hosts built in', () => {
    const { adapter: plain } = dpdAdapter(server);
    expect(plain.environments).toEqual(['production', 'sandbox']);
    expect((plain as unknown as { baseUrls: Record<string, string> }).baseUrls).toEqual({
      production: 'https://public-ws.dpd.com',
      sandbox: 'https://public-ws-stage.dpd.com',
    });
  });

  it('never more calls in flight than limits.concurrent_calls', async () => {
    await server.close();
    server = await dpdServer({ delayMs: 600 });
    adapter = dpdAdapter(server).adapter;
    const numbers = Array.from({ length: 6 }, (_, i) => `0998000000100${i}`);
    const results = await track(numbers);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    expect(server.to(TRACKING_PATH)).toHaveLength(6);
    expect(server.maxInFlight).toBeLessThanOrEqual(adapter.limits.concurrent_calls);
    expect(server.maxInFlight).toBeGreaterThan(1);
  });

  it('counts statuses its table lacks', async () => {
    const { adapter: counted, kit } = dpdAdapter(server);
    await trackOne(counted, '09980000000016', SETTINGS);
    const metrics = await kit.metrics.registry.getMetricsAsJSON();
    const unmapped = metrics.find((m) => m.name === 'waybill_carrier_unmapped_codes_total');
    expect((unmapped?.values ?? []).map((v) => v.labels.code)).toEqual(['Reconsigned']);
  });
});

describe('DPD transport: the session token', () => {
  it('a token DPD no longer accepts is dropped: one new login, the call asked again', async () => {
    await trackOne(adapter, '09980000000011', SETTINGS);
    server.tokens.clear();
    const result = await trackOne(adapter, '09980000000012', SETTINGS);
    expect(result.status).toBe('ok');
    expect(server.to(LOGIN_PATH)).toHaveLength(2);
    expect(server.to(TRACKING_PATH).map((r) => elementOf(r, 'authToken'))).toEqual([
      'dpd-session-1-7e4a90c2',
      'dpd-session-1-7e4a90c2',
      'dpd-session-2-7e4a90c2',
    ]);
  });

  it('a token refused twice is a credential error, not retried further', async () => {
    server.once(TRACKING_PATH, xml('fault-token'));
    server.once(TRACKING_PATH, xml('fault-token'));
    const result = await trackOne(adapter, '09980000000011', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('LOGIN_5') });
    expect(server.to(TRACKING_PATH)).toHaveLength(2);
    expect(server.to(LOGIN_PATH)).toHaveLength(2);
  });

  it('a refused login is a non-retryable error naming the setting, and the tracking call is never made', async () => {
    const result = await trackOne(adapter, '09980000000011', { ...SETTINGS, password: 'not-the-password' });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('delis_id and password');
    expect(result.status === 'error' && result.message).toContain('LOGIN_8');
    expect(server.to(LOGIN_PATH)).toHaveLength(1);
    expect(server.to(TRACKING_PATH)).toHaveLength(0);
  });

  it('a refused login is asked once per poll, not once per number; the next poll asks again', async () => {
    const numbers = ['09980000000011', '09980000000012', '09980000000013', '09980000000014', '09980000000016'];
    const wrong = { ...SETTINGS, password: 'not-the-password' };
    const results = await track(numbers, wrong);
    expect(results.map((r) => [r.tracking_number, r.status])).toEqual(numbers.map((n) => [n, 'error']));
    for (const result of results) {
      expect(result).toMatchObject({ retryable: false, message: expect.stringContaining('delis_id and password') });
    }
    expect(server.to(LOGIN_PATH)).toHaveLength(1);
    expect(server.to(TRACKING_PATH)).toHaveLength(0);

    await track(numbers, wrong);
    expect(server.to(LOGIN_PATH)).toHaveLength(2);
    // Corrected: the next poll logs in and tracks.
    expect((await track(numbers)).every((r) => r.status === 'ok')).toBe(true);
    expect(server.to(LOGIN_PATH)).toHaveLength(3);
  });

  it('a login DPD cannot answer is retryable; an answer without a token is not', async () => {
    server.once(LOGIN_PATH, { status: 503, body: 'down' });
    server.once(LOGIN_PATH, { status: 503, body: 'down' });
    expect(await trackOne(adapter, '09980000000011', SETTINGS)).toMatchObject({ status: 'error', retryable: true });
    server.once(LOGIN_PATH, { status: 200, headers: { 'content-type': 'text/xml' }, body: dpdFixtureText('not-found') });
    expect(await trackOne(adapter, '09980000000011', SETTINGS)).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(TRACKING_PATH)).toHaveLength(0);
  });

  it('keeps the token until DPD’s authTokenExpires, renewing it shortly before', async () => {
    await server.close();
    server = await dpdServer({ expiresInMs: 600_000 });
    let shift = 0;
    adapter = dpdAdapter(server, () => Date.now() + shift).adapter;
    await trackOne(adapter, '09980000000011', SETTINGS);
    shift = 120_000;
    await trackOne(adapter, '09980000000012', SETTINGS);
    expect(server.to(LOGIN_PATH)).toHaveLength(1);
    shift = 480_000;
    await trackOne(adapter, '09980000000013', SETTINGS);
    expect(server.to(LOGIN_PATH)).toHaveLength(2);
  });

  it('reads an expiry without offset in the company’s zone', async () => {
    const berlinNoon = Date.parse('2026-11-20T11:00:00Z');
    let now = berlinNoon;
    const dated = dpdAdapter(server, () => now).adapter;
    const login = dpdFixtureText('login')
      .replace('TOKEN_PLACEHOLDER', 'dpd-session-x-1')
      .replace('EXPIRES_PLACEHOLDER', '2026-11-20T12:30:00.000');
    server.tokens.add('dpd-session-x-1');
    server.once(LOGIN_PATH, { status: 200, headers: { 'content-type': 'text/xml' }, body: login });
    await trackOne(dated, '09980000000011', SETTINGS);
    // 12:30 in Berlin is 11:30 UTC: renewed 5 minutes before, so at 11:26 UTC the token is new again.
    now = berlinNoon + 20 * 60_000;
    await trackOne(dated, '09980000000012', SETTINGS);
    expect(server.to(LOGIN_PATH)).toHaveLength(1);
    now = berlinNoon + 26 * 60_000;
    await trackOne(dated, '09980000000013', SETTINGS);
    expect(server.to(LOGIN_PATH)).toHaveLength(2);
  });
});

describe('DPD transport: answers', () => {
  it('a client fault (HTTP 500) is a refusal of that number only, not retried', async () => {
    const results = await track(['09980000000011', REFUSED]);
    expect(results[0].status).toBe('ok');
    expect(results[1]).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('EXAMPLE_INVALID_PARCEL') });
    expect(server.to(TRACKING_PATH).filter((r) => elementOf(r, 'parcelLabelNumber') === REFUSED)).toHaveLength(1);
  });

  it('a server fault is retried once like any 500, then reported', async () => {
    server.once(TRACKING_PATH, xml('fault-server'));
    expect((await trackOne(adapter, '09980000000011', SETTINGS)).status).toBe('ok');
    expect(server.to(TRACKING_PATH)).toHaveLength(2);
    server.once(TRACKING_PATH, xml('fault-server'));
    server.once(TRACKING_PATH, xml('fault-server'));
    const failed = await trackOne(adapter, '09980000000011', SETTINGS);
    expect(failed).toMatchObject({ status: 'error', retryable: true, message: expect.stringContaining('HTTP 500') });
  });

  it('a 200 that is not XML is a retryable error; a 400 is not retried', async () => {
    server.once(TRACKING_PATH, { status: 200, body: dpdFixtureText('malformed') });
    expect(await trackOne(adapter, '09980000000011', SETTINGS)).toMatchObject({ status: 'error', retryable: true });
    server.once(TRACKING_PATH, { status: 400, body: 'Bad request' });
    const invalid = await trackOne(adapter, '09980000000011', SETTINGS);
    expect(invalid).toMatchObject({ status: 'error', retryable: false });
    expect(invalid.status === 'error' && invalid.message).toContain('HTTP 400');
  });

  it('401 from a gateway is not retried and keeps the token', async () => {
    server.once(TRACKING_PATH, { status: 401, body: 'Unauthorized' });
    const result = await trackOne(adapter, '09980000000011', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('HTTP 401') });
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
    expect(server.to(LOGIN_PATH)).toHaveLength(1);
  });

  it('429 with Retry-After seconds pauses the credential; the next call does not reach DPD', async () => {
    server.once(TRACKING_PATH, { status: 429, headers: { 'retry-after': '7' }, body: 'Too many requests' });
    const first = await trackOne(adapter, '09980000000011', SETTINGS);
    expect(first).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const second = await trackOne(adapter, '09980000000012', SETTINGS);
    expect(second).toMatchObject({ status: 'error', retryable: true, throttled: 'rate' });
    expect(second.status === 'error' && second.retry_after_seconds).toBeGreaterThanOrEqual(6);
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
  });

  it('429 with an HTTP date', async () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    const dated = dpdAdapter(server, () => now).adapter;
    server.once(TRACKING_PATH, { status: 429, headers: { 'retry-after': 'Fri, 20 Nov 2026 10:01:30 GMT' } });
    const result = await trackOne(dated, '09980000000011', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 90 });
    expect(await trackOne(dated, '09980000000012', SETTINGS)).toMatchObject({ throttled: 'rate', retry_after_seconds: 90 });
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
  });

  it('503 is retried once, then reported', async () => {
    server.once(TRACKING_PATH, { status: 503, body: 'unavailable' });
    expect((await trackOne(adapter, '09980000000011', SETTINGS)).status).toBe('ok');
    expect(server.to(TRACKING_PATH)).toHaveLength(2);
    server.once(TRACKING_PATH, { status: 503, body: 'unavailable' });
    server.once(TRACKING_PATH, { status: 503, body: 'unavailable' });
    const failed = await trackOne(adapter, '09980000000011', SETTINGS);
    expect(failed).toMatchObject({ status: 'error', retryable: true });
    expect(failed.status === 'error' && failed.message).toContain('HTTP 503');
    expect(server.to(TRACKING_PATH)).toHaveLength(4);
  });

  it('a call hanging past the deadline is abandoned', async () => {
    await trackOne(adapter, '09980000000011', SETTINGS);
    server.once(TRACKING_PATH, { hang: true });
    const started = Date.now();
    const [result] = await track(['09980000000012'], SETTINGS, AbortSignal.timeout(300));
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('an answer over 4 MiB is refused and not retried', async () => {
    server.once(TRACKING_PATH, { status: 200, body: `<x>${'y'.repeat(4 * 1_048_576 + 10)}</x>` });
    const result = await trackOne(adapter, '09980000000011', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(TRACKING_PATH)).toHaveLength(1);
  });

  it('a configuration without its password is refused before any call', async () => {
    const [result] = await track(['09980000000011'], { delis_id: DELIS_ID, environment: 'sandbox' });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('password');
    expect(server.requests).toHaveLength(0);
  });

  it('an unknown company or language is refused', async () => {
    const [instance] = await track(['09980000000011'], { ...SETTINGS, instance: 'uk' });
    expect(instance).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('instance') });
    const [language] = await track(['09980000000011'], { ...SETTINGS, message_language: 'english' });
    expect(language).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('message_language') });
    expect(server.requests).toHaveLength(0);
  });

  it('no secret appears in any result, even when DPD echoes it', async () => {
    server.once(LOGIN_PATH, { status: 503, body: `down for ${PASSWORD}` });
    server.once(LOGIN_PATH, { status: 503, body: `down for ${PASSWORD}` });
    const loginDown = await trackOne(adapter, '09980000000011', SETTINGS);
    await trackOne(adapter, '09980000000011', SETTINGS);
    const token = [...server.tokens][0];
    server.once(TRACKING_PATH, { status: 400, body: `Bad request with ${token}` });
    server.once(TRACKING_PATH, { status: 503, body: `down for ${token}` });
    server.once(TRACKING_PATH, { status: 503, body: `down for ${token}` });
    const results = [
      loginDown,
      await trackOne(adapter, '09980000000011', SETTINGS),
      await trackOne(adapter, '09980000000011', SETTINGS),
      ...(await track(['09980000000011', REFUSED, UNKNOWN])),
    ];
    expect(results.slice(0, 3).every((r) => r.status === 'error')).toBe(true);
    const text = JSON.stringify(results);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(token);
  });
});

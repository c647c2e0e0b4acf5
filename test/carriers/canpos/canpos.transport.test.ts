import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CanadaPostCarrier } from '../../../src/carriers/canpos/canpos.carrier.js';
import type { ProofOfDelivery, TrackResult } from '../../../src/carriers/carrier.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { localToolkit, requestsFor, trackOne } from '../support/kit.js';
import {
  BASIC,
  CERTIFICATE_PATH,
  canposAdapter,
  canposServer,
  DETAIL_PATH,
  MEDIA_TYPE,
  PASSWORD,
  SETTINGS,
  UNKNOWN_PIN,
  USERNAME,
} from './canpos-server.js';
import { canposXml } from './fixtures.js';

let server: CarrierServer;
let adapter: CanadaPostCarrier;

beforeEach(async () => {
  server = await canposServer();
  adapter = canposAdapter(server).adapter;
});

afterEach(async () => {
  await server.close();
});

const track = (numbers: string[], settings: Record<string, unknown> = SETTINGS) =>
  adapter.track(requestsFor(...numbers), settings, { now: new Date() });

const xml = (status: number, name: string, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': MEDIA_TYPE, ...headers },
  body: canposXml(name),
});

function proofOf(result: TrackResult): ProofOfDelivery {
  if (result.status !== 'ok' || !result.proof_of_delivery) throw new Error('no proof of delivery');
  return result.proof_of_delivery;
}

describe('Canada Post transport: requests', () => {
  it('asks Get Tracking Details with HTTP Basic, the v2 media type and English texts', async () => {
    const result = await trackOne(adapter, '7023000000000024', SETTINGS);
    expect(result.status).toBe('ok');
    const [request] = server.to(DETAIL_PATH);
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/vis/track/pin/7023000000000024/detail');
    expect(request.headers.authorization).toBe(BASIC);
    expect(request.headers.accept).toBe(MEDIA_TYPE);
    expect(request.headers['accept-language']).toBe('en-CA');
  });

  it('asks for French texts when the configuration says so', async () => {
    await trackOne(adapter, '7023000000000024', { ...SETTINGS, language: 'fr' });
    expect(server.to(DETAIL_PATH)[0].headers['accept-language']).toBe('fr-CA');
  });

  it('goes to the production gateway by default and the development one for sandbox settings', () => {
    const plain = new CanadaPostCarrier(localToolkit('other', 'http://127.0.0.1:1'));
    expect(plain.environments).toEqual(['production', 'sandbox']);
    expect((plain as unknown as { baseUrls: Record<string, string> }).baseUrls).toEqual({
      production: 'https://soa-gw.canadapost.ca',
      sandbox: 'https://ct.soa-gw.canadapost.ca',
    });
  });

  it('one PIN per call, one result per request in order, spaces removed from the path', async () => {
    const numbers = ['7023000000000017', '7023 0000 0000 0024', UNKNOWN_PIN, '7023000000000031', '7023000000000017'];
    const results = await track(numbers);
    expect(results.map((r) => [r.tracking_number, r.status])).toEqual([
      ['7023000000000017', 'ok'],
      ['7023 0000 0000 0024', 'ok'],
      [UNKNOWN_PIN, 'not_found'],
      ['7023000000000031', 'ok'],
      ['7023000000000017', 'ok'],
    ]);
    const calls = server.to(DETAIL_PATH);
    expect(calls).toHaveLength(4); // the repeated PIN is asked once
    for (const call of calls) expect(call.path).toMatch(/^\/vis\/track\/pin\/\d{16}\/detail$/);
  });

  it('events come back oldest first', async () => {
    const result = await trackOne(adapter, '7023000000000017', SETTINGS);
    expect(result.status === 'ok' && result.events.map((e) => e.additional_info.carrier_code)).toEqual([
      '3000',
      '1301',
      '0100',
      '0100',
      '0174',
      '1496',
      '20',
    ]);
  });

  it('never more calls in flight than limits.concurrent_calls', async () => {
    await server.close();
    server = await canposServer({ delayMs: 600 });
    adapter = canposAdapter(server).adapter;
    const numbers = Array.from({ length: 6 }, (_, i) => `70230000009${String(i).padStart(4, '0')}0`);
    const results = await track(numbers);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    expect(server.to(DETAIL_PATH)).toHaveLength(6);
    expect(server.maxInFlight).toBeLessThanOrEqual(adapter.limits.concurrent_calls);
    expect(server.maxInFlight).toBeGreaterThan(1);
  });

  it('counts codes its table lacks', async () => {
    const { adapter: counted, kit } = canposAdapter(server);
    await trackOne(counted, '7023000000000086', SETTINGS);
    const metrics = await kit.metrics.registry.getMetricsAsJSON();
    const unmapped = metrics.find((m) => m.name === 'waybill_carrier_unmapped_codes_total');
    const codes = (unmapped?.values ?? []).map((v) => v.labels.code);
    expect(codes).toEqual(expect.arrayContaining(['9999', '1220']));
    expect(codes).not.toContain('100');
  });
});

describe('Canada Post transport: answers', () => {
  it('"No PIN History" is not found, answered with a 404 or a 200', async () => {
    expect(await trackOne(adapter, UNKNOWN_PIN, SETTINGS)).toEqual({ status: 'not_found', tracking_number: UNKNOWN_PIN });
    server.once(DETAIL_PATH, xml(200, 'not-found'));
    expect(await trackOne(adapter, '7023000000000017', SETTINGS)).toEqual({ status: 'not_found', tracking_number: '7023000000000017' });
  });

  it('a 200 that is not XML is a retryable error; a 400 is not retried', async () => {
    server.once(DETAIL_PATH, { status: 200, body: '<html>maintenance' });
    expect(await trackOne(adapter, '7023000000000017', SETTINGS)).toMatchObject({ status: 'error', retryable: true });
    server.once(DETAIL_PATH, xml(400, 'duplicate'));
    const invalid = await trackOne(adapter, '7023000000000017', SETTINGS);
    expect(invalid).toMatchObject({ status: 'error', retryable: false });
    expect(invalid.status === 'error' && invalid.message).toContain('HTTP 400');
    expect(server.to(DETAIL_PATH)).toHaveLength(2);
  });

  it('other messages in a 200 are errors not retried', async () => {
    server.once(DETAIL_PATH, xml(200, 'duplicate'));
    const result = await trackOne(adapter, '7023000000000017', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('Duplicate PIN');
  });

  it('one PIN failing leaves the others answered', async () => {
    server.once('/vis/track/pin/7023000000000031/detail', { status: 500, body: 'boom' });
    server.once('/vis/track/pin/7023000000000031/detail', { status: 500, body: 'boom' });
    const results = await track(['7023000000000017', '7023000000000031', '7023000000000024']);
    expect(results.map((r) => r.status)).toEqual(['ok', 'error', 'ok']);
    expect(results[1]).toMatchObject({ retryable: true, tracking_number: '7023000000000031' });
  });

  it('401: refused credentials are not retried', async () => {
    const result = await trackOne(adapter, '7023000000000017', { ...SETTINGS, password: 'wrong-password-1' });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('HTTP 401');
    expect(server.to(DETAIL_PATH)).toHaveLength(1);
  });

  it('429 with Retry-After seconds pauses the credential; the next call does not reach Canada Post', async () => {
    server.once(DETAIL_PATH, xml(429, 'throttled', { 'retry-after': '7' }));
    const first = await trackOne(adapter, '7023000000000017', SETTINGS);
    expect(first).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const second = await trackOne(adapter, '7023000000000024', SETTINGS);
    expect(second).toMatchObject({ status: 'error', retryable: true, throttled: 'rate' });
    expect(second.status === 'error' && second.retry_after_seconds).toBeGreaterThanOrEqual(6);
    expect(server.to(DETAIL_PATH)).toHaveLength(1);
  });

  it('429 with an HTTP date', async () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    const dated = canposAdapter(server, () => now).adapter;
    server.once(DETAIL_PATH, xml(429, 'throttled', { 'retry-after': 'Fri, 20 Nov 2026 10:01:30 GMT' }));
    const result = await trackOne(dated, '7023000000000017', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 90 });
    expect(await trackOne(dated, '7023000000000024', SETTINGS)).toMatchObject({ throttled: 'rate', retry_after_seconds: 90 });
    expect(server.to(DETAIL_PATH)).toHaveLength(1);
  });

  it('a throttle rejection in another status pauses the key for the minute Canada Post blocks it', async () => {
    server.once(DETAIL_PATH, xml(403, 'throttled'));
    server.once(DETAIL_PATH, xml(400, 'throttled'));
    const first = await trackOne(adapter, '7023000000000017', SETTINGS);
    // A 403 is a refusal of the credentials to the transport: not retried, whatever its text.
    expect(first).toMatchObject({ status: 'error', retryable: false });
    const second = await trackOne(adapter, '7023000000000017', SETTINGS);
    expect(second).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 60 });
    expect(await trackOne(adapter, '7023000000000024', SETTINGS)).toMatchObject({ throttled: 'rate' });
    expect(server.to(DETAIL_PATH)).toHaveLength(2);
  });

  it('503 is retried once, then reported', async () => {
    server.once(DETAIL_PATH, { status: 503, body: 'unavailable' });
    expect((await trackOne(adapter, '7023000000000017', SETTINGS)).status).toBe('ok');
    expect(server.to(DETAIL_PATH)).toHaveLength(2);
    server.once(DETAIL_PATH, { status: 503, body: 'unavailable' });
    server.once(DETAIL_PATH, { status: 503, body: 'unavailable' });
    const failed = await trackOne(adapter, '7023000000000017', SETTINGS);
    expect(failed).toMatchObject({ status: 'error', retryable: true });
    expect(failed.status === 'error' && failed.message).toContain('HTTP 503');
    expect(server.to(DETAIL_PATH)).toHaveLength(4);
  });

  it('a call hanging past the deadline is abandoned', async () => {
    server.once(DETAIL_PATH, { hang: true });
    const started = Date.now();
    const [result] = await adapter.track(requestsFor('7023000000000017'), SETTINGS, {
      now: new Date(),
      signal: AbortSignal.timeout(300),
    });
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('an answer over 4 MiB is refused and not retried', async () => {
    server.once(DETAIL_PATH, { status: 200, body: `<tracking-detail><pin>${'1'.repeat(4 * 1_048_576 + 10)}</pin></tracking-detail>` });
    const result = await trackOne(adapter, '7023000000000017', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(DETAIL_PATH)).toHaveLength(1);
  });

  it('a configuration without its password is refused before any call', async () => {
    const [result] = await track(['7023000000000017'], { username: USERNAME, environment: 'sandbox' });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('password');
    expect(server.requests).toHaveLength(0);
  });

  it('the operator’s key serves configurations without one', async () => {
    const kit = localToolkit('canpos', server.url, {
      WAYBILL_CARRIER_CANPOS_USERNAME: USERNAME,
      WAYBILL_CARRIER_CANPOS_PASSWORD: PASSWORD,
    });
    const operated = new CanadaPostCarrier(kit);
    expect((await trackOne(operated, '7023000000000017', { environment: 'sandbox' })).status).toBe('ok');
    expect(server.to(DETAIL_PATH)[0].headers.authorization).toBe(BASIC);
  });

  it('no secret appears in any result, even when Canada Post echoes it', async () => {
    const encoded = BASIC.slice('Basic '.length);
    server.once(DETAIL_PATH, { status: 400, body: `Bad request for ${USERNAME}:${PASSWORD} (${encoded})` });
    server.once(DETAIL_PATH, { status: 401, body: `Key ${USERNAME} refused` });
    server.once(DETAIL_PATH, { status: 503, body: `down for ${PASSWORD}` });
    server.once(DETAIL_PATH, { status: 503, body: `down for ${encoded}` });
    const results = [
      await trackOne(adapter, '7023000000000017', SETTINGS),
      await trackOne(adapter, '7023000000000017', SETTINGS),
      await trackOne(adapter, '7023000000000017', SETTINGS),
      ...(await track(['7023000000000017', '7023000000000024', UNKNOWN_PIN])),
    ];
    expect(results.slice(0, 3).every((r) => r.status === 'error')).toBe(true);
    const text = JSON.stringify(results);
    for (const secret of [USERNAME, PASSWORD, encoded]) expect(text).not.toContain(secret);
  });
});

describe('Canada Post transport: proof of delivery', () => {
  it('downloads the delivery confirmation certificate of a delivered parcel with the same key', async () => {
    const proof = proofOf(await trackOne(adapter, '7023000000000017', SETTINGS));
    expect(proof).toMatchObject({
      reference: 'certificate:7023000000000017',
      file_name: '7023000000000017-delivery-confirmation.pdf',
      content_type: 'application/pdf',
      signed_by: 'A TESTER',
    });
    expect(server.to(CERTIFICATE_PATH)).toHaveLength(0); // nothing is fetched until asked
    const fetched = await proof.fetch({});
    expect(fetched.status).toBe('ok');
    expect(fetched.status === 'ok' && fetched.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const [request] = server.to(CERTIFICATE_PATH);
    expect(request.path).toBe('/vis/certificate/7023000000000017');
    expect(request.headers.authorization).toBe(BASIC);
    expect(request.headers.accept).toBe(MEDIA_TYPE);
  });

  it('no certificate (007), in a 200 or a 404, is a failure that is not retried', async () => {
    const proof = proofOf(await trackOne(adapter, '7023000000000017', SETTINGS));
    server.once(CERTIFICATE_PATH, xml(200, 'certificate-missing'));
    expect(await proof.fetch({})).toMatchObject({ status: 'error', retryable: false });
    server.once(CERTIFICATE_PATH, xml(404, 'certificate-missing'));
    expect(await proof.fetch({})).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('007') });
  });

  it('a throttled certificate call pauses the credential like a tracking call', async () => {
    const proof = proofOf(await trackOne(adapter, '7023000000000017', SETTINGS));
    server.once(CERTIFICATE_PATH, xml(429, 'throttled', { 'retry-after': '9' }));
    expect(await proof.fetch({})).toMatchObject({ status: 'error', throttled: 'rate', retry_after_seconds: 9 });
    expect(await trackOne(adapter, '7023000000000024', SETTINGS)).toMatchObject({ status: 'error', throttled: 'rate' });
    expect(server.to(DETAIL_PATH)).toHaveLength(1);
  });

  it('parcels not yet delivered offer no certificate', async () => {
    const result = await trackOne(adapter, '7023000000000048', SETTINGS);
    expect(result.status === 'ok' && result.proof_of_delivery).toBeUndefined();
  });
});

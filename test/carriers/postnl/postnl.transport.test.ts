import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProofOfDelivery, TrackResult } from '../../../src/carriers/carrier.js';
import { PostnlCarrier } from '../../../src/carriers/postnl/postnl.carrier.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { localToolkit, requestsFor, trackOne } from '../support/kit.js';
import { postnlFixture } from './fixtures.js';
import { API_KEY, postnlAdapter, postnlServer, SETTINGS, SIGNATURE_PATH, STATUS_PATH } from './postnl-server.js';

let server: CarrierServer;
let adapter: PostnlCarrier;

beforeEach(async () => {
  server = await postnlServer();
  adapter = postnlAdapter(server).adapter;
});

afterEach(async () => {
  await server.close();
});

const track = (numbers: string[], settings: Record<string, unknown> = SETTINGS, signal?: AbortSignal) =>
  adapter.track(requestsFor(...numbers), settings, { now: new Date(), signal });

function proofOf(result: TrackResult): ProofOfDelivery {
  if (result.status !== 'ok' || !result.proof_of_delivery) throw new Error('no proof of delivery');
  return result.proof_of_delivery;
}

describe('PostNL transport: requests', () => {
  it('asks the documented path with the apikey header, detail=true and English texts', async () => {
    const result = await trackOne(adapter, '3SDEVC410000002', SETTINGS);
    expect(result.status).toBe('ok');
    const [request] = server.to(STATUS_PATH);
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/shipment/v2/status/barcode/3SDEVC410000002');
    expect(request.query.get('detail')).toBe('true');
    expect(request.query.get('language')).toBe('EN');
    expect(request.headers.apikey).toBe(API_KEY);
    expect(request.headers.accept).toBe('application/json');
    expect(request.headers.authorization).toBeUndefined();
  });

  it('goes to the production host by default and the sandbox host for sandbox settings', () => {
    const kit = localToolkit('other', 'http://127.0.0.1:1');
    const plain = new PostnlCarrier(kit);
    expect(plain.environments).toEqual(['production', 'sandbox']);
    expect((plain as unknown as { baseUrls: Record<string, string> }).baseUrls).toEqual({
      production: 'https://api.postnl.nl',
      sandbox: 'https://api-sandbox.postnl.nl',
    });
  });

  it('one barcode per call, one result per request in order, each call with the key (no token to fetch)', async () => {
    const numbers = ['3SDEVC410000005', '3SDEVC410000001', '3SDEVC419999999', '3SDEVC410000002', '3SDEVC410000005'];
    const results = await track(numbers);
    expect(results.map((r) => [r.tracking_number, r.status])).toEqual([
      ['3SDEVC410000005', 'ok'],
      ['3SDEVC410000001', 'ok'],
      ['3SDEVC419999999', 'not_found'],
      ['3SDEVC410000002', 'ok'],
      ['3SDEVC410000005', 'ok'],
    ]);
    const calls = server.to(STATUS_PATH);
    expect(calls).toHaveLength(4); // the repeated number is asked once
    for (const call of calls) {
      expect(call.path.split('/').pop()).toMatch(/^3SDEVC\d{9}$/);
      expect(call.headers.apikey).toBe(API_KEY);
    }
    expect(server.requests.every((r) => STATUS_PATH.test(r.path))).toBe(true);
  });

  it('events come back oldest first', async () => {
    const result = await trackOne(adapter, '3SDEVC410000005', SETTINGS);
    expect(result.status === 'ok' && result.events.map((e) => e.additional_info.carrier_code)).toEqual(['A01', 'B01', 'J01', 'J05', 'I10']);
  });

  it('never more calls in flight than limits.concurrent_calls', async () => {
    await server.close();
    server = await postnlServer({ delayMs: 700 });
    adapter = postnlAdapter(server).adapter;
    const numbers = Array.from({ length: 12 }, (_, i) => `3SDEVC42${String(i).padStart(7, '0')}`);
    const results = await track(numbers);
    expect(results.every((r) => r.status === 'not_found')).toBe(true);
    expect(server.to(STATUS_PATH)).toHaveLength(12);
    expect(server.maxInFlight).toBeLessThanOrEqual(adapter.limits.concurrent_calls);
    expect(server.maxInFlight).toBeGreaterThan(1);
  });

  it('counts codes its table lacks', async () => {
    const { adapter: counted, kit } = postnlAdapter(server);
    await trackOne(counted, '3SDEVC410000011', SETTINGS);
    const metrics = await kit.metrics.registry.getMetricsAsJSON();
    const unmapped = metrics.find((m) => m.name === 'waybill_carrier_unmapped_codes_total');
    const codes = (unmapped?.values ?? []).map((v) => v.labels.code);
    expect(codes).toEqual(expect.arrayContaining(['J80', '99:99']));
    expect(codes).not.toContain('A27');
  });
});

describe('PostNL transport: answers', () => {
  it('404 is not found', async () => {
    server.once(STATUS_PATH, { status: 404, body: { message: 'not here' } });
    expect(await trackOne(adapter, '3SDEVC410000001', SETTINGS)).toEqual({ status: 'not_found', tracking_number: '3SDEVC410000001' });
  });

  it('a 200 that is not JSON is a retryable error; a 400 is not retried', async () => {
    server.once(STATUS_PATH, { status: 200, body: '<html>maintenance</html>' });
    expect(await trackOne(adapter, '3SDEVC410000001', SETTINGS)).toMatchObject({ status: 'error', retryable: true });
    server.once(STATUS_PATH, { status: 400, body: { Errors: [{ Code: '99', Description: 'Invalid barcode' }] } });
    const invalid = await trackOne(adapter, '3SDEVC410000001', SETTINGS);
    expect(invalid).toMatchObject({ status: 'error', retryable: false });
    expect(invalid.status === 'error' && invalid.message).toContain('HTTP 400');
  });

  it('one number failing leaves the others answered', async () => {
    server.once('/shipment/v2/status/barcode/3SDEVC410000003', { status: 500, body: 'boom' });
    server.once('/shipment/v2/status/barcode/3SDEVC410000003', { status: 500, body: 'boom' });
    const results = await track(['3SDEVC410000001', '3SDEVC410000003', '3SDEVC410000002']);
    expect(results.map((r) => r.status)).toEqual(['ok', 'error', 'ok']);
    expect(results[1]).toMatchObject({ retryable: true, tracking_number: '3SDEVC410000003' });
  });

  it('401: a refused key is not retried and is no token to refresh', async () => {
    const result = await trackOne(adapter, '3SDEVC410000001', { ...SETTINGS, api_key: 'wrong-key-123' });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('HTTP 401');
    expect(server.to(STATUS_PATH)).toHaveLength(1);
  });

  it('429 with Retry-After seconds pauses the credential; the next call does not reach PostNL', async () => {
    server.once(STATUS_PATH, { status: 429, headers: { 'retry-after': '7' }, body: { message: 'Too many requests' } });
    const first = await trackOne(adapter, '3SDEVC410000001', SETTINGS);
    expect(first).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const second = await trackOne(adapter, '3SDEVC410000002', SETTINGS);
    expect(second).toMatchObject({ status: 'error', retryable: true, throttled: 'rate' });
    expect(second.status === 'error' && second.retry_after_seconds).toBeGreaterThanOrEqual(6);
    expect(server.to(STATUS_PATH)).toHaveLength(1);
  });

  it('429 with an HTTP date', async () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    const dated = postnlAdapter(server, () => now).adapter;
    server.once(STATUS_PATH, { status: 429, headers: { 'retry-after': 'Fri, 20 Nov 2026 10:01:30 GMT' } });
    const result = await trackOne(dated, '3SDEVC410000001', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 90 });
    expect(await trackOne(dated, '3SDEVC410000002', SETTINGS)).toMatchObject({ throttled: 'rate', retry_after_seconds: 90 });
    expect(server.to(STATUS_PATH)).toHaveLength(1);
  });

  it('503 is retried once, then reported', async () => {
    server.once(STATUS_PATH, { status: 503, body: 'unavailable' });
    expect((await trackOne(adapter, '3SDEVC410000001', SETTINGS)).status).toBe('ok');
    expect(server.to(STATUS_PATH)).toHaveLength(2);
    server.once(STATUS_PATH, { status: 503, body: 'unavailable' });
    server.once(STATUS_PATH, { status: 503, body: 'unavailable' });
    const failed = await trackOne(adapter, '3SDEVC410000001', SETTINGS);
    expect(failed).toMatchObject({ status: 'error', retryable: true });
    expect(failed.status === 'error' && failed.message).toContain('HTTP 503');
    expect(server.to(STATUS_PATH)).toHaveLength(4);
  });

  it('a call hanging past the deadline is abandoned', async () => {
    server.once(STATUS_PATH, { hang: true });
    const started = Date.now();
    const [result] = await track(['3SDEVC410000001'], SETTINGS, AbortSignal.timeout(300));
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('an answer over 4 MiB is refused and not retried', async () => {
    server.once(STATUS_PATH, { status: 200, body: `{"Warnings":"${'x'.repeat(4 * 1_048_576 + 10)}"}` });
    const result = await trackOne(adapter, '3SDEVC410000001', SETTINGS);
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(STATUS_PATH)).toHaveLength(1);
  });

  it('a configuration without its key is refused before any call', async () => {
    const [result] = await track(['3SDEVC410000001'], { environment: 'sandbox' });
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('api_key');
    expect(server.requests).toHaveLength(0);
  });

  it('the operator’s key serves configurations without one', async () => {
    const kit = localToolkit('postnl', server.url, { WAYBILL_CARRIER_POSTNL_API_KEY: API_KEY });
    const operated = new PostnlCarrier(kit);
    expect((await trackOne(operated, '3SDEVC410000001', { environment: 'sandbox' })).status).toBe('ok');
    expect(server.to(STATUS_PATH)[0].headers.apikey).toBe(API_KEY);
  });

  it('no secret appears in any result, even when PostNL echoes it', async () => {
    server.once(STATUS_PATH, { status: 400, body: { message: `Bad request for key ${API_KEY}` } });
    server.once(STATUS_PATH, { status: 401, body: { message: `Key ${API_KEY} refused` } });
    server.once(STATUS_PATH, { status: 503, body: `down for ${API_KEY}` });
    server.once(STATUS_PATH, { status: 503, body: `down for ${API_KEY}` });
    const results = [
      await trackOne(adapter, '3SDEVC410000001', SETTINGS),
      await trackOne(adapter, '3SDEVC410000001', SETTINGS),
      await trackOne(adapter, '3SDEVC410000001', SETTINGS),
      ...(await track(['3SDEVC410000005', '3SDEVC410000003', '3SDEVC419999999'])),
    ];
    expect(results.slice(0, 3).every((r) => r.status === 'error')).toBe(true);
    expect(JSON.stringify(results)).not.toContain(API_KEY);
  });
});

describe('PostNL transport: proof of delivery', () => {
  it('downloads the signature of a delivered parcel through the same key', async () => {
    const result = await trackOne(adapter, '3SDEVC410000005', SETTINGS);
    const proof = proofOf(result);
    expect(proof).toMatchObject({ reference: 'signature:3SDEVC410000005', content_type: 'image/png' });
    expect(server.to(SIGNATURE_PATH)).toHaveLength(0); // nothing is fetched until asked
    const fetched = await proof.fetch({});
    expect(fetched.status).toBe('ok');
    expect(fetched.status === 'ok' && fetched.content.subarray(1, 4).toString('latin1')).toBe('PNG');
    const [request] = server.to(SIGNATURE_PATH);
    expect(request.path).toBe('/shipment/v2/status/signature/3SDEVC410000005');
    expect(request.headers.apikey).toBe(API_KEY);
  });

  it('a GIF signature is stored as a GIF', async () => {
    server.once(SIGNATURE_PATH, { status: 200, body: postnlFixture('signature-gif') });
    const proof = proofOf(await trackOne(adapter, '3SDEVC410000005', SETTINGS));
    const fetched = await proof.fetch({});
    expect(fetched.status).toBe('ok');
    expect(proof).toMatchObject({ content_type: 'image/gif', file_name: '3SDEVC410000005-signature.gif' });
  });

  it('no signature, or a 404, is a failure that is not retried', async () => {
    const proof = proofOf(await trackOne(adapter, '3SDEVC410000005', SETTINGS));
    server.once(SIGNATURE_PATH, { status: 200, body: postnlFixture('signature-missing') });
    expect(await proof.fetch({})).toMatchObject({ status: 'error', retryable: false });
    server.once(SIGNATURE_PATH, { status: 404, body: {} });
    expect(await proof.fetch({})).toMatchObject({ status: 'error', retryable: false });
  });

  it('a throttled signature call pauses the credential like a tracking call', async () => {
    const proof = proofOf(await trackOne(adapter, '3SDEVC410000005', SETTINGS));
    server.once(SIGNATURE_PATH, { status: 429, headers: { 'retry-after': '9' } });
    expect(await proof.fetch({})).toMatchObject({ status: 'error', throttled: 'rate', retry_after_seconds: 9 });
    expect(await trackOne(adapter, '3SDEVC410000001', SETTINGS)).toMatchObject({ status: 'error', throttled: 'rate' });
    expect(server.to(STATUS_PATH)).toHaveLength(1);
  });

  it('parcels not yet delivered offer no signature', async () => {
    const result = await trackOne(adapter, '3SDEVC410000003', SETTINGS);
    expect(result.status === 'ok' && result.proof_of_delivery).toBeUndefined();
  });
});

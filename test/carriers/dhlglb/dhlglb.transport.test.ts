import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { DhlUnifiedCarrier } from '../../../src/carriers/dhlglb/dhlglb.carrier.js';
import { CarrierServer, type ReceivedRequest, type ScriptedReply } from '../support/carrier-server.js';
import { localToolkit, requestsFor } from '../support/kit.js';
import { DHL_NUMBERS, dhlFixture } from './dhlglb.fixtures.js';

const PATH = '/track/shipments';
const KEY = 'dhl-merchant-key-5f3a9c';
const OPERATOR_KEY = 'dhl-operator-key-81d2e7';

/** Numbers the local DHL serves, with the fixture each one answers. */
const ANSWERS: Record<string, string> = {
  [DHL_NUMBERS.transit]: 'transit',
  [DHL_NUMBERS.failure]: 'failure',
  [DHL_NUMBERS.delivered]: 'delivered',
  [DHL_NUMBERS.returned]: 'return',
  [DHL_NUMBERS.piece1]: 'multi-piece',
};

function dhlRoute(request: ReceivedRequest): ScriptedReply {
  const fixture = ANSWERS[request.query.get('trackingNumber') ?? ''];
  if (!fixture)
    return { status: 404, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify(dhlFixture('not-found')) };
  return { status: 200, body: dhlFixture(fixture) };
}

describe('dhlglb transport: the real adapter against a local DHL', () => {
  let server: CarrierServer;
  let clock: number;
  const start = Date.parse('2026-11-24T22:00:00Z');

  beforeEach(async () => {
    server = await new CarrierServer().start();
    server.on('GET', PATH, dhlRoute);
    clock = start;
  });
  afterEach(() => server.close());

  /** An adapter on a fresh toolkit (its own limits), on the real clock or on `clock` when `manual`. */
  const adapterWith = (env: Record<string, string> = {}, manual = false) =>
    new DhlUnifiedCarrier(localToolkit('dhlglb', server.url, env, manual ? () => clock : undefined));
  const track = (
    adapter: DhlUnifiedCarrier,
    numbers: string[],
    settings: Record<string, unknown> = { api_key: KEY },
    signal?: AbortSignal,
  ) => adapter.track(requestsFor(...numbers), settings, { now: new Date(), signal });
  const noSecrets = (results: TrackResult[], ...secrets: string[]) => {
    const text = JSON.stringify(results);
    for (const secret of secrets) expect(text).not.toContain(secret);
  };

  it('sends the key in DHL-API-Key, asks for JSON, one number per call, with service and language when set', async () => {
    const adapter = adapterWith();
    const results = await track(adapter, [DHL_NUMBERS.transit, DHL_NUMBERS.delivered], {
      api_key: KEY,
      service: 'parcel-de',
      language: 'de',
    });
    expect(results.map((r) => [r.tracking_number, r.status])).toEqual([
      [DHL_NUMBERS.transit, 'ok'],
      [DHL_NUMBERS.delivered, 'ok'],
    ]);
    const calls = server.to(PATH);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.method).toBe('GET');
      expect(call.headers['dhl-api-key']).toBe(KEY);
      expect(call.headers.accept).toBe('application/json');
      expect(call.query.getAll('trackingNumber')).toHaveLength(1);
      expect(call.query.get('service')).toBe('parcel-de');
      expect(call.query.get('language')).toBe('de');
    }
    expect(calls.map((c) => c.query.get('trackingNumber')).sort()).toEqual([DHL_NUMBERS.delivered, DHL_NUMBERS.transit].sort());
    const plain = await track(adapterWith(), [DHL_NUMBERS.transit]);
    expect(plain[0].status).toBe('ok');
    expect([...server.to(PATH)[2].query.keys()]).toEqual(['trackingNumber']);
  });

  it('uses the operator key when the configuration has none, and the merchant key over it', async () => {
    const adapter = adapterWith({ WAYBILL_CARRIER_DHLGLB_API_KEY: OPERATOR_KEY });
    const results = await track(adapter, [DHL_NUMBERS.transit], {});
    expect(results[0].status).toBe('ok');
    expect(server.requests[0].headers['dhl-api-key']).toBe(OPERATOR_KEY);
    await track(adapter, [DHL_NUMBERS.transit], { api_key: KEY });
    expect(server.requests[1].headers['dhl-api-key']).toBe(KEY);
    noSecrets(results, OPERATOR_KEY);
  });

  it('without any key: a non-retryable error naming the setting, and no call', async () => {
    const results = await track(adapterWith(), [DHL_NUMBERS.transit, DHL_NUMBERS.failure], {});
    expect(results).toEqual([
      expect.objectContaining({
        status: 'error',
        tracking_number: DHL_NUMBERS.transit,
        retryable: false,
        message: expect.stringMatching(/api_key/),
      }),
      expect.objectContaining({ status: 'error', tracking_number: DHL_NUMBERS.failure, retryable: false }),
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('one result per number in request order: found, not found (404), a piece; never more than one call in flight', async () => {
    const slow = new CarrierServer();
    await slow.start();
    slow.on('GET', PATH, (request) => ({ ...dhlRoute(request), delayMs: 60 }));
    try {
      const adapter = new DhlUnifiedCarrier(localToolkit('dhlglb', slow.url));
      const numbers = [DHL_NUMBERS.failure, '1234567891', DHL_NUMBERS.piece1, DHL_NUMBERS.transit];
      const results = await track(adapter, numbers);
      expect(results.map((r) => [r.tracking_number, r.status])).toEqual([
        [DHL_NUMBERS.failure, 'ok'],
        ['1234567891', 'not_found'],
        [DHL_NUMBERS.piece1, 'ok'],
        [DHL_NUMBERS.transit, 'ok'],
      ]);
      expect(slow.to(PATH)).toHaveLength(4);
      expect(slow.maxInFlight).toBe(adapter.limits.concurrent_calls);
      expect(adapter.limits.concurrent_calls).toBe(1);
      // The base orders events oldest first.
      const transit = results[3];
      if (transit.status !== 'ok') throw new Error('expected ok');
      expect(transit.events[0].event_key).toBe('info_received');
      expect(transit.events.at(-1)?.additional_info.carrier_description).toMatch(/^Arrived at DHL Delivery Facility/);
    } finally {
      await slow.close();
    }
  });

  it('a 401 is a non-retryable error, asked once, with the key redacted from DHL words', async () => {
    server.once(PATH, { status: 401, body: { title: 'Unauthorized', status: 401, detail: `Invalid API key ${KEY}` } });
    const results = await track(adapterWith(), [DHL_NUMBERS.transit]);
    expect(results[0]).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('HTTP 401') });
    expect(server.requests).toHaveLength(1);
    noSecrets(results, KEY);
  });

  it('a 429 with Retry-After in seconds pauses the credential: the next track answers the pause without calling', async () => {
    server.once(PATH, { status: 429, headers: { 'retry-after': '7' }, body: dhlFixture('too-many-requests') });
    const adapter = adapterWith();
    const [first] = await track(adapter, [DHL_NUMBERS.transit]);
    expect(first).toMatchObject({ status: 'error', retryable: true, throttled: 'rate', retry_after_seconds: 7 });
    const [second] = await track(adapter, [DHL_NUMBERS.failure]);
    expect(second).toMatchObject({ status: 'error', retryable: true, throttled: 'rate' });
    expect((second as { retry_after_seconds: number }).retry_after_seconds).toBeLessThanOrEqual(7);
    expect(server.requests).toHaveLength(1);
    // Another credential is not paused.
    const [other] = await track(adapter, [DHL_NUMBERS.transit], { api_key: 'another-merchant-key' });
    expect(other.status).toBe('ok');
  });

  it('a 429 with Retry-After as an HTTP date', async () => {
    const adapter = adapterWith({}, true);
    server.once(PATH, {
      status: 429,
      headers: { 'retry-after': new Date(start + 120_000).toUTCString() },
      body: dhlFixture('too-many-requests'),
    });
    const [result] = await track(adapter, [DHL_NUMBERS.transit]);
    expect(result).toMatchObject({ status: 'error', throttled: 'rate', retry_after_seconds: 120 });
  });

  it('the daily quota: a 429 repeated after the rate pause pauses the credential until 24:00 GMT', async () => {
    const adapter = adapterWith({}, true);
    server.once(PATH, { status: 429, body: dhlFixture('too-many-requests') });
    server.once(PATH, { status: 429, body: dhlFixture('too-many-requests') });
    const [rate] = await track(adapter, [DHL_NUMBERS.transit]);
    expect(rate).toMatchObject({ status: 'error', throttled: 'rate' });
    clock += 61_000;
    const [quota] = await track(adapter, [DHL_NUMBERS.transit]);
    // 2026-11-24T22:01:01Z → the reset at 2026-11-25T00:00:00Z.
    expect(quota).toMatchObject({ status: 'error', retryable: true, throttled: 'quota', retry_after_seconds: 7139 });
    clock += 3_600_000;
    const [paused] = await track(adapter, [DHL_NUMBERS.failure]);
    expect(paused).toMatchObject({ status: 'error', throttled: 'quota', retry_after_seconds: 3539 });
    expect(server.requests).toHaveLength(2);
    // DHL said the day's quota is spent: nothing is left until the reset, whatever our own count says.
    expect(adapter.callsLeftToday({ api_key: KEY })).toBe(0);
    clock = Date.parse('2026-11-25T00:00:05Z');
    const [next] = await track(adapter, [DHL_NUMBERS.transit]);
    expect(next.status).toBe('ok');
    expect(adapter.callsLeftToday({ api_key: KEY })).toBe(249);
  });

  it('a 429 after a success is the per-second limit again, not the quota', async () => {
    const adapter = adapterWith({}, true);
    server.once(PATH, { status: 429, body: dhlFixture('too-many-requests') });
    await track(adapter, [DHL_NUMBERS.transit]);
    clock += 61_000;
    expect((await track(adapter, [DHL_NUMBERS.transit]))[0].status).toBe('ok');
    server.once(PATH, { status: 429, body: dhlFixture('too-many-requests') });
    clock += 61_000;
    expect((await track(adapter, [DHL_NUMBERS.transit]))[0]).toMatchObject({ throttled: 'rate' });
  });

  it('a 503 is retried once, then a retryable error', async () => {
    const failing = new CarrierServer();
    await failing.start();
    failing.on('GET', PATH, () => ({ status: 503, body: 'Service Unavailable' }));
    try {
      const [result] = await track(new DhlUnifiedCarrier(localToolkit('dhlglb', failing.url)), [DHL_NUMBERS.transit]);
      expect(result).toMatchObject({ status: 'error', retryable: true, message: expect.stringContaining('HTTP 503') });
      expect(failing.requests).toHaveLength(2);
    } finally {
      await failing.close();
    }
    server.once(PATH, { status: 503, body: 'busy' });
    const [recovered] = await track(adapterWith(), [DHL_NUMBERS.transit]);
    expect(recovered.status).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('a hang is abandoned at the deadline', async () => {
    server.once(PATH, { hang: true });
    const began = Date.now();
    const [result] = await track(adapterWith(), [DHL_NUMBERS.transit], { api_key: KEY }, AbortSignal.timeout(300));
    expect(result).toMatchObject({ status: 'error', retryable: true, message: expect.stringContaining('deadline') });
    expect(Date.now() - began).toBeLessThan(5_000);
  });

  it('an answer over 4 MiB is a non-retryable error', async () => {
    server.once(PATH, {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: `{"shipments":[],"x":"${'a'.repeat(4 * 1_048_576)}"}`,
    });
    const [result] = await track(adapterWith(), [DHL_NUMBERS.transit]);
    expect(result).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('limit') });
  });

  it('a refused request (400) is not retried and quotes DHL; a body that is not JSON is a retryable error', async () => {
    server.once(PATH, {
      status: 400,
      headers: { 'content-type': 'application/problem+json' },
      body: JSON.stringify(dhlFixture('refused')),
    });
    const [refused] = await track(adapterWith(), [DHL_NUMBERS.transit]);
    expect(refused).toMatchObject({
      status: 'error',
      retryable: false,
      message: expect.stringContaining('The service parameter value is not supported.'),
    });
    server.once(PATH, { status: 200, headers: { 'content-type': 'application/json' }, body: '<html>maintenance</html>' });
    const [unreadable] = await track(adapterWith(), [DHL_NUMBERS.transit]);
    expect(unreadable).toMatchObject({ status: 'error', retryable: true, message: expect.stringContaining('could not be read') });
    server.once(PATH, { status: 302, headers: { location: '/elsewhere' }, body: '' });
    const [redirected] = await track(adapterWith(), [DHL_NUMBERS.transit]);
    expect(redirected).toMatchObject({ status: 'error', retryable: false });
  });

  it('the proof of delivery is downloaded through the transport when DHL links to its own host; other hosts are not followed', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(64, 0x20)]);
    server.on('GET', '/pod/340528176905', () => ({ status: 200, headers: { 'content-type': 'application/octet-stream' }, body: pdf }));
    const delivered = (url: string) => {
      const body = structuredClone(dhlFixture('delivered')) as {
        shipments: Array<{ details: { proofOfDelivery: { documentUrl: string } } }>;
      };
      body.shipments[0].details.proofOfDelivery.documentUrl = url;
      return body;
    };
    server.once(PATH, { status: 200, body: delivered(`${server.url}/pod/340528176905?token=t1`) });
    const adapter = adapterWith();
    const [local] = await track(adapter, [DHL_NUMBERS.delivered]);
    if (local.status !== 'ok' || !local.proof_of_delivery) throw new Error(`expected a proof: ${JSON.stringify(local)}`);
    expect(local.proof_of_delivery).toMatchObject({
      reference: 'dhl:340528176905:document:2026-11-20T14:03:00+01:00',
      signed_by: 'Alex Example',
    });
    const fetched = await local.proof_of_delivery.fetch({ signal: AbortSignal.timeout(5_000) });
    expect(fetched).toEqual({ status: 'ok', content: pdf, content_type: 'application/pdf' });
    expect(local.proof_of_delivery.content_type).toBe('application/pdf');
    // A download from the API's own origin is a call on the key: it counts like a tracking call.
    expect(adapter.callsLeftToday({ api_key: KEY })).toBe(248);
    const download = server.to('/pod/340528176905')[0];
    expect(download.query.get('token')).toBe('t1');
    expect(download.headers['dhl-api-key']).toBe(KEY);

    server.once(PATH, { status: 200, body: delivered('https://pod.example.net/340528176905') });
    const [foreign] = await track(adapterWith(), [DHL_NUMBERS.delivered]);
    expect(foreign.status).toBe('ok');
    expect('proof_of_delivery' in foreign).toBe(false);
    const [dhlHost] = await track(adapterWith(), [DHL_NUMBERS.delivered]);
    expect(dhlHost.status === 'ok' && dhlHost.proof_of_delivery?.reference).toBe('dhl:340528176905:document:2026-11-20T14:03:00+01:00');
    noSecrets([local, foreign, dhlHost], KEY);
  });

  it('counts undocumented codes as unmapped, by code', async () => {
    const kit = localToolkit('dhlglb', server.url);
    const adapter = new DhlUnifiedCarrier(kit);
    server.once(PATH, { status: 200, body: dhlFixture('unknown') });
    await track(adapter, [DHL_NUMBERS.unknown]);
    const metric = await kit.metrics.registry.getSingleMetricAsString('waybill_carrier_unmapped_codes_total');
    expect(metric).toContain('code="in-flight"');
    expect(metric).not.toContain('code="unknown"');
  });
});

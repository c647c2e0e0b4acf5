import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CarrierError } from '../../../src/carriers/carrier.js';
import { DhlUnifiedCarrier } from '../../../src/carriers/dhlglb/dhlglb.carrier.js';
import { parseDhlPush } from '../../../src/carriers/dhlglb/dhlglb.push.js';
import { type SubscriptionResult, subscribesToPush } from '../../../src/carriers/push.js';
import { CarrierServer } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { DHL_NUMBERS, dhlFixture } from './dhlglb.fixtures.js';
import { SUBSCRIBE_PATH, subscribedIn, subscriptionRoute } from './dhlglb.push-server.js';

const KEY = 'dhl-push-key-2c8e41';
const HOOK = { url: 'https://waybill.test/carrier-hooks/dhlglb/', token: `wbhook_${'a'.repeat(64)}.${'b'.repeat(43)}` };

/** A push as DHL posts it: the tracking API's `shipments`, with the subscription's scope. */
function pushOf(...fixtures: string[]): object {
  const shipments = fixtures.flatMap((name) => (dhlFixture(name) as { shipments: unknown[] }).shipments);
  return { scope: 'subscription.push', self: 'https://api-eu.dhl.com/tracking/push/v1/subscription/sub-1', shipments };
}

describe('dhlglb push: parsePush', () => {
  const adapter = new DhlUnifiedCarrier(localToolkit('dhlglb', 'http://127.0.0.1:9'));

  it('is a subscribing push adapter: 10 numbers per call, 30 days', () => {
    expect(adapter.capabilities.push).toBe(true);
    expect(subscribesToPush(adapter)).toBe(true);
    expect(adapter.subscription).toEqual({ numbers_per_call: 10, valid_seconds: 30 * 86_400 });
  });

  it('maps each pushed shipment like a tracking answer of that shipment: one update each', () => {
    const parsed = adapter.parsePush(pushOf('transit', 'delivered'));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.updates.map((u) => u.tracking_number)).toEqual([DHL_NUMBERS.transit, DHL_NUMBERS.delivered]);
    const [transit, delivered] = parsed.updates.map((u) => u.result);
    expect(transit).toMatchObject({ status: 'ok', tracking_number: DHL_NUMBERS.transit });
    if (transit.status !== 'ok' || delivered.status !== 'ok') throw new Error('not ok');
    expect(transit.events.length).toBe(5);
    expect(transit.expected_delivery).toBeDefined();
    expect(delivered.events.map((e) => e.event_key)).toContain('delivered');
  });

  it('acknowledges a validation or readiness notice with no update, and refuses what is not a push', () => {
    expect(parseDhlPush({ scope: 'subscription.validate', self: 'x', secret: 's' })).toEqual({ ok: true, updates: [] });
    expect(parseDhlPush({ scope: 'subscription.ready', self: 'x' })).toEqual({ ok: true, updates: [] });
    expect(parseDhlPush([])).toMatchObject({ ok: false });
    expect(parseDhlPush('text')).toMatchObject({ ok: false });
    expect(parseDhlPush({ scope: 'subscription.push' })).toMatchObject({ ok: false, message: expect.stringContaining('shipments') });
    expect(parseDhlPush({ shipments: [{ status: {} }] })).toMatchObject({ ok: false, message: 'shipment 0 has no id.' });
    expect(parseDhlPush({ shipments: [] })).toEqual({ ok: true, updates: [] });
  });
});

describe('dhlglb push: subscribe against a local DHL', () => {
  let server: CarrierServer;
  const faults: string[] = [];
  const now = new Date('2026-11-20T10:00:00Z');

  beforeEach(async () => {
    faults.length = 0;
    server = await new CarrierServer().start();
    subscriptionRoute(server, KEY, faults);
  });
  afterEach(() => server.close());

  const adapterOf = () => new DhlUnifiedCarrier(localToolkit('dhlglb', server.url));
  const ok = (outcome: SubscriptionResult | CarrierError): SubscriptionResult => {
    if ('status' in outcome) throw new Error(outcome.message);
    return outcome;
  };

  it('posts the numbers with the key, the hook URL and the hook token as a bearer Authorization header', async () => {
    const numbers = [DHL_NUMBERS.transit, DHL_NUMBERS.delivered];
    const result = ok(await adapterOf().subscribe(numbers, { api_key: KEY, service: 'express' }, { now, hook: HOOK }));
    expect(result).toEqual({ accepted: numbers, refused: [], until: new Date('2026-12-20T10:00:00Z') });
    expect(faults).toEqual([]);
    const [call] = server.to(SUBSCRIBE_PATH);
    expect(call.headers['dhl-api-key']).toBe(KEY);
    expect(subscribedIn(call)).toEqual(numbers);
    expect(JSON.parse(call.body)).toEqual({
      hook: { uri: HOOK.url, authentication: { type: 'ApiKeyAuthentication', header: 'Authorization', token: `Bearer ${HOOK.token}` } },
      format: 'Default',
      type: 'Shipment',
      service: 'express',
      events: ['Pre-Transit', 'Transit', 'Delivered', 'Failure', 'Unknown'],
      shipmentIDs: numbers,
    });
  });

  it('does not call without a hook, with more than 10 numbers, or without a key; a refusal is not retried and hides the key', async () => {
    const adapter = adapterOf();
    expect(await adapter.subscribe([DHL_NUMBERS.transit], { api_key: KEY }, { now })).toMatchObject({ status: 'error', retryable: false });
    const many = Array.from({ length: 11 }, (_, i) => `${1000000000 + i}`);
    expect(await adapter.subscribe(many, { api_key: KEY }, { now, hook: HOOK })).toMatchObject({ status: 'error', retryable: false });
    expect(await adapter.subscribe([DHL_NUMBERS.transit], {}, { now, hook: HOOK })).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(SUBSCRIBE_PATH)).toHaveLength(0);

    const refused = await adapter.subscribe([DHL_NUMBERS.transit], { api_key: 'not-granted-key' }, { now, hook: HOOK });
    expect(refused).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('HTTP 401') });
    expect(JSON.stringify(refused)).not.toContain('not-granted-key');
  });
});

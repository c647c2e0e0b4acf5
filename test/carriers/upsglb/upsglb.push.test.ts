import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CarrierError, TrackResult } from '../../../src/carriers/carrier.js';
import type { SubscriptionResult } from '../../../src/carriers/push.js';
import { subscribesToPush } from '../../../src/carriers/push.js';
import { parseTrackAlert } from '../../../src/carriers/upsglb/upsglb.push.js';
import { requestsFor } from '../support/kit.js';
import { NUMBERS, SETTINGS, SUBSCRIBE_PATH, syntheticNumber, TOKEN_PATH, TRACK_PATH, UpsServer, upsAdapter } from './ups-server.js';

/** UPSTrackAlert.yaml's two examples (out for delivery, delivered), with our synthetic number. */
const OUT_FOR_DELIVERY = {
  trackingNumber: NUMBERS.inTransit,
  localActivityDate: '20240423',
  localActivityTime: '091519',
  gmtOffset: '-04.00',
  activityLocation: { city: 'Charlotte', stateProvince: 'NC', postalCode: '30004', country: 'US' },
  activityStatus: { type: 'I', code: 'OT', description: 'Out for Delivery', descriptionCode: '021' },
  scheduledDeliveryDate: '20240423',
  gmtActivityDate: '20240423',
  gmtActivityTime: '131519',
  deliveryTimeDescription: 'end of day',
};

/** A GIF's first bytes are all the POD reader needs to recognise it. */
const PHOTO = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(16, 1)]).toString('base64');

const DELIVERED = {
  trackingNumber: NUMBERS.delivered,
  localActivityDate: '20240423',
  localActivityTime: '095004',
  activityLocation: { city: 'CHARLOTTE', stateProvince: 'NC', postalCode: '28209', country: 'US' },
  activityStatus: { type: 'D', code: 'FS', description: 'Delivered', descriptionCode: 11 },
  scheduledDeliveryDate: '20191014',
  gmtActivityDate: '20240423',
  gmtActivityTime: '135004',
  actualDeliveryDate: '20240423',
  actualDeliveryTime: '095004',
  receivedBy: 'John',
  deliveryPhoto: PHOTO,
};

function only(result: TrackResult) {
  if (result.status !== 'ok') throw new Error(`not ok: ${result.status}`);
  return result;
}

describe('UPS Track Alert events → updates', () => {
  it('maps an event like the Track API activity it stands for: codes, place, local time with its offset', () => {
    const parsed = parseTrackAlert(OUT_FOR_DELIVERY);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.updates).toHaveLength(1);
    const result = only(parsed.updates[0].result);
    expect(parsed.updates[0].tracking_number).toBe(NUMBERS.inTransit);
    expect(result.events).toHaveLength(1);
    expect(result.events[0]).toMatchObject({
      event: 'Out for delivery',
      event_key: 'out_for_delivery',
      time: '2024-04-23T09:15:19-04:00',
      timezone: 'America/New_York',
      location: { place: 'Charlotte, NC, US', postal_code: '30004' },
      additional_info: {
        carrier_code: '021:OT',
        carrier_description: 'Out for Delivery',
        status_type: 'I',
        status_code: '021',
        activity_code: 'OT',
      },
    });
    expect(result.expected_delivery).toEqual({ from: '2024-04-23', to: '2024-04-23' });
    expect(result.proof_of_delivery).toBeUndefined();
  });

  it('reads a delivery with a numeric descriptionCode, no gmtOffset (from the GMT time), the photo and who signed', () => {
    const parsed = parseTrackAlert([DELIVERED]);
    if (!parsed.ok) throw new Error(parsed.message);
    const result = only(parsed.updates[0].result);
    expect(result.events[0]).toMatchObject({ event_key: 'delivered', time: '2024-04-23T09:50:04-04:00' });
    expect(result.expected_delivery).toBeUndefined();
    expect(result.proof_of_delivery).toMatchObject({ content_type: 'image/gif', signed_by: 'John' });
  });

  it('gives a window when both delivery times are pushed', () => {
    const parsed = parseTrackAlert({ ...OUT_FOR_DELIVERY, deliveryStartTime: '150000', deliveryEndTime: '170000' });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(only(parsed.updates[0].result).expected_delivery).toEqual({ from: '2024-04-23T15:00:00', to: '2024-04-23T17:00:00' });
  });

  it('refuses what is not a TrackingEventRequest, with a reason', () => {
    for (const body of [null, 'text', [], [OUT_FOR_DELIVERY, 3], { activityStatus: {} }, { trackingNumber: NUMBERS.delivered }]) {
      const parsed = parseTrackAlert(body);
      expect(parsed.ok, JSON.stringify(body)).toBe(false);
    }
  });

  it('is the adapter’s push, with subscriptions of 100 numbers for 14 days', () => {
    const server = { url: 'http://127.0.0.1:9' } as UpsServer;
    const adapter = upsAdapter(server);
    expect(adapter.capabilities.push).toBe(true);
    expect(subscribesToPush(adapter)).toBe(true);
    expect(adapter.subscription).toEqual({ numbers_per_call: 100, valid_seconds: 14 * 86_400 });
    expect(adapter.parsePush(OUT_FOR_DELIVERY).ok).toBe(true);
  });
});

describe('UPS Track Alert subscriptions against a local UPS', () => {
  let server: UpsServer;
  beforeEach(async () => {
    server = await UpsServer.create();
  });
  afterEach(async () => {
    await server.close();
  });

  const now = new Date('2026-11-20T10:00:00Z');
  const subscribe = (adapter: ReturnType<typeof upsAdapter>, numbers: string[], settings: Record<string, unknown> = SETTINGS) =>
    adapter.subscribe(numbers, settings, { now });
  const ok = (outcome: SubscriptionResult | CarrierError): SubscriptionResult => {
    if ('status' in outcome) throw new Error(outcome.message);
    return outcome;
  };

  it('posts the numbers with the tracking token and UPS’s headers, and knows what UPS accepted until when', async () => {
    const adapter = upsAdapter(server);
    await adapter.track(requestsFor(NUMBERS.inTransit), SETTINGS, { now });
    server.refusedNumbers.add(syntheticNumber(2));
    const numbers = [syntheticNumber(1), syntheticNumber(2), syntheticNumber(3)];
    const result = ok(await subscribe(adapter, numbers));
    expect(result.accepted).toEqual([syntheticNumber(1), syntheticNumber(3)]);
    expect(result.refused).toEqual([{ tracking_number: syntheticNumber(2), message: expect.any(String) }]);
    expect(result.until.toISOString()).toBe('2026-12-04T10:00:00.000Z');

    expect(server.subscriptionFaults).toEqual([]);
    const [call] = server.to(SUBSCRIBE_PATH);
    expect(call.method).toBe('POST');
    expect(call.headers.authorization).toBe('Bearer wb-access-token-1');
    expect(call.headers.transid).toMatch(/^[0-9a-f]{32}$/);
    expect(call.headers.transactionsrc).toBe('waybill');
    expect(JSON.parse(call.body)).toEqual({ locale: 'en_US', countryCode: 'US', trackingNumberList: numbers });
    // One token for tracking and subscribing.
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    expect(server.to(TRACK_PATH)).toHaveLength(1);
  });

  it('refuses more than 100 numbers without calling, and reads a 400 that refuses every number', async () => {
    const adapter = upsAdapter(server);
    const many = Array.from({ length: 101 }, (_, i) => syntheticNumber(i));
    expect(await subscribe(adapter, many)).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(SUBSCRIBE_PATH)).toHaveLength(0);

    server.refusedNumbers.add(syntheticNumber(7));
    const result = ok(await subscribe(adapter, [syntheticNumber(7)]));
    expect(result.accepted).toEqual([]);
    expect(result.refused).toEqual([{ tracking_number: syntheticNumber(7), message: expect.stringContaining('VSS210') }]);
  });

  it('a request UPS refuses as a whole is a non-retryable error; a 500 a retryable one; a 429 pauses the credential', async () => {
    const adapter = upsAdapter(server);
    server.once(SUBSCRIBE_PATH, { status: 400, body: { response: { errors: [{ code: 'VSS300', message: 'Locale is required.' }] } } });
    expect(await subscribe(adapter, [syntheticNumber(1)])).toMatchObject({
      status: 'error',
      retryable: false,
      message: expect.stringContaining('VSS300'),
    });
    server.once(SUBSCRIBE_PATH, { status: 500, body: { response: { errors: [{ code: '10004', message: 'later' }] } } });
    server.once(SUBSCRIBE_PATH, { status: 500, body: { response: { errors: [{ code: '10004', message: 'later' }] } } });
    expect(await subscribe(adapter, [syntheticNumber(1)])).toMatchObject({ status: 'error', retryable: true });
    server.once(SUBSCRIBE_PATH, { status: 429, headers: { 'retry-after': '30' }, body: {} });
    expect(await subscribe(adapter, [syntheticNumber(1)])).toMatchObject({ status: 'error', throttled: 'rate' });
  });

  it('renews a refused token once, and never puts a secret in an error', async () => {
    const adapter = upsAdapter(server);
    ok(await subscribe(adapter, [syntheticNumber(1)]));
    server.validTokens.clear();
    ok(await subscribe(adapter, [syntheticNumber(1)]));
    expect(server.to(TOKEN_PATH)).toHaveLength(2);
    const incomplete = await subscribe(adapter, [syntheticNumber(1)], { environment: 'sandbox' });
    expect(incomplete).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('client_id') });
    server.once(SUBSCRIBE_PATH, {
      status: 400,
      body: { response: { errors: [{ code: 'VSS000', message: `bad ${SETTINGS.client_secret}` }] } },
    });
    const error = await subscribe(adapter, [syntheticNumber(1)]);
    expect(JSON.stringify(error)).not.toContain(SETTINGS.client_secret);
  });
});

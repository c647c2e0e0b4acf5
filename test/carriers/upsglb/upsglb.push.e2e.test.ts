import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import { NUMBERS, SETTINGS, SUBSCRIBE_PATH, subscribedIn, syntheticNumber, TOKEN_PATH, TRACK_PATH, UpsServer } from './ups-server.js';

const DAY_MS = 86_400_000;

/**
 * Through the HTTP API: a UPS configuration gets a push token; the worker subscribes its shipments to Track
 * Alert (100 numbers per call) and renews them before the 14 days end; UPS fetches a token at the push token
 * endpoint and pushes events with it; subscribed shipments are polled rarely.
 */
describe('upsglb push end to end: Track Alert subscriptions, token endpoint, pushed events', () => {
  let server: UpsServer;
  let t: TestApp;
  let acct: TestAccount;
  let pushToken: string;
  let accessToken: string;
  /** Shipments made only to be subscribed: their polls are put off, so only subscriptions are at work. */
  const bulk = Array.from({ length: 104 }, (_, i) => syntheticNumber(i + 1));
  const refused = bulk[7];

  beforeAll(async () => {
    server = await UpsServer.create();
    t = await createTestApp({ env: { WAYBILL_CARRIER_UPSGLB_BASE_URL: server.url } });
    acct = await t.account();
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const api = (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.as(acct)(method, url, body, query);
  const details = async (shipmentId: string) =>
    (await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId })).json().data;
  const row = (shipmentId: string) =>
    t.context.database.db.selectFrom('shipments').selectAll().where('shipment_id', '=', shipmentId).executeTakeFirstOrThrow();
  const subscribedNumbers = () => server.to(SUBSCRIBE_PATH).flatMap(subscribedIn);
  const tokenRequest = (authorization: string | undefined, form: string) =>
    t.app.inject({
      method: 'POST',
      url: '/carrier-hooks/upsglb/oauth/token/',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
      payload: form,
    });
  const push = (body: unknown, token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/carrier-hooks/upsglb/',
      headers: { authorization: `Bearer ${token}`, 'x-api-key': 'merchant-chosen-client', 'user-agent': 'UPSPubSubTrackingService' },
      payload: body as object,
    });

  it('gives a UPS configuration a push token, its push URL and its token URL when it is added', async () => {
    const created = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'ups',
      carrier_id: 'upsglb',
      settings: { ...SETTINGS },
    });
    expect(created.statusCode, created.body).toBe(201);
    pushToken = created.json().push_token;
    expect(pushToken).toMatch(/^wbpush_/);
    expect(created.json().push_url).toBe('https://waybill.test/carrier-hooks/upsglb/');
    expect(created.json().push_token_url).toBe('https://waybill.test/carrier-hooks/upsglb/oauth/token/');
    const catalogue = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(catalogue.body).not.toContain(pushToken);
  });

  it('subscribes tracked shipments in calls of at most 100 numbers with the tracking token, and not delivered ones', async () => {
    for (const [shipmentId, number] of [
      ['push-transit', NUMBERS.inTransit],
      ['push-delivered', NUMBERS.delivered],
    ]) {
      const res = await api('POST', '/v5/shipment/', { shipment_id: shipmentId, tracking_number: number, carrier_reference: 'ups' });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const [i, number] of bulk.entries()) {
      const res = await api('POST', '/v5/shipment/', { shipment_id: `push-bulk-${i}`, tracking_number: number, carrier_reference: 'ups' });
      expect(res.statusCode, res.body).toBe(200);
    }
    await t.context.database.db
      .updateTable('shipments')
      .set({ next_poll_at: new Date(t.clock.now().getTime() + 40 * DAY_MS).toISOString() })
      .where('shipment_id', 'like', 'push-bulk-%')
      .execute();
    server.refusedNumbers.add(refused);

    await t.context.worker.runOnce();

    expect((await details('push-delivered')).status).toBe('delivered');
    expect((await details('push-transit')).status).toBe('active');
    expect(server.to(TRACK_PATH)).toHaveLength(2);
    const calls = server.to(SUBSCRIBE_PATH);
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => subscribedIn(c).length).sort((a, b) => b - a)).toEqual([100, 5]);
    expect(server.subscriptionFaults).toEqual([]);
    expect(subscribedNumbers().sort()).toEqual([NUMBERS.inTransit, ...bulk].sort());
    expect(subscribedNumbers()).not.toContain(NUMBERS.delivered);
    for (const call of calls) {
      expect(call.headers.authorization).toBe('Bearer wb-access-token-1');
      expect(call.headers.transid).toMatch(/^[0-9a-f]{32}$/);
      expect(call.headers.transactionsrc).toBe('waybill');
    }
    // One UPS token for the polls and the subscriptions.
    expect(server.to(TOKEN_PATH)).toHaveLength(1);

    const until = new Date(t.clock.now().getTime() + 14 * DAY_MS).toISOString();
    expect((await row('push-transit')).push_subscribed_until).toBe(until);
    expect((await row('push-bulk-0')).push_subscribed_until).toBe(until);
    expect((await row('push-delivered')).push_subscribed_until).toBeNull();
    const refusedRow = await row('push-bulk-7');
    expect(refusedRow.push_subscribed_until).toBeNull();
    expect(refusedRow.push_retry_at).toBe(new Date(t.clock.now().getTime() + DAY_MS).toISOString());

    // Nothing is due again soon: a refused number waits a day.
    t.clock.advance(10 * 60_000);
    await t.context.worker.runOnce();
    expect(server.to(SUBSCRIBE_PATH)).toHaveLength(2);
  });

  it('polls a subscribed shipment much less often', async () => {
    const polled = server.to(TRACK_PATH).length;
    t.clock.advance(35 * 60_000);
    await t.context.worker.runOnce();
    expect(server.to(TRACK_PATH)).toHaveLength(polled + 1);
    const next = new Date((await row('push-transit')).next_poll_at as string).getTime();
    // In transit is polled every 30 minutes; with pushes, every 4 hours (±10%).
    expect(next - t.clock.now().getTime()).toBeGreaterThan(3.5 * 60 * 60_000);
    expect(next - t.clock.now().getTime()).toBeLessThanOrEqual(12 * 60 * 60_000);
  });

  it('issues an access token for the push token at the token endpoint, and refuses a wrong secret', async () => {
    const basic = (secret: string) => `Basic ${Buffer.from(`merchant-chosen-client:${secret}`).toString('base64')}`;
    const issued = await tokenRequest(basic(pushToken), 'grant_type=client_credentials');
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.headers['cache-control']).toBe('no-store');
    expect(issued.json()).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: expect.any(Number) });
    accessToken = issued.json().access_token;

    const inForm = await tokenRequest(
      undefined,
      new URLSearchParams({ grant_type: 'client_credentials', client_id: 'x', client_secret: pushToken }).toString(),
    );
    expect(inForm.statusCode).toBe(200);

    for (const refusedRequest of [
      await tokenRequest(basic('wbpush_wrong'), 'grant_type=client_credentials'),
      await tokenRequest(undefined, 'grant_type=client_credentials'),
    ]) {
      expect(refusedRequest.statusCode).toBe(403);
      expect(refusedRequest.json()).toMatchObject({ api_response: 403 });
      expect(refusedRequest.body).not.toContain(pushToken);
    }
    const wrongCarrier = await t.app.inject({
      method: 'POST',
      url: '/carrier-hooks/fdxglb/oauth/token/',
      headers: { authorization: basic(pushToken), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    expect(wrongCarrier.statusCode).toBe(403);
    const wrongGrant = await tokenRequest(basic(pushToken), 'grant_type=password');
    expect(wrongGrant.statusCode).toBe(400);
  });

  it('acknowledges a pushed TrackingEventRequest at once and shows its event after the worker ran; a wrong token is 403', async () => {
    const event = {
      trackingNumber: NUMBERS.inTransit,
      localActivityDate: '20261114',
      localActivityTime: '081500',
      gmtOffset: '+01.00',
      gmtActivityDate: '20261114',
      gmtActivityTime: '071500',
      activityLocation: { city: 'Kleinfelden', postalCode: '34567', country: 'DE' },
      activityStatus: { type: 'I', code: 'OT', description: 'Out For Delivery Today', descriptionCode: '021' },
      scheduledDeliveryDate: '20261114',
    };
    expect((await push(event, 'wbpush_wrong')).statusCode).toBe(403);
    const res = await push(event, accessToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ updates: 1, queued: true });
    await t.context.worker.runOnce();
    const data = await details('push-transit');
    expect(data.current_phase.key).toBe('out_for_delivery');
    expect(data.all_events[0]).toMatchObject({
      event_key: 'out_for_delivery',
      time: '2026-11-14T08:15:00+01:00',
      carrier_name: 'UPS',
      location: { place: 'Kleinfelden, DE' },
      additional_info: { carrier_code: '021:OT', carrier_description: 'Out For Delivery Today' },
    });
    expect(data.expected_delivery).toEqual({ from: '2026-11-14', to: '2026-11-14' });

    // A delivery pushed with UPS's photo and who signed.
    const photo = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(16, 1)]).toString('base64');
    const delivered = await push(
      {
        trackingNumber: bulk[0],
        localActivityDate: '20261114',
        localActivityTime: '101500',
        gmtOffset: '-05.00',
        activityLocation: { city: 'Maple Ridge', stateProvince: 'OH', postalCode: '43001', country: 'US' },
        activityStatus: { type: 'D', code: 'FS', description: 'Delivered', descriptionCode: '011' },
        actualDeliveryDate: '20261114',
        actualDeliveryTime: '101500',
        receivedBy: 'QUILLFEATHER',
        deliveryPhoto: photo,
      },
      accessToken,
    );
    expect(delivered.statusCode, delivered.body).toBe(200);
    await t.context.worker.runOnce();
    const bulkDetails = await details('push-bulk-0');
    expect(bulkDetails.status).toBe('delivered');
    expect(bulkDetails.parcel_recipient_information).toBe('QUILLFEATHER');
    expect(bulkDetails.pod_url).toEqual(expect.stringContaining('/files/pod/'));
  });

  it('renews subscriptions before their 14 days end, not for delivered shipments, and asks again for a refused number', async () => {
    server.refusedNumbers.clear();
    const before = server.to(SUBSCRIBE_PATH).length;
    t.clock.advance(12 * DAY_MS + 60_000);
    await t.context.worker.runOnce();
    const renewals = server.to(SUBSCRIBE_PATH).slice(before);
    expect(renewals.length).toBe(2);
    expect(renewals.every((c) => subscribedIn(c).length <= 100)).toBe(true);
    const numbers = renewals.flatMap(subscribedIn);
    expect(numbers).toContain(NUMBERS.inTransit);
    expect(numbers).toContain(refused);
    expect(numbers).not.toContain(bulk[0]);
    expect(numbers).not.toContain(NUMBERS.delivered);
    expect(numbers).toHaveLength(104);
    expect(server.to(TOKEN_PATH).length).toBeGreaterThanOrEqual(1);
    const until = new Date(t.clock.now().getTime() + 14 * DAY_MS).toISOString();
    expect((await row('push-transit')).push_subscribed_until).toBe(until);
    expect((await row('push-bulk-7')).push_subscribed_until).toBe(until);
  });
});

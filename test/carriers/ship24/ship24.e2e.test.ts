import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTrackerId } from '../../../src/carriers/ship24/ship24.trackers.js';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import {
  API_KEY,
  BULK_PATH,
  COURIERS_PATH,
  NUMBERS,
  RESULTS_PATH,
  type Ship24Server,
  ship24Server,
  TRACKER_PATH,
} from './ship24-server.js';

const WEBHOOK_SECRET = 'ship24-allocated-webhook-secret-51c2';

/**
 * Through the HTTP API: an account whose only configuration is Ship24, as its fallback. Shipments with a Royal
 * Mail S10 number and an InPost number, given without carrier_reference, are tracked through it; the first poll
 * registers them, the next maps their events and names the courier in the details and on the tracking page; a
 * delivered parcel's tracker is unsubscribed, and created anew once when the merchant follows the number again (an
 * update asked for, a number changed away and back); a webhook with the push token is applied, a forged one refused.
 */
describe('ship24 end to end: the fallback aggregator, registration once, the carrier of record, push', () => {
  let server: Ship24Server;
  let t: TestApp;
  let acct: TestAccount;
  let pushToken: string;

  beforeAll(async () => {
    server = await ship24Server();
    t = await createTestApp({ env: { WAYBILL_CARRIER_SHIP24_BASE_URL: server.url.replace('127.0.0.1', 'localhost') } });
    acct = await t.account();
  });
  /** The carrier.stop jobs waiting to run. */
  const stopJobs = async () =>
    (
      await t.context.database.db
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', 'carrier.stop')
        .where('status', '=', 'queued')
        .execute()
    ).length;
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });
  /** The stops on record (numbers whose trackers Ship24 was told to unsubscribe). */
  const stopsOnRecord = async () =>
    (await t.context.database.db.selectFrom('tracking_stops').select(['carrier_reference', 'tracking_key']).execute()).map(
      (row) => `${row.carrier_reference}:${row.tracking_key}`,
    );
  const registrations = async () => {
    const metric = await t.context.carrierKit.metrics.registry.getSingleMetric('waybill_carrier_registrations_total')?.get();
    return metric?.values.find((v) => v.labels.carrier === 'ship24')?.value ?? 0;
  };

  const api = (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.as(acct)(method, url, body, query);
  const details = async (shipmentId: string) =>
    (await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId })).json().data;
  const pollAgain = () =>
    t.context.database.db
      .updateTable('shipments')
      .set({ next_poll_at: new Date(t.clock.now().getTime() - 1_000).toISOString() })
      .where('shipment_id', 'like', 's24-%')
      .where('next_poll_at', 'is not', null)
      .execute();
  /** As Ship24 posts: to the URL set in its dashboard (the push token in its query), its own secret as the bearer. */
  const push = (body: unknown, token: string, authorization = `Bearer ${WEBHOOK_SECRET}`) =>
    t.app.inject({
      method: 'POST',
      url: `/carrier-hooks/ship24/?push_token=${encodeURIComponent(token)}`,
      headers: { authorization },
      payload: body as object,
    });

  it('adds Ship24 as the fallback and routes numbers no configuration claims to it', async () => {
    const created = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'agg',
      carrier_id: 'ship24',
      fallback: true,
      settings: { api_key: API_KEY, webhook_secret: WEBHOOK_SECRET },
    });
    expect(created.statusCode, created.body).toBe(201);
    pushToken = created.json().push_token;
    expect(pushToken).toMatch(/^wbpush_/);
    expect(created.json().push_url).toBe('https://waybill.test/carrier-hooks/ship24/');
    for (const [shipmentId, trackingNumber] of [
      ['s24-royal-mail', NUMBERS.delivered],
      ['s24-inpost', NUMBERS.inpost],
    ]) {
      const res = await api('POST', '/v5/shipment/', { shipment_id: shipmentId, tracking_number: trackingNumber });
      expect(res.statusCode, res.body).toBe(200);
      expect((await details(shipmentId)).carrier_reference).toBe('agg');
    }
  });

  it('registers both numbers on the first poll, once, and maps them on the next', async () => {
    await t.context.worker.runOnce();
    expect([...server.created].sort()).toEqual([NUMBERS.delivered, NUMBERS.inpost].sort());
    expect(server.to(BULK_PATH)).toHaveLength(1);
    expect(server.to(RESULTS_PATH).every((r) => r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
    expect((await details('s24-royal-mail')).all_events).toEqual([]);

    await pollAgain();
    await t.context.worker.runOnce();
    expect(server.to(BULK_PATH)).toHaveLength(1);
    expect(server.to(COURIERS_PATH)).toHaveLength(1);

    const royalMail = await details('s24-royal-mail');
    expect(royalMail.status).toBe('delivered');
    expect(royalMail.carrier_reference).toBe('agg');
    expect(royalMail.carrier.name).toBe('Royal Mail');
    expect(royalMail.additional_info.courier_code).toBe('royal-mail');
    expect(royalMail.expected_delivery).toEqual({ from: '2026-11-20', to: '2026-11-20' });
    expect(royalMail.all_events.map((e: { event_key: string }) => e.event_key)).toEqual([
      'delivered',
      'out_for_delivery',
      'in_transit',
      'picked_up',
      'info_received',
    ]);
    expect(royalMail.all_events[0]).toMatchObject({
      event: 'Delivered',
      time: '2026-11-20T13:05:00',
      timezone: 'Europe/London',
      location: { place: 'LONDON' },
      additional_info: { carrier_code: 'delivery_delivered', carrier_description: 'Delivered', courier_code: 'royal-mail' },
    });

    const inpost = await details('s24-inpost');
    expect(inpost.carrier.name).toBe('InPost');
    expect(inpost.additional_info.courier_code).toBe('inpost');
    expect(inpost.current_phase.key).toBe('available_for_pickup');
    expect(inpost.all_events[0]).toMatchObject({
      event_key: 'available_for_pickup',
      time: '2026-11-22T09:41:00+01:00',
      location: { place: 'Paczkomat KRA01M, Kraków', country_code: 'PL' },
      additional_info: { carrier_description: 'Gotowa do odbioru w Paczkomacie' },
    });
    expect(inpost.all_events.at(-1)).toMatchObject({ event_key: 'info_received', time: '2026-11-21T08:02:00', timezone: 'Europe/Warsaw' });

    // Polled again: read, never registered again.
    await pollAgain();
    await t.context.worker.runOnce();
    expect(server.to(BULK_PATH)).toHaveLength(1);
    expect(server.created).toHaveLength(2);
  });

  it('names the courier on the tracking page', async () => {
    for (const [shipmentId, name] of [
      ['s24-royal-mail', 'Royal Mail'],
      ['s24-inpost', 'InPost'],
    ]) {
      const reference = (await details(shipmentId)).tracking_page_reference;
      const page = await t.app.inject({ method: 'GET', url: `/t/${reference}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(name);
    }
  });

  it('unsubscribes the tracker of the delivered parcel', async () => {
    // The stop waits out the poll lease, so that a poll of the number still asking the aggregator cannot follow it.
    await t.context.worker.runOnce();
    expect(await stopJobs()).toBe(1);
    t.clock.advance(t.config.pollLeaseMs);
    await t.context.worker.runOnce();
    const stops = server.to(TRACKER_PATH).filter((r) => r.method === 'PATCH');
    expect(stops.map((r) => r.path)).toEqual([`/public/v1/trackers/${clientTrackerId(NUMBERS.delivered)}`]);
    expect(JSON.parse(stops[0].body)).toEqual({ isSubscribed: false });
    expect(server.trackers.get(clientTrackerId(NUMBERS.delivered))?.subscribed).toBe(false);
    expect(server.trackers.get(clientTrackerId(NUMBERS.inpost))?.subscribed).toBe(true);
    expect(await stopsOnRecord()).toEqual([`agg:${NUMBERS.delivered}`]);
  });

  it('creates the unsubscribed tracker anew, once, when the merchant asks for an update, and counts it', async () => {
    const registered = await registrations();
    const trigger = await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: 's24-royal-mail' });
    expect(trigger.statusCode, trigger.body).toBe(200);
    await t.context.worker.runOnce();
    const bulks = server.to(BULK_PATH);
    expect(bulks).toHaveLength(2);
    expect(JSON.parse(bulks[1].body)).toEqual([{ trackingNumber: NUMBERS.delivered, clientTrackerId: clientTrackerId(NUMBERS.delivered) }]);
    expect(server.created.filter((number) => number === NUMBERS.delivered)).toHaveLength(2);
    expect(server.trackers.get(clientTrackerId(NUMBERS.delivered))?.subscribed).toBe(true);
    expect(await registrations()).toBe(registered + 1);
    expect(await stopsOnRecord()).toEqual([]);
    // Created before its results were read: the new tracker's.
    const read = server
      .to(RESULTS_PATH)
      .filter((r) => r.path.includes(clientTrackerId(NUMBERS.delivered)))
      .at(-1);
    expect(read && server.requests.indexOf(read)).toBeGreaterThan(server.requests.indexOf(bulks[1]));
    expect((await details('s24-royal-mail')).status).toBe('delivered');

    await pollAgain();
    await t.context.worker.runOnce();
    expect(server.to(BULK_PATH)).toHaveLength(2);
    // Delivered still: its tracking ends again, and the new tracker is unsubscribed.
    t.clock.advance(t.config.pollLeaseMs);
    await t.context.worker.runOnce();
    expect(server.trackers.get(clientTrackerId(NUMBERS.delivered))?.subscribed).toBe(false);
    expect(await stopsOnRecord()).toEqual([`agg:${NUMBERS.delivered}`]);
  });

  it('a number changed away and back is followed by a new tracker once, tried again after a failure; later polls read it', async () => {
    const parcel = NUMBERS.international;
    const id = clientTrackerId(parcel);
    expect((await api('POST', '/v5/shipment/', { shipment_id: 's24-usps', tracking_number: parcel })).statusCode).toBe(200);
    await t.context.worker.runOnce();
    const update = (trackingNumber: string) =>
      api('POST', '/v5/shipment/update/', { tracking_number: trackingNumber }, { shipment_id: 's24-usps' });
    expect((await update(NUMBERS.pending)).statusCode).toBe(200);
    t.clock.advance(t.config.pollLeaseMs);
    await t.context.worker.runOnce();
    expect(server.trackers.get(id)?.subscribed).toBe(false);
    expect(await stopsOnRecord()).toContain(`agg:${parcel}`);

    // Back, as the merchant types it: the stop is found by the number as detection reads it. Ship24 cannot be
    // reached for the new tracker: the poll reads the old one all the same, and the next poll tries again.
    const bulks = server.to(BULK_PATH).length;
    expect((await update(parcel.replace(/(\d{4})/g, '$1 ').trim())).statusCode).toBe(200);
    server.once(BULK_PATH, { status: 503, body: 'down' });
    server.once(BULK_PATH, { status: 503, body: 'down' });
    const reads = server.to(RESULTS_PATH).filter((r) => r.path.includes(id)).length;
    await t.context.worker.runOnce();
    expect(server.to(BULK_PATH)).toHaveLength(bulks + 2);
    expect(server.to(RESULTS_PATH).filter((r) => r.path.includes(id))).toHaveLength(reads + 1);
    expect(server.trackers.get(id)?.subscribed).toBe(false);
    expect(await stopsOnRecord()).toContain(`agg:${parcel}`);

    await pollAgain();
    await t.context.worker.runOnce();
    expect(server.to(BULK_PATH)).toHaveLength(bulks + 3);
    expect(server.created.filter((number) => number === parcel)).toHaveLength(2);
    expect(server.trackers.get(id)?.subscribed).toBe(true);
    expect(await stopsOnRecord()).not.toContain(`agg:${parcel}`);
    for (let i = 0; i < 2; i++) {
      await pollAgain();
      await t.context.worker.runOnce();
    }
    expect(server.to(BULK_PATH)).toHaveLength(bulks + 3);
    expect(server.to(RESULTS_PATH).filter((r) => r.path.includes(id))).toHaveLength(reads + 4);
    expect((await details('s24-usps')).current_phase.key).toBe('out_for_delivery');
  });

  it("applies a webhook posted to the push URL with Ship24's secret; a forged token or secret is refused", async () => {
    const body = {
      trackings: [
        {
          metadata: {
            generatedAt: '2026-11-23T17:03:00.000Z',
            messageId: '00000000-0000-4000-8000-000000000501',
            topic: 'tracking/events',
          },
          tracker: {
            trackerId: 't-inpost',
            trackingNumber: NUMBERS.inpost,
            clientTrackerId: clientTrackerId(NUMBERS.inpost),
            isSubscribed: true,
          },
          shipment: {
            statusCode: 'delivery_delivered',
            statusMilestone: 'delivered',
            originCountryCode: 'PL',
            destinationCountryCode: 'PL',
          },
          events: [
            {
              eventId: '00000000-0000-4000-8000-000000000361',
              status: 'Przesyłka odebrana',
              occurrenceDatetime: '2026-11-23T18:02:00',
              order: 4,
              location: 'Paczkomat KRA01M, Kraków',
              courierCode: 'inpost',
              statusCode: 'delivery_delivered',
              statusCategory: 'delivery',
              statusMilestone: 'delivered',
            },
          ],
        },
      ],
    };
    expect((await push(body, 'wbpush_forged')).statusCode).toBe(403);
    // The right push token, but not Ship24's secret.
    expect((await push(body, pushToken, 'Bearer not-the-webhook-secret')).statusCode).toBe(403);
    expect((await push(body, pushToken, '')).statusCode).toBe(403);
    expect((await push({ tracking: [] }, pushToken)).statusCode).toBe(400);
    const res = await push(body, pushToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ updates: 1, queued: true });
    await t.context.worker.runOnce();
    const inpost = await details('s24-inpost');
    expect(inpost.status).toBe('delivered');
    expect(inpost.all_events[0]).toMatchObject({ event_key: 'delivered', time: '2026-11-23T18:02:00', timezone: 'Europe/Warsaw' });
    expect(inpost.carrier.name).toBe('InPost');
  });
});

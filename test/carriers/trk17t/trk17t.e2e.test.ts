import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signOf } from '../../../src/carriers/trk17t/trk17t.push.js';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import { entryOf } from './trk17t.fixtures.js';
import {
  API_KEY,
  fixture,
  NUMBERS,
  numbersOf,
  REGISTER_PATH,
  RETRACK_PATH,
  STOP_PATH,
  TRACK_PATH,
  type Trk17tServer,
  trk17tServer,
} from './trk17t-server.js';

/**
 * Through the HTTP API: an account whose only configuration is 17TRACK, as its fallback. Shipments with a Royal
 * Mail S10 number and an InPost number, given without carrier_reference, are tracked through it; the first poll
 * registers them, the next maps their events and names the courier in the details and on the tracking page; the
 * delivered parcel's tracking is stopped, and re-tracked once when the merchant follows it again (17TRACK allows
 * that once); a push signed by 17TRACK is applied, a forged one refused.
 */
describe('trk17t end to end: the fallback aggregator, registration once, the carrier of record, push', () => {
  let server: Trk17tServer;
  let t: TestApp;
  let acct: TestAccount;
  let pushToken: string;

  beforeAll(async () => {
    server = await trk17tServer();
    // The InPost parcel waits in its locker until a push says it was collected.
    server.parcels.set(NUMBERS.inpost, fixture<{ data: Record<string, unknown> }>('push-updated.json').data);
    t = await createTestApp({ env: { WAYBILL_CARRIER_TRK17T_BASE_URL: server.url.replace('127.0.0.1', 'localhost') } });
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
  /** The stops on record (numbers 17TRACK was told to stop following). */
  const stopsOnRecord = async () =>
    (await t.context.database.db.selectFrom('tracking_stops').select(['carrier_reference', 'tracking_key']).execute()).map(
      (row) => `${row.carrier_reference}:${row.tracking_key}`,
    );

  const api = (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.as(acct)(method, url, body, query);
  const details = async (shipmentId: string) =>
    (await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId })).json().data;
  const pollAgain = () =>
    t.context.database.db
      .updateTable('shipments')
      .set({ next_poll_at: new Date(t.clock.now().getTime() - 1_000).toISOString() })
      .where('shipment_id', 'like', 't17-%')
      .where('next_poll_at', 'is not', null)
      .execute();
  /** As 17TRACK posts: to the URL set in its dashboard (the push token in its query), the body signed with the key. */
  const push = (body: string, token: string, sign = signOf(body, API_KEY)) =>
    t.app.inject({
      method: 'POST',
      url: `/carrier-hooks/trk17t/?push_token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/json', sign },
      payload: body,
    });

  it('adds 17TRACK as the fallback and routes numbers no configuration claims to it', async () => {
    const created = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'agg',
      carrier_id: 'trk17t',
      fallback: true,
      settings: { api_key: API_KEY },
    });
    expect(created.statusCode, created.body).toBe(201);
    pushToken = created.json().push_token;
    expect(pushToken).toMatch(/^wbpush_/);
    expect(created.json().push_url).toBe('https://waybill.test/carrier-hooks/trk17t/');
    for (const [shipmentId, trackingNumber] of [
      ['t17-royal-mail', NUMBERS.delivered],
      ['t17-inpost', NUMBERS.inpost],
    ]) {
      const res = await api('POST', '/v5/shipment/', { shipment_id: shipmentId, tracking_number: trackingNumber });
      expect(res.statusCode, res.body).toBe(200);
      expect((await details(shipmentId)).carrier_reference).toBe('agg');
    }
    const listed = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(listed.body).not.toContain(API_KEY);
  });

  it('registers both numbers on the first poll, once, and maps them on the next', async () => {
    await t.context.worker.runOnce();
    expect([...server.registrations].sort()).toEqual([NUMBERS.delivered, NUMBERS.inpost].sort());
    expect(server.to(REGISTER_PATH)).toHaveLength(1);
    expect(server.requests.every((r) => r.headers['17token'] === API_KEY)).toBe(true);
    expect((await details('t17-royal-mail')).all_events).toEqual([]);

    await pollAgain();
    await t.context.worker.runOnce();
    expect(server.to(REGISTER_PATH)).toHaveLength(1);

    const royalMail = await details('t17-royal-mail');
    expect(royalMail.status).toBe('delivered');
    expect(royalMail.carrier_reference).toBe('agg');
    expect(royalMail.carrier).toMatchObject({ id: 'royalm', name: 'Royal Mail' });
    expect(royalMail.additional_info.courier_code).toBe('11031');
    expect(royalMail.all_events.map((e: { event_key: string }) => e.event_key)).toEqual([
      'delivered',
      'out_for_delivery',
      'in_transit',
      'picked_up',
      'info_received',
    ]);
    expect(royalMail.all_events[0]).toMatchObject({
      event: 'Delivered',
      time: '2026-11-20T11:42:00+00:00',
      timezone: 'Europe/London',
      location: { place: 'Guildford, GB' },
      additional_info: { carrier_code: 'Delivered_Other', carrier_description: 'Delivered' },
    });

    const inpost = await details('t17-inpost');
    expect(inpost.carrier.name).toBe('InPost');
    expect(inpost.additional_info.courier_code).toBe('100043');
    expect(inpost.current_phase.key).toBe('available_for_pickup');
    expect(inpost.all_events[0]).toMatchObject({
      event_key: 'available_for_pickup',
      time: '2026-11-21T08:40:00+01:00',
      location: { place: 'Kraków, PL', postal_code: '30-001', country_code: 'PL' },
      additional_info: { carrier_description: 'Ready for collection in parcel locker KRA01M' },
    });

    // Polled again: read, never registered again.
    await pollAgain();
    await t.context.worker.runOnce();
    expect(server.to(REGISTER_PATH)).toHaveLength(1);
    expect(server.registrations).toHaveLength(2);
    expect(server.to(TRACK_PATH).length).toBeGreaterThanOrEqual(3);
  });

  it('names the courier on the tracking page', async () => {
    for (const [shipmentId, name] of [
      ['t17-royal-mail', 'Royal Mail'],
      ['t17-inpost', 'InPost'],
    ]) {
      const reference = (await details(shipmentId)).tracking_page_reference;
      const page = await t.app.inject({ method: 'GET', url: `/t/${reference}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(name);
    }
  });

  it('stops tracking the delivered parcel at 17TRACK', async () => {
    // The stop waits out the poll lease, so that a poll of the number still asking the aggregator cannot follow it.
    await t.context.worker.runOnce();
    expect(await stopJobs()).toBe(1);
    t.clock.advance(t.config.pollLeaseMs);
    await t.context.worker.runOnce();
    const stops = server.to(STOP_PATH);
    expect(stops.map(numbersOf)).toEqual([[NUMBERS.delivered]]);
    expect(stops[0].headers['17token']).toBe(API_KEY);
    expect(server.stopped).toEqual(new Set([NUMBERS.delivered]));
    expect(await stopsOnRecord()).toEqual([`agg:${NUMBERS.delivered}`]);
  });

  it('re-tracks the stopped number once when the merchant asks for an update, and not on later polls', async () => {
    const trigger = await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: 't17-royal-mail' });
    expect(trigger.statusCode, trigger.body).toBe(200);
    await t.context.worker.runOnce();
    expect(server.to(RETRACK_PATH).map(numbersOf)).toEqual([[NUMBERS.delivered]]);
    expect(server.retracked).toEqual([NUMBERS.delivered]);
    expect(server.stopped.has(NUMBERS.delivered)).toBe(false);
    expect(await stopsOnRecord()).toEqual([]);
    // Re-tracked before it was asked: the answer is 17TRACK's tracking again, not a stopped number's.
    const retracked = server.to(RETRACK_PATH)[0];
    const asked = server
      .to(TRACK_PATH)
      .filter((r) => numbersOf(r).includes(NUMBERS.delivered))
      .at(-1);
    expect(asked && server.requests.indexOf(asked)).toBeGreaterThan(server.requests.indexOf(retracked));
    expect((await details('t17-royal-mail')).status).toBe('delivered');

    await pollAgain();
    await t.context.worker.runOnce();
    expect(server.to(RETRACK_PATH)).toHaveLength(1);
    expect(server.to(REGISTER_PATH)).toHaveLength(1);

    // Delivered still: its tracking ends again and is stopped again.
    t.clock.advance(t.config.pollLeaseMs);
    await t.context.worker.runOnce();
    expect(server.to(STOP_PATH).map(numbersOf)).toEqual([[NUMBERS.delivered], [NUMBERS.delivered]]);
    expect(await stopsOnRecord()).toEqual([`agg:${NUMBERS.delivered}`]);

    // 17TRACK re-tracks a number once in its life: asked a second time it refuses, which ends the trying.
    expect((await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: 't17-royal-mail' })).statusCode).toBe(200);
    await t.context.worker.runOnce();
    expect(server.to(RETRACK_PATH)).toHaveLength(2);
    expect(server.stopped.has(NUMBERS.delivered)).toBe(true);
    expect(await stopsOnRecord()).toEqual([]);
    await pollAgain();
    await t.context.worker.runOnce();
    expect(server.to(RETRACK_PATH)).toHaveLength(2);
    expect((await details('t17-royal-mail')).status).toBe('delivered');
  });

  it('applies a push signed by 17TRACK to the push URL with the push token; a forged body or token is refused', async () => {
    const body = JSON.stringify({ event: 'TRACKING_UPDATED', data: entryOf('inpost-locker.json') });
    expect((await push(body, 'wbpush_forged')).statusCode).toBe(403);
    // Signed for another body.
    const forged = body.replace('Kraków', 'Krakow');
    expect((await push(forged, pushToken, signOf(body, API_KEY))).statusCode).toBe(403);
    expect((await push(body, pushToken, signOf(body, 'not-the-key'))).statusCode).toBe(403);
    expect((await push(body, pushToken, '')).statusCode).toBe(403);
    expect((await push(JSON.stringify({ data: {} }), pushToken)).statusCode).toBe(400);
    const stopped = JSON.stringify(fixture('push-stopped.json'));
    expect((await push(stopped, pushToken)).json().data).toEqual({ updates: 0, queued: true });
    const res = await push(body, pushToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ updates: 1, queued: true });
    await t.context.worker.runOnce();
    const inpost = await details('t17-inpost');
    expect(inpost.status).toBe('delivered');
    expect(inpost.all_events[0]).toMatchObject({ event_key: 'collected_by_recipient', time: '2026-11-21T18:05:00+01:00' });
    expect(inpost.carrier.name).toBe('InPost');
  });
});

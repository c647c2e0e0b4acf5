import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarrierServer } from '../support/carrier-server.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { fixtureRoute, idsOf, SETTINGS, TRACK_PATH } from './auspos.fixtures.js';

interface ShownEvent {
  event: string;
  event_key: string | null;
  phase_key: string | null;
  time: string;
  timezone: string | null;
  location: { place: string; location_type: string | null; state_or_province: string | null; country_code: string | null } | null;
  additional_info: Record<string, unknown>;
}

/** Through the HTTP API: an Australia Post configuration, shipments with synthetic eParcel ids, one poll against a local Australia Post. */
describe('auspos end to end: configuration, shipments, one poll, v5.2 details', () => {
  let e2e: EndToEnd<CarrierServer>;
  beforeAll(async () => {
    e2e = await startEndToEnd(
      'auspos',
      async () => (await new CarrierServer().start()).on('GET', TRACK_PATH, fixtureRoute('delivered', 'parcel-locker', 'collected')),
      { configurations: { ap: { ...SETTINGS, environment: 'sandbox' } }, byHostName: true },
    );
  });
  afterAll(() => e2e?.close());

  it('maps a delivered parcel, one waiting in a Parcel Locker, one collected from a Post Office and an unknown one, in one call', async () => {
    const { server, create, poll, details } = e2e;
    const shipments = [
      ['ap-delivered', 'WBX9000001010020'],
      ['ap-locker', 'WBX9000002010020'],
      ['ap-collected', 'WBX9000003010020'],
      ['ap-unknown', 'WBX9000099010020'],
    ];
    for (const [shipmentId, trackingNumber] of shipments) await create(shipmentId, trackingNumber);
    await poll();

    expect(server.to(TRACK_PATH)).toHaveLength(1);
    const [request] = server.to(TRACK_PATH);
    expect(idsOf(request).sort()).toEqual(shipments.map(([, n]) => n).sort());
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${SETTINGS.api_key}:${SETTINGS.password}`).toString('base64')}`);
    expect(request.headers['account-number']).toBe(SETTINGS.account_number);

    const delivered = await details('ap-delivered');
    expect(delivered.status).toBe('delivered');
    expect(delivered.current_phase).toEqual({ key: 'delivered', name: 'Delivered' });
    expect(delivered.carrier).toMatchObject({ id: 'auspos', name: 'Australia Post' });
    expect(delivered.expected_delivery).toEqual({ from: null, to: null });
    expect(delivered.pod_url).toBeNull();
    const events = delivered.all_events as ShownEvent[];
    expect(events.map((e) => e.event_key)).toEqual(['delivered', 'out_for_delivery', 'in_transit', null, 'info_received']);
    expect(events[0]).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      time: '2026-11-18T14:43:09+11:00',
      timezone: 'Australia/Sydney',
      location: { place: 'Billabong Creek, AU', state_or_province: 'NSW', country_code: 'AU' },
      additional_info: { carrier_code: 'Delivered', carrier_description: 'Delivered' },
    });
    expect(events[3]).toMatchObject({ event: 'Received by Australia Post', event_key: null, phase_key: null });

    const locker = await details('ap-locker');
    expect(locker.status).toBe('active');
    expect(locker.current_phase).toEqual({ key: 'available_for_pickup', name: 'Available for pickup' });
    expect((locker.all_events as ShownEvent[])[0]).toMatchObject({
      event: 'Available for pickup',
      event_key: 'available_for_pickup',
      location: { place: 'Parcel Locker 104123 Koala Heights, AU', location_type: 'pickup_point' },
      additional_info: { carrier_code: 'Item ready for collection' },
    });

    const collected = await details('ap-collected');
    expect(collected.status).toBe('delivered');
    expect((collected.all_events as ShownEvent[]).slice(0, 2).map((e) => e.event_key)).toEqual([
      'collected_by_recipient',
      'available_for_pickup',
    ]);

    const unknown = await details('ap-unknown');
    expect(unknown.status).toBe('pending');
    expect(unknown.all_events).toEqual([]);
    for (const data of [delivered, locker, collected, unknown]) {
      expect(JSON.stringify(data)).not.toContain(SETTINGS.password);
      expect(JSON.stringify(data)).not.toContain(SETTINGS.api_key);
    }
  });

  it('polls again later and stores no event twice', async () => {
    const { t, server, poll, details } = e2e;
    const before = (await details('ap-delivered')).all_events.length;
    const beforeLocker = (await details('ap-locker')).all_events.length;
    t.clock.advance(2 * 60 * 60_000);
    await poll();
    expect(server.to(TRACK_PATH).length).toBeGreaterThanOrEqual(2);
    expect((await details('ap-delivered')).all_events).toHaveLength(before);
    expect((await details('ap-locker')).all_events).toHaveLength(beforeLocker);
  });

  it('stores the key and password masked and never shows them', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(SETTINGS.password);
    expect(res.body).not.toContain(SETTINGS.api_key);
    expect(res.json()[0].settings).toMatchObject({
      api_key: '********',
      password: '********',
      account_number: SETTINGS.account_number,
      environment: 'sandbox',
    });
  });

  it('refuses a configuration without the password with 4030 on settings.password, and a malformed account number', async () => {
    const { t, acct } = e2e;
    const { password: _password, ...withoutPassword } = SETTINGS;
    const res = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'ap-incomplete',
      carrier_id: 'auspos',
      settings: withoutPassword,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors.settings.password).toEqual([expect.stringMatching(/Required/)]);
    const malformed = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'ap-malformed',
      carrier_id: 'auspos',
      settings: { ...SETTINGS, account_number: '98765' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors.settings.account_number).toHaveLength(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierServer } from '../support/carrier-server.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { glsServer, SETTINGS, TOKEN_PATH, TRACK_PATH } from './gls-server.js';

/** Through the HTTP API: a GLS configuration, shipments with synthetic GLS numbers, one poll against a local GLS. */
describe('glsglb end to end: configuration, shipments, one poll, v5.2 details', () => {
  let e2e: EndToEnd<CarrierServer>;
  beforeAll(async () => {
    e2e = await startEndToEnd('glsglb', glsServer, { configurations: { gls: { ...SETTINGS, environment: 'sandbox' } } });
  });
  afterAll(() => e2e?.close());

  it('maps a delivered parcel, one in transit, a ParcelShop after a failed attempt and an unknown one, in one GLS call', async () => {
    const { server, create, poll, details } = e2e;
    const shipments = [
      ['gls-delivered', '531000000060'],
      ['gls-transit', '531000000039'],
      ['gls-shop', '531000000084'],
      ['gls-unknown', '531000000305'],
    ];
    for (const [shipmentId, trackingNumber] of shipments) await create(shipmentId, trackingNumber);
    await poll();

    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    expect(server.to(TRACK_PATH)).toHaveLength(1);

    const delivered = await details('gls-delivered');
    expect(delivered.status).toBe('delivered');
    expect(delivered.current_phase).toEqual({ key: 'delivered', name: 'Delivered' });
    expect(delivered.carrier).toMatchObject({ id: 'glsglb', name: 'GLS' });
    expect(delivered.expected_delivery).toEqual({ from: null, to: null });
    expect(delivered.all_events.map((e: { event_key: string }) => e.event_key)).toEqual(['delivered', 'out_for_delivery', 'picked_up']);
    expect(delivered.all_events[0]).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      time: '2026-06-11T13:41:00+02:00',
      timezone: 'Europe/Berlin',
      carrier_name: 'GLS',
      location: { place: 'Lindenau, DE', postal_code: '99001', country_code: 'DE' },
      additional_info: { carrier_code: 'DELIVD.NORMAL', carrier_description: 'Parcel delivered.', gls_status: 'DELIVERED' },
    });

    const transit = await details('gls-transit');
    expect(transit.status).toBe('active');
    expect(transit.current_phase.key).toBe('in_transit');
    expect(transit.all_events.map((e: { event_key: string }) => e.event_key)).toEqual([
      'arrived_at_facility',
      'departed_facility',
      'picked_up',
      'info_received',
    ]);

    const shop = await details('gls-shop');
    expect(shop.status).toBe('active');
    expect(shop.current_phase.key).toBe('available_for_pickup');
    expect(shop.all_events[0]).toMatchObject({ event_key: 'available_for_pickup', additional_info: { carrier_code: 'DELIVD.PARCELSHOP' } });

    const unknown = await details('gls-unknown');
    expect(unknown.status).toBe('pending');
    expect(unknown.all_events).toEqual([]);
  });

  it('polls again later with the same token and stores no event twice', async () => {
    const { t, server, poll, details } = e2e;
    const before = (await details('gls-transit')).all_events.length;
    t.clock.advance(2 * 60 * 60_000);
    await poll();
    expect(server.to(TRACK_PATH).length).toBeGreaterThanOrEqual(2);
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    expect((await details('gls-transit')).all_events).toHaveLength(before);
  });

  it('stores the secret masked and never shows it', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(SETTINGS.client_secret);
    expect(res.json()[0].settings).toMatchObject({ client_id: SETTINGS.client_id, client_secret: '********', environment: 'sandbox' });
  });

  it('refuses a configuration without the client secret with 4030 on settings.client_secret', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'gls-incomplete',
      carrier_id: 'glsglb',
      settings: { client_id: SETTINGS.client_id },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors.settings.client_secret).toEqual([expect.stringMatching(/Required/)]);
  });
});

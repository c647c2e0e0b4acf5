import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierServer } from '../support/carrier-server.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { API_TOKEN, inpostServer, SETTINGS, TRACKING_PATH, UNKNOWN } from './inpost-server.js';

/** Through the HTTP API: an InPost configuration without a token, synthetic 24-digit numbers, one poll against a local ShipX. */
describe('inpost end to end: configuration, shipments, one poll, v5.2 details', () => {
  let e2e: EndToEnd<CarrierServer>;
  beforeAll(async () => {
    e2e = await startEndToEnd('inpost', inpostServer, { configurations: { inp: SETTINGS }, byHostName: true });
  });
  afterAll(() => e2e?.close());

  it('maps a parcel collected from its locker, one waiting in a locker and an unknown one, one call per number', async () => {
    const { server, create, poll, details } = e2e;
    const shipments = [
      ['inp-collected', '620000000000000000000001'],
      ['inp-waiting', '620000000000000000000003'],
      ['inp-unknown', UNKNOWN],
    ];
    for (const [shipmentId, trackingNumber] of shipments) await create(shipmentId, trackingNumber);
    await poll();

    expect(server.to(TRACKING_PATH)).toHaveLength(3);
    expect(server.to(TRACKING_PATH).every((r) => r.headers.authorization === undefined)).toBe(true);

    const collected = await details('inp-collected');
    expect(collected.status).toBe('delivered');
    expect(collected.current_phase).toEqual({ key: 'delivered', name: 'Delivered' });
    expect(collected.carrier).toMatchObject({ id: 'inpost', name: 'InPost' });
    expect(collected.expected_delivery).toEqual({ from: null, to: null });
    expect(collected.pod_url).toBeNull();
    expect(collected.all_events).toHaveLength(13);
    expect(collected.all_events.slice(0, 3).map((e: { event_key: string }) => e.event_key)).toEqual([
      'collected_by_recipient',
      'available_for_pickup',
      'available_for_pickup',
    ]);
    expect(collected.all_events[0]).toMatchObject({
      event: 'Collected by the recipient',
      phase_key: 'delivered',
      timezone: 'Europe/Warsaw',
      carrier_name: 'InPost',
      location: { place: 'Kraków, PL', line1: 'KRA99X', line2: 'ul. Testowa 1', postal_code: '30-001', country_code: 'PL' },
      additional_info: { carrier_code: 'delivered', carrier_description: 'delivered', target_machine_id: 'KRA99X' },
    });
    expect(collected.all_events[0].time).toMatch(/^2025-11-19T17:41:09/);

    const waiting = await details('inp-waiting');
    expect(waiting.status).toBe('active');
    expect(waiting.current_phase).toEqual({ key: 'available_for_pickup', name: 'Available for pickup' });
    expect(waiting.all_events[0]).toMatchObject({
      event_key: 'available_for_pickup',
      location: {
        place: 'Gdańsk, PL',
        full: 'GDA97Z, ul. Wymyślona 3, 80-003 Gdańsk, Poland',
        location_type: 'pickup_point',
        latitude: '54.35202',
        longitude: '18.64631',
      },
    });

    const unknown = await details('inp-unknown');
    expect(unknown.status).toBe('pending');
    expect(unknown.all_events).toEqual([]);
  });

  it('tracks a number typed with spaces: asked without them, answered to the shipment as typed', async () => {
    const { server, create, poll, details } = e2e;
    const typed = '6200 0000 0000 0000 0000 0004';
    await create('inp-spaced', typed);
    const before = server.to(TRACKING_PATH).length;
    await poll();
    const asked = server.to(TRACKING_PATH).slice(before);
    expect(asked.map((r) => r.path)).toEqual(['/v1/tracking/620000000000000000000004']);
    const spaced = await details('inp-spaced');
    expect(spaced.tracking_number).toBe(typed);
    expect(spaced.carrier).toMatchObject({ id: 'inpost', name: 'InPost' });
    expect(spaced.all_events.length).toBeGreaterThan(0);
    expect(spaced.all_events[0].additional_info.carrier_code).toEqual(expect.any(String));
  });

  it('stores a ShipX token masked and never shows it', async () => {
    const { t, acct } = e2e;
    const created = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'inp-token',
      carrier_id: 'inpost',
      settings: { api_token: API_TOKEN, environment: 'sandbox' },
    });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const res = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(API_TOKEN);
    const config = res.json().find((c: { carrier_reference: string }) => c.carrier_reference === 'inp-token');
    expect(config.settings).toMatchObject({ api_token: '********', environment: 'sandbox' });
  });

  it('refuses a setting InPost does not have with 4030 on it', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'inp-wrong',
      carrier_id: 'inpost',
      settings: { api_key: 'abc', environment: 'sandbox' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors.settings.api_key).toEqual([expect.stringMatching(/Unknown setting/)]);
  });
});

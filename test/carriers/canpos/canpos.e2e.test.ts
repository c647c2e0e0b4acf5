import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierServer } from '../support/carrier-server.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { BASIC, CERTIFICATE_PATH, canposServer, DETAIL_PATH, PASSWORD, SETTINGS, UNKNOWN_PIN, USERNAME } from './canpos-server.js';

/** Through the HTTP API: a Canada Post configuration, shipments with synthetic PINs, one poll against a local Canada Post. */
describe('canpos end to end: configuration, shipments, one poll, v5.2 details', () => {
  let e2e: EndToEnd<CarrierServer>;
  beforeAll(async () => {
    e2e = await startEndToEnd('canpos', canposServer, { configurations: { cpc: SETTINGS }, byHostName: true });
  });
  afterAll(() => e2e?.close());

  it('maps a delivered parcel, one waiting at a post office and an unknown one, one call per PIN', async () => {
    const { t, server, create, poll, details } = e2e;
    const shipments = [
      ['cpc-delivered', '7023000000000017'],
      ['cpc-pickup', '7023000000000048'],
      ['cpc-unknown', UNKNOWN_PIN],
    ];
    for (const [shipmentId, trackingNumber] of shipments) await create(shipmentId, trackingNumber);
    await poll();

    expect(server.to(DETAIL_PATH)).toHaveLength(3);
    expect(server.to(DETAIL_PATH).every((r) => r.headers.authorization === BASIC)).toBe(true);

    const delivered = await details('cpc-delivered');
    expect(delivered.status).toBe('delivered');
    expect(delivered.current_phase).toEqual({ key: 'delivered', name: 'Delivered' });
    expect(delivered.carrier).toMatchObject({ id: 'canpos', name: 'Canada Post' });
    expect(delivered.expected_delivery).toEqual({ from: '2026-02-04', to: '2026-02-04' });
    expect(delivered.all_events.map((e: { event_key: string }) => e.event_key)).toEqual([
      'delivered',
      'delivered',
      'out_for_delivery',
      'in_transit',
      'in_transit',
      'picked_up',
      'info_received',
    ]);
    const deliveryScan = delivered.all_events.find(
      (e: { additional_info: { carrier_code: string } }) => e.additional_info.carrier_code === '1496',
    );
    expect(deliveryScan).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      carrier_name: 'Canada Post',
      location: { place: 'Ottawa, CA' },
      additional_info: { carrier_code: '1496', carrier_description: 'Item successfully delivered', event_time_zone: 'EST' },
    });
    expect(deliveryScan.time).toMatch(/^2026-02-04T11:02:10/);
    // The delivery confirmation certificate was fetched once and is served as the proof of delivery.
    expect(server.to(CERTIFICATE_PATH)).toHaveLength(1);
    expect(delivered.pod_url).toEqual(expect.stringContaining('/files/pod/'));
    const pod = await t.app.inject({ method: 'GET', url: delivered.pod_url.replace(/^https:\/\/waybill\.test/, '') });
    expect(pod.statusCode).toBe(200);
    expect(pod.headers['content-type']).toContain('application/pdf');
    expect(pod.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const pickup = await details('cpc-pickup');
    expect(pickup.status).toBe('active');
    expect(pickup.current_phase).toEqual({ key: 'available_for_pickup', name: 'Available for pickup' });
    expect(pickup.all_events[0]).toMatchObject({
      event_key: 'available_for_pickup',
      location: { place: 'Halifax, CA', line1: 'SAMPLE STREET POST OFFICE', location_type: 'post_office' },
      additional_info: { carrier_code: '1701', retail_location_id: '0000123' },
    });
    expect(pickup.pod_url).toBeNull();

    const unknown = await details('cpc-unknown');
    expect(unknown.status).toBe('pending');
    expect(unknown.all_events).toEqual([]);
  });

  it('stores the key masked and never shows it', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(USERNAME);
    expect(res.body).not.toContain(PASSWORD);
    expect(res.json()[0].settings).toMatchObject({ username: '********', password: '********', environment: 'sandbox' });
  });

  it('refuses a configuration without the password with 4030 on settings.password', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'cpc-incomplete',
      carrier_id: 'canpos',
      settings: { username: USERNAME, environment: 'sandbox' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors.settings.password).toEqual([expect.stringMatching(/Required/)]);
  });
});

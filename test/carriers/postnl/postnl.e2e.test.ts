import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierServer } from '../support/carrier-server.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { API_KEY, postnlServer, SETTINGS, SIGNATURE_PATH, STATUS_PATH } from './postnl-server.js';

/** Through the HTTP API: a PostNL configuration, shipments with synthetic 3S barcodes, one poll against a local PostNL. */
describe('postnl end to end: configuration, shipments, one poll, v5.2 details', () => {
  let e2e: EndToEnd<CarrierServer>;
  beforeAll(async () => {
    e2e = await startEndToEnd('postnl', postnlServer, { configurations: { pnl: SETTINGS } });
  });
  afterAll(() => e2e?.close());

  it('maps a delivered parcel, one out for delivery and an unknown one, one call per barcode', async () => {
    const { t, server, create, poll, details } = e2e;
    const shipments = [
      ['pnl-delivered', '3SDEVC410000005'],
      ['pnl-window', '3SDEVC410000003'],
      ['pnl-unknown', '3SDEVC419999999'],
    ];
    for (const [shipmentId, trackingNumber] of shipments) await create(shipmentId, trackingNumber);
    await poll();

    expect(server.to(STATUS_PATH)).toHaveLength(3);
    expect(server.to(STATUS_PATH).every((r) => r.headers.apikey === API_KEY)).toBe(true);

    const delivered = await details('pnl-delivered');
    expect(delivered.status).toBe('delivered');
    expect(delivered.current_phase).toEqual({ key: 'delivered', name: 'Delivered' });
    expect(delivered.carrier).toMatchObject({ id: 'postnl', name: 'PostNL' });
    expect(delivered.expected_delivery).toEqual({ from: '2025-11-19', to: '2025-11-19' });
    expect(delivered.all_events.map((e: { event_key: string }) => e.event_key)).toEqual([
      'delivered_to_neighbour',
      'out_for_delivery',
      'in_transit',
      'picked_up',
      'info_received',
    ]);
    expect(delivered.all_events[0]).toMatchObject({
      event: 'Delivered to a neighbour',
      phase_key: 'delivered',
      timezone: 'Europe/Amsterdam',
      carrier_name: 'PostNL',
      location: { place: '230114' },
      additional_info: { carrier_code: 'I10', carrier_description: 'Delivered at the neighbours', location_code: '230114' },
    });
    expect(delivered.all_events[0].time).toMatch(/^2025-11-19T11:47:26/);
    // The signature was fetched once and is served as the proof of delivery.
    expect(server.to(SIGNATURE_PATH)).toHaveLength(1);
    expect(delivered.pod_url).toEqual(expect.stringContaining('/files/pod/'));
    const pod = await t.app.inject({ method: 'GET', url: delivered.pod_url.replace(/^https:\/\/waybill\.test/, '') });
    expect(pod.statusCode).toBe(200);
    expect(pod.headers['content-type']).toContain('image/png');
    expect(pod.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');

    const window = await details('pnl-window');
    expect(window.status).toBe('active');
    expect(window.current_phase.key).toBe('failed_attempt');
    expect(window.expected_delivery).toEqual({ from: '2025-11-19T14:15:00+01:00', to: '2025-11-19T16:45:00+01:00' });
    expect(window.all_events.map((e: { event_key: string }) => e.event_key)).toEqual(['delivery_attempt_failed', 'out_for_delivery']);
    expect(window.pod_url).toBeNull();

    const unknown = await details('pnl-unknown');
    expect(unknown.status).toBe('pending');
    expect(unknown.all_events).toEqual([]);
  });

  it('stores the key masked and never shows it', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(API_KEY);
    expect(res.json()[0].settings).toMatchObject({ api_key: '********', environment: 'sandbox' });
  });

  it('refuses a configuration without the API key with 4030 on settings.api_key', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'pnl-incomplete',
      carrier_id: 'postnl',
      settings: { environment: 'sandbox' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors.settings.api_key).toEqual([expect.stringMatching(/Required/)]);
  });
});

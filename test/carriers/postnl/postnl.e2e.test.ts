import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { API_KEY, postnlServer, SETTINGS, SIGNATURE_PATH, STATUS_PATH } from './postnl-server.js';

/** Through the HTTP API: a PostNL configuration, shipments with synthetic 3S barcodes, one poll against a local PostNL. */
describe('postnl end to end: configuration, shipments, one poll, v5.2 details', () => {
  let server: CarrierServer;
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    server = await postnlServer();
    t = await createTestApp({ env: { WAYBILL_CARRIER_POSTNL_BASE_URL: server.url } });
    acct = await t.account({ carriers: [{ carrier_reference: 'pnl', carrier_id: 'postnl', settings: SETTINGS }] });
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const api = (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.as(acct)(method, url, body, query);
  const details = async (shipmentId: string) =>
    (await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId })).json().data;

  it('maps a delivered parcel, one out for delivery and an unknown one, one call per barcode', async () => {
    const shipments = [
      ['pnl-delivered', '3SDEVC410000005'],
      ['pnl-window', '3SDEVC410000003'],
      ['pnl-unknown', '3SDEVC419999999'],
    ];
    for (const [shipmentId, trackingNumber] of shipments) {
      const res = await api('POST', '/v5/shipment/', {
        shipment_id: shipmentId,
        tracking_number: trackingNumber,
        carrier_reference: 'pnl',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await t.context.worker.runOnce();

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
    const res = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(API_KEY);
    expect(res.json()[0].settings).toMatchObject({ api_key: '********', environment: 'sandbox' });
  });

  it('refuses a configuration without the API key with 4030 on settings.api_key', async () => {
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

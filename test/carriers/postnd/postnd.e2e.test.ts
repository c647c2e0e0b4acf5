import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierServer } from '../support/carrier-server.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { API_KEY, postndServer, SETTINGS, TRACKING_PATH, UNKNOWN } from './postnd-server.js';

interface ShownEvent {
  event: string;
  event_key: string | null;
  phase_key: string | null;
  time: string;
  timezone: string | null;
  location: Record<string, unknown> | null;
  additional_info: Record<string, unknown>;
}

/** Through the HTTP API: a PostNord configuration, shipments with synthetic identifiers, one poll against a local PostNord. */
describe('postnd end to end: configuration, shipments, one poll, v5.2 details', () => {
  let e2e: EndToEnd<CarrierServer>;
  beforeAll(async () => {
    e2e = await startEndToEnd('postnd', postndServer, { configurations: { pnd: SETTINGS }, byHostName: true });
  });
  afterAll(() => e2e?.close());

  it('maps a parcel collected at a service point, one in transit abroad and an unknown one, one call per identifier', async () => {
    const { server, create, poll, details } = e2e;
    const shipments = [
      ['pnd-collected', 'UA900000022SE'],
      ['pnd-travelling', 'RR900000019SE'],
      ['pnd-unknown', UNKNOWN],
    ];
    for (const [shipmentId, trackingNumber] of shipments) await create(shipmentId, trackingNumber);
    await poll();

    const calls = server.to(TRACKING_PATH);
    expect(calls).toHaveLength(3);
    expect(calls.every((r) => r.query.get('apikey') === API_KEY && r.query.get('locale') === 'en')).toBe(true);

    const collected = await details('pnd-collected');
    expect(collected.status).toBe('delivered');
    expect(collected.current_phase).toEqual({ key: 'delivered', name: 'Delivered' });
    expect(collected.carrier).toMatchObject({ id: 'postnd', name: 'PostNord' });
    expect(collected.expected_delivery).toEqual({ from: null, to: null });
    const events = collected.all_events as ShownEvent[];
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key])).toEqual([
      ['41', 'collected_by_recipient'],
      ['40', 'available_for_pickup'],
      ['31', 'in_transit'],
      ['8', 'info_received'],
    ]);
    expect(events[1]).toMatchObject({
      event: 'Available for pickup',
      phase_key: 'available_for_pickup',
      time: expect.stringMatching(/^2026-11-17T11:02:00/),
      timezone: 'Europe/Stockholm',
      location: { place: 'Göteborg, SE', line1: 'Grocery Storgatan', postal_code: '41101', location_type: 'SERVICE_POINT' },
      additional_info: {
        carrier_code: '40',
        carrier_description: 'The parcel can be collected at the service point.',
        status: 'AVAILABLE_FOR_DELIVERY',
        location_id: '7721',
      },
    });
    expect(collected.pod_url).toBeNull();

    const travelling = await details('pnd-travelling');
    expect(travelling.status).toBe('active');
    expect(travelling.current_phase.key).toBe('in_transit');
    expect(travelling.expected_delivery).toEqual({ from: '2026-11-20', to: '2026-11-20' });
    const abroad = (travelling.all_events as ShownEvent[])[0];
    expect(abroad).toMatchObject({ timezone: 'Europe/Helsinki', location: { place: 'Vantaa, FI', country_code: 'FI' } });
    expect(abroad.time).toMatch(/^2026-11-18T06:15:00/);

    const unknown = await details('pnd-unknown');
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

  it('refuses a configuration without the API key, or with a locale PostNord does not offer, with 4030', async () => {
    const { t, acct } = e2e;
    const missing = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'pnd-incomplete',
      carrier_id: 'postnd',
      settings: { environment: 'sandbox' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().api_response).toBe('4030');
    expect(missing.json().errors.settings.api_key).toEqual([expect.stringMatching(/Required/)]);
    const locale = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'pnd-german',
      carrier_id: 'postnd',
      settings: { api_key: API_KEY, locale: 'de' },
    });
    expect(locale.statusCode).toBe(400);
    expect(locale.json().errors.settings.locale).toBeDefined();
  });

  it('routes a shipment without carrier_reference by PostNord’s identifier shape', async () => {
    const { api, details } = e2e;
    const res = await api('POST', '/v5/shipment/', { shipment_id: 'pnd-detected', tracking_number: '90000000505SE' });
    expect(res.statusCode, res.body).toBe(200);
    const data = await details('pnd-detected');
    expect(data.carrier_reference).toBe('pnd');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierServer } from '../support/carrier-server.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { askedNumbers, SETTINGS, TOKEN_PATH, TRACK_PATH, uspsServer } from './usps-server.js';

/** Through the HTTP API: a USPS configuration, shipments with synthetic IMpb numbers, one poll against a local USPS. */
describe('uspsus end to end: configuration, shipments, one poll, v5.2 details', () => {
  let e2e: EndToEnd<CarrierServer>;
  beforeAll(async () => {
    e2e = await startEndToEnd('uspsus', uspsServer, { configurations: { usps: { ...SETTINGS, environment: 'sandbox' } } });
  });
  afterAll(() => e2e?.close());

  it('maps a delivered item, one out for delivery with its window, a returned one and an unknown one, in one USPS call', async () => {
    const { server, create, poll, details } = e2e;
    const shipments = [
      ['usps-delivered', '9400111899223851000014'],
      ['usps-ofd', '9400111899223851000076'],
      ['usps-return', '9400111899223851000038'],
      ['usps-unknown', '9300111899223851000138'],
    ];
    for (const [shipmentId, trackingNumber] of shipments) await create(shipmentId, trackingNumber);
    await poll();

    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    expect(server.to(TRACK_PATH)).toHaveLength(1);
    expect(askedNumbers(server.to(TRACK_PATH)[0]).sort()).toEqual(shipments.map(([, n]) => n).sort());

    const delivered = await details('usps-delivered');
    expect(delivered.status).toBe('delivered');
    expect(delivered.current_phase).toEqual({ key: 'delivered', name: 'Delivered' });
    expect(delivered.carrier).toMatchObject({ id: 'uspsus', name: 'USPS' });
    expect(delivered.expected_delivery).toEqual({ from: '2026-11-05', to: '2026-11-05' });
    // Newest first, by instant: USPS listed Sorting Complete (06:15) after Arrival at Unit (05:42).
    expect(delivered.all_events.map((e: { event_key: string }) => e.event_key)).toEqual([
      'delivered',
      'out_for_delivery',
      'in_transit',
      'arrived_at_facility',
      'departed_facility',
      'in_transit',
      'picked_up',
      'label_created',
    ]);
    expect(delivered.all_events[0]).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      time: '2026-11-05T13:05:00-05:00',
      timezone: 'America/New_York',
      carrier_name: 'USPS',
      location: { place: 'Riverton, NY, US', postal_code: '12901', country_code: 'US', state_or_province: 'NY' },
      additional_info: { carrier_code: '01', carrier_description: 'Delivered, Front Door/Porch' },
    });

    const ofd = await details('usps-ofd');
    expect(ofd.status).toBe('active');
    expect(ofd.current_phase.key).toBe('out_for_delivery');
    expect(ofd.expected_delivery).toEqual({ from: '2026-11-13T12:15:00', to: '2026-11-13T15:15:00' });

    const returned = await details('usps-return');
    expect(returned.status).toBe('return');
    expect(returned.current_phase.key).toBe('return_to_sender');
    expect(returned.all_events.map((e: { event_key: string }) => e.event_key)).toEqual([
      'returning_to_sender',
      'returning_to_sender',
      'address_issue',
      'refused_by_recipient',
    ]);

    const unknown = await details('usps-unknown');
    expect(unknown.status).toBe('pending');
    expect(unknown.all_events).toEqual([]);
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
      carrier_reference: 'usps-incomplete',
      carrier_id: 'uspsus',
      settings: { client_id: SETTINGS.client_id },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors.settings.client_secret).toEqual([expect.stringMatching(/Required/)]);
  });
});

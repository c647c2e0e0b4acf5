import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierServer } from '../support/carrier-server.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import {
  askedIn,
  CLIENT_ID,
  CLIENT_SECRET,
  EVENTS_PATH,
  royalmServer,
  SETTINGS,
  SIGNATURE_PATH,
  SUMMARY_PATH,
  UNKNOWN,
} from './royalm-server.js';

interface ShownEvent {
  event: string;
  event_key: string | null;
  phase_key: string | null;
  time: string;
  timezone: string | null;
  location: { place: string; location_type: string | null; country_code: string | null } | null;
  additional_info: Record<string, unknown>;
}

/** Through the HTTP API: a Royal Mail configuration, shipments with synthetic S10 numbers, one poll against a local Royal Mail. */
describe('royalm end to end: configuration, shipments, one poll, v5.2 details', () => {
  let e2e: EndToEnd<CarrierServer>;
  beforeAll(async () => {
    e2e = await startEndToEnd('royalm', royalmServer, { configurations: { rm: SETTINGS }, byHostName: true });
  });
  afterAll(() => e2e?.close());

  it('one summary for the batch, histories for the known items, the signature as proof of delivery', async () => {
    const { t, server, create, poll, details } = e2e;
    const shipments = [
      ['rm-signed', 'QA900000019GB'],
      ['rm-card', 'QA900000036GB'],
      ['rm-collect', 'QA900000040GB'],
      ['rm-unknown', UNKNOWN],
    ];
    for (const [shipmentId, trackingNumber] of shipments) await create(shipmentId, trackingNumber);
    await poll();

    expect(server.to(SUMMARY_PATH)).toHaveLength(1);
    expect(askedIn(server.to(SUMMARY_PATH)[0]).sort()).toEqual(shipments.map(([, n]) => n).sort());
    expect(server.to(EVENTS_PATH)).toHaveLength(3);
    for (const request of server.requests) {
      expect(request.headers['x-ibm-client-id']).toBe(CLIENT_ID);
      expect(request.headers['x-ibm-client-secret']).toBe(CLIENT_SECRET);
      expect(request.headers['x-accept-rmg-terms']).toBe('yes');
    }

    const signed = await details('rm-signed');
    expect(signed.status).toBe('delivered');
    expect(signed.current_phase).toEqual({ key: 'delivered', name: 'Delivered' });
    expect(signed.carrier).toMatchObject({ id: 'royalm', name: 'Royal Mail' });
    expect(signed.expected_delivery).toEqual({ from: '2026-11-18T09:00:00+00:00', to: '2026-11-18T13:00:00+00:00' });
    const signedEvents = signed.all_events as ShownEvent[];
    expect(signedEvents.map((e) => e.additional_info.carrier_code)).toEqual(['EVKSP', 'EVGPD', 'EVIMC', 'EVDAC', 'EVPPA', 'EVAIP']);
    expect(signedEvents[0]).toMatchObject({
      event: 'Delivered',
      event_key: 'delivered',
      time: '2026-11-18T11:42:10+00:00',
      timezone: 'Europe/London',
      location: { place: 'Sampleford DO', country_code: 'GB' },
      additional_info: { carrier_description: 'Delivered and signed for' },
    });
    expect(signedEvents[1]).toMatchObject({ event_key: 'out_for_delivery', phase_key: 'out_for_delivery' });
    // The signature, drawn from Royal Mail's SVG, was fetched once and is served as the proof of delivery.
    expect(server.to(SIGNATURE_PATH)).toHaveLength(1);
    expect(signed.pod_url).toEqual(expect.stringContaining('/files/pod/'));
    const pod = await t.app.inject({ method: 'GET', url: signed.pod_url.replace(/^https:\/\/waybill\.test/, '') });
    expect(pod.statusCode).toBe(200);
    expect(pod.headers['content-type']).toContain('image/png');
    expect(pod.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');

    const card = await details('rm-card');
    expect(card.status).toBe('active');
    expect(card.current_phase.key).toBe('available_for_pickup');
    expect(card.expected_delivery).toEqual({ from: '2026-07-16T10:30:00+01:00', to: '2026-07-16T14:30:00+01:00' });
    expect((card.all_events as ShownEvent[])[0]).toMatchObject({
      event: 'Available for pickup',
      event_key: 'available_for_pickup',
      location: { place: 'Sampleford DO', location_type: 'pickup_point' },
    });
    expect(card.pod_url).toBeNull();

    const collect = await details('rm-collect');
    expect(collect.status).toBe('delivered');
    expect((collect.all_events as ShownEvent[]).map((e) => [e.event_key, e.location?.place])).toEqual([
      ['collected_by_recipient', 'Sampleford Post Office'],
      ['available_for_pickup', 'Sampleford Post Office'],
      ['arrived_at_facility', 'Testbury MC'],
      ['picked_up', 'Testbury Post Office'],
    ]);

    const unknown = await details('rm-unknown');
    expect(unknown.status).toBe('pending');
    expect(unknown.all_events).toEqual([]);
    expect(JSON.stringify([signed, card, collect, unknown])).not.toContain(CLIENT_SECRET);
  });

  it('stores the secret masked and never shows it', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(CLIENT_SECRET);
    expect(res.json()[0].settings).toMatchObject({ client_id: CLIENT_ID, client_secret: '********' });
  });

  it('refuses a configuration without the client secret with 4030 on settings.client_secret', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'rm-incomplete',
      carrier_id: 'royalm',
      settings: { client_id: CLIENT_ID },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors.settings.client_secret).toEqual([expect.stringMatching(/Required/)]);
  });

  it('refuses a sandbox environment: Royal Mail has none', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'rm-sandbox',
      carrier_id: 'royalm',
      settings: { ...SETTINGS, environment: 'sandbox' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.settings.environment).toEqual([expect.stringMatching(/Unknown setting/)]);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { TrackingService } from '../../../src/domain/shipments/tracking.service.js';
import { TrackingFollowers } from '../../../src/domain/shipments/tracking-followers.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { NUMBERS, SETTINGS, TOKEN_PATH, TRACK_PATH, UpsServer } from './ups-server.js';

/** Through the HTTP API: a UPS configuration (CIE credentials), shipments with synthetic 1Z numbers, one poll against a local UPS. */
describe('upsglb end to end: configuration, shipments, one poll, v5.2 details', () => {
  let e2e: EndToEnd<UpsServer>;
  beforeAll(async () => {
    e2e = await startEndToEnd('upsglb', () => UpsServer.create(), { configurations: { ups: SETTINGS } });
  });
  afterAll(() => e2e?.close());
  const keys = (data: { all_events: Array<{ event_key: string | null }> }) => data.all_events.map((e) => e.event_key);

  it('maps a delivered parcel, one in transit, one at an Access Point, a return and an unknown number', async () => {
    const { t, server, create, poll, details } = e2e;
    const shipments = [
      ['ups-delivered', NUMBERS.delivered],
      ['ups-transit', NUMBERS.inTransit],
      ['ups-pickup', NUMBERS.attempts],
      ['ups-return', NUMBERS.returns],
      ['ups-unknown', NUMBERS.notFound],
    ];
    for (const [shipmentId, trackingNumber] of shipments) await create(shipmentId, trackingNumber);
    await poll();

    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    expect(server.to(TRACK_PATH)).toHaveLength(5);

    const delivered = await details('ups-delivered');
    expect(delivered.status).toBe('delivered');
    expect(delivered.current_phase).toEqual({ key: 'delivered', name: 'Delivered' });
    expect(delivered.carrier).toMatchObject({ id: 'upsglb', name: 'UPS' });
    expect(keys(delivered)).toEqual([
      'delivered',
      'out_for_delivery',
      'out_for_delivery',
      'arrived_at_facility',
      'in_transit',
      'picked_up',
      'label_created',
    ]);
    expect(delivered.all_events[0]).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      time: '2026-11-04T14:35:12-05:00',
      timezone: 'America/New_York',
      carrier_name: 'UPS',
      location: { place: 'Maple Ridge, OH, US', postal_code: '43001', country_code: 'US' },
      additional_info: { carrier_code: '011:KB', carrier_description: 'DELIVERED', status_type: 'D', slic: '4301' },
    });
    expect(delivered.all_events.at(-1).location).toMatchObject({ place: 'United States of America', city: null });
    expect(delivered.pod_url).toEqual(expect.stringContaining('/files/pod/'));
    // Who signed (UPS's receivedBy), where the interface keeps the parcel's recipient.
    expect(delivered.parcel_recipient_information).toBe('QUILLFEATHER');
    expect(delivered.expected_delivery).toEqual({ from: null, to: null });
    const pod = new URL(delivered.pod_url);
    const file = await t.app.inject({ method: 'GET', url: `${pod.pathname}${pod.search}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/gif');
    expect(file.rawPayload.subarray(0, 6).toString('latin1')).toBe('GIF89a');

    const transit = await details('ups-transit');
    expect(transit.status).toBe('active');
    expect(transit.current_phase.key).toBe('in_transit');
    expect(keys(transit)).toEqual([
      'in_transit',
      'customs_cleared',
      'customs_cleared',
      'in_customs',
      'in_customs',
      'in_transit',
      'picked_up',
      'label_created',
    ]);
    const pickup = transit.all_events.find((e: { event_key: string }) => e.event_key === 'picked_up');
    expect(pickup).toMatchObject({ time: '2026-11-09T10:15:00', timezone: 'Europe/Berlin', location: { place: 'Kleinfelden, DE' } });
    expect(transit.expected_delivery).toEqual({ from: '2026-11-13T09:00:00', to: '2026-11-13T13:00:00' });

    const atPoint = await details('ups-pickup');
    expect(atPoint.status).toBe('active');
    expect(atPoint.current_phase.key).toBe('available_for_pickup');
    expect(keys(atPoint).slice(0, 3)).toEqual(['available_for_pickup', 'available_for_pickup', 'delivery_attempt_failed']);
    expect(atPoint.expected_delivery).toEqual({ from: '2026-11-20', to: '2026-11-20T10:30:00' });

    const back = await details('ups-return');
    expect(back.status).toBe('return');
    expect(back.current_phase.key).toBe('return_to_sender');

    const unknown = await details('ups-unknown');
    expect(unknown.status).toBe('pending');
    expect(unknown.all_events).toEqual([]);
  });

  it('polls again later with the same token and stores no event twice', async () => {
    const { t, server, poll, details } = e2e;
    const before = (await details('ups-transit')).all_events.length;
    t.clock.advance(2 * 60 * 60_000);
    await poll();
    expect(server.to(TRACK_PATH).length).toBeGreaterThan(5);
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    expect((await details('ups-transit')).all_events).toHaveLength(before);
  });

  it('a poll whose UPS body is the one stored maps none of it: the number is answered unchanged', async () => {
    const { t, acct, poll, details } = e2e;
    const account = await t.context.repos.accounts.findByUuid(acct.accountUuid);
    const row = () => t.context.repos.shipments.findByShipmentId(account?.id ?? 0, 'ups-transit');
    const fingerprint = (await row())?.tracking_fingerprint;
    expect(fingerprint).toEqual(expect.stringMatching(/^upsglb\.\d+:/));
    const before = await details('ups-transit');
    const applied = vi.spyOn(TrackingService.prototype, 'applyBatch');
    try {
      // Past its next poll, which moved further out after the last one.
      t.clock.advance(6 * 60 * 60_000);
      await poll();
      const answers = applied.mock.calls.flatMap(([, results]) => results as TrackResult[]);
      expect(answers.find((r) => r.tracking_number === NUMBERS.inTransit)).toEqual({
        status: 'unchanged',
        tracking_number: NUMBERS.inTransit,
        fingerprint,
      });
    } finally {
      applied.mockRestore();
    }
    const after = await details('ups-transit');
    expect(after.all_events).toEqual(before.all_events);
    expect(after.status).toBe(before.status);
    expect((await row())?.tracking_fingerprint).toBe(fingerprint);
  });

  it('an unchanged answer after the tracking window has run out expires the shipment, and its followers get the whole row', async () => {
    const { t, poll, details } = e2e;
    const applied = vi.spyOn(TrackingService.prototype, 'applyBatch');
    const followed = vi.spyOn(TrackingFollowers.prototype, 'announce');
    try {
      // No carrier update for longer than the tracking window (30 days unless configured).
      t.clock.advance(31 * 24 * 60 * 60_000);
      await poll();
      const answers = applied.mock.calls.flatMap(([, results]) => results as TrackResult[]);
      expect(answers.find((r) => r.tracking_number === NUMBERS.inTransit)?.status).toBe('unchanged');
      const told = followed.mock.calls.find(([, before]) => before.shipment_id === 'ups-transit');
      expect(told?.[1]).toMatchObject({ status: 'active', tracking_number: NUMBERS.inTransit, body: expect.stringContaining('{') });
      expect(told?.[2]).toMatchObject({ status: 'expired', next_poll_at: null, shipment_uuid: told?.[1].shipment_uuid });
      // The whole body, with the prediction as written with the same row.
      const body = JSON.parse(told?.[2].body ?? '{}');
      expect(body.carrier_expected_delivery).toEqual(JSON.parse(told?.[1].body ?? '{}').carrier_expected_delivery);
      const account = await t.context.repos.accounts.findByUuid(e2e.acct.accountUuid);
      const row = await t.context.repos.shipments.findByShipmentId(account?.id ?? 0, 'ups-transit');
      expect(body.delivery_prediction).toEqual(JSON.parse(row?.body ?? '{}').delivery_prediction);
    } finally {
      applied.mockRestore();
      followed.mockRestore();
    }
    expect((await details('ups-transit')).status).toBe('expired');
  });

  it('refuses a 1Z number whose check digit is wrong', async () => {
    const { api } = e2e;
    const res = await api('POST', '/v5/shipment/', {
      shipment_id: 'ups-typo',
      tracking_number: '1ZWB4Y810300000009',
      carrier_reference: 'ups',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
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
      carrier_reference: 'ups-incomplete',
      carrier_id: 'upsglb',
      settings: { client_id: SETTINGS.client_id },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors.settings.client_secret).toEqual([expect.stringMatching(/Required/)]);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { TrackingService } from '../../../src/domain/shipments/tracking.service.js';
import { CarrierServer } from '../support/carrier-server.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { answerFor, CLIENT_ID, CLIENT_SECRET, fixture, numbersAsked, SETTINGS } from './fdxglb.fixtures.js';

const TRACK = '/track/v1/trackingnumbers';
const TOKEN = '/oauth/token';
const DOCUMENTS = '/track/v1/trackingdocuments';

/** What the local FedEx changes in its answers (a new scan, in a test that needs one). */
let amend = (answer: unknown) => answer;

/** The local FedEx: a token, the answers of the fixtures (amended) and the signature proof. */
async function localFedex(): Promise<CarrierServer> {
  return (await new CarrierServer().start())
    .on('POST', TOKEN, () => ({ body: fixture('token.json') }))
    .on('POST', TRACK, (request) => ({ body: amend(answerFor(request.body)) }))
    .on('POST', DOCUMENTS, () => ({ body: fixture('signature-proof.json') }));
}

/** Through the HTTP API: a FedEx configuration, shipments with synthetic 12-digit numbers, one poll against a local FedEx. */
describe('fdxglb end to end: configuration, shipments, one poll, v5.2 details', () => {
  let e2e: EndToEnd<CarrierServer>;
  beforeAll(async () => {
    e2e = await startEndToEnd('fdxglb', localFedex, { configurations: { fedex: SETTINGS } });
  });
  afterAll(() => e2e?.close());
  const accountRowId = async () => (await e2e.t.context.repos.accounts.findByUuid(e2e.acct.accountUuid))?.id ?? 0;
  const eventKeys = (data: { all_events: Array<{ event_key: string | null }> }) => data.all_events.map((event) => event.event_key);

  it('tracks a parcel in transit, a delivered one with its signature proof, a returned one and an unknown one in one FedEx call', async () => {
    const { server, create, poll, details } = e2e;
    const shipments = [
      ['fedex-transit', '799900000043'],
      ['fedex-delivered', '799900000021'],
      ['fedex-return', '799900000124'],
      ['fedex-unknown', '799900000227'],
    ];
    for (const [shipmentId, trackingNumber] of shipments) await create(shipmentId, trackingNumber);
    await poll();

    expect(server.to(TOKEN)).toHaveLength(1);
    expect(server.to(TRACK)).toHaveLength(1);
    expect(numbersAsked(server.to(TRACK)[0].body).sort()).toEqual(shipments.map(([, number]) => number).sort());

    const transit = await details('fedex-transit');
    expect(transit.status).toBe('active');
    expect(transit.current_phase).toEqual({ key: 'in_transit', name: 'In transit' });
    expect(transit.carrier).toMatchObject({ id: 'fdxglb', name: 'FedEx' });
    expect(transit.expected_delivery).toEqual({ from: '2026-11-26T09:00:00-05:00', to: '2026-11-26T13:00:00-05:00' });
    // Newest first by instant: the unmapped announcement (AE) on top, the DST change ordered by offset.
    expect(eventKeys(transit)).toEqual([
      null,
      'arrived_at_facility',
      'in_transit',
      'in_transit',
      'arrived_at_facility',
      'in_transit',
      'departed_facility',
      'departed_facility',
      'arrived_at_facility',
      'picked_up',
      'label_created',
    ]);
    expect(transit.all_events[0]).toMatchObject({ event: 'Shipment arriving early', carrier_name: 'FedEx' });
    expect(transit.all_events[1]).toMatchObject({
      event: 'Arrived at a carrier facility',
      phase_key: 'in_transit',
      time: '2026-11-02T04:05:00-05:00',
      timezone: 'America/New_York',
      location: { place: 'Millbrook, NY, US', postal_code: '12599', country_code: 'US', state_or_province: 'NY' },
      additional_info: { carrier_code: 'SF', carrier_description: 'At destination sort facility' },
    });

    const delivered = await details('fedex-delivered');
    expect(delivered.status).toBe('delivered');
    expect(delivered.current_phase).toEqual({ key: 'delivered', name: 'Delivered' });
    expect(eventKeys(delivered)[0]).toBe('delivered');
    expect(delivered.all_events[0]).toMatchObject({ time: '2026-11-19T13:41:00-05:00', location: { place: 'Pine Ridge, GA, US' } });
    expect(server.to(DOCUMENTS)).toHaveLength(1);
    expect(delivered.pod_url).toEqual(expect.stringContaining('/files/pod/'));

    const returned = await details('fedex-return');
    expect(returned.status).toBe('return');
    expect(returned.current_phase.key).toBe('return_to_sender');
    expect(eventKeys(returned)).toEqual(['returning_to_sender', 'refused_by_recipient', 'picked_up']);

    const unknown = await details('fedex-unknown');
    expect(unknown.status).toBe('pending');
    expect(unknown.all_events).toEqual([]);
  });

  it('a second poll within the token lifetime stores no event twice and asks for no new token', async () => {
    const { t, server, poll, details } = e2e;
    const before = (await details('fedex-transit')).all_events.length;
    t.clock.advance(40 * 60_000);
    await poll();
    expect(server.to(TRACK)).toHaveLength(2);
    expect((await details('fedex-transit')).all_events).toHaveLength(before);
    expect(server.to(TOKEN)).toHaveLength(1);
  });

  it('a poll whose FedEx data is as stored maps none of it; data that changed is mapped and stored', async () => {
    const { t, poll, details } = e2e;
    const applied = vi.spyOn(TrackingService.prototype, 'applyBatch');
    const answers = () => applied.mock.calls.flatMap(([, results]) => results as TrackResult[]);
    const row = async (shipmentId: string) => t.context.repos.shipments.findByShipmentId(await accountRowId(), shipmentId);
    try {
      const before = await details('fedex-transit');
      const fingerprint = (await row('fedex-transit'))?.tracking_fingerprint;
      expect(fingerprint).toEqual(expect.stringMatching(/^fdxglb\.\d+:/));
      // The delivered parcel's proof was downloaded with its answer: that answer was stored in full.
      expect((await row('fedex-delivered'))?.tracking_fingerprint).toEqual(expect.any(String));

      // Two earlier failures: an answer as stored counts them no more, and moves the next poll on.
      const transitRow = (await row('fedex-transit'))!;
      await t.context.repos.shipments.write(transitRow.id, { poll_failures: 2 });
      t.clock.advance(40 * 60_000);
      await poll();
      expect(answers().find((r) => r.tracking_number === '799900000043')).toEqual({
        status: 'unchanged',
        tracking_number: '799900000043',
        fingerprint,
      });
      const polled = await row('fedex-transit');
      expect(polled?.poll_failures).toBe(0);
      expect((polled?.next_poll_at ?? '') > t.clock.now().toISOString()).toBe(true);
      const after = await details('fedex-transit');
      expect(after.all_events).toEqual(before.all_events);
      expect(after.expected_delivery).toEqual(before.expected_delivery);
      expect((await row('fedex-transit'))?.tracking_fingerprint).toBe(fingerprint);

      // FedEx scans the parcel onto the delivery vehicle: the answer differs, so it is mapped and its new scan stored.
      applied.mockClear();
      amend = (answer) =>
        withScan(answer, '799900000043', {
          date: '2026-11-02T08:10:00-05:00',
          eventType: 'OD',
          eventDescription: 'On FedEx vehicle for delivery',
          scanLocation: { city: 'MILLBROOK', stateOrProvinceCode: 'NY', postalCode: '12599', countryCode: 'US' },
          derivedStatusCode: 'OD',
          derivedStatus: 'On FedEx vehicle for delivery',
        });
      t.clock.advance(40 * 60_000);
      await poll();
      const changed = answers().find((r) => r.tracking_number === '799900000043');
      expect(changed).toMatchObject({ status: 'ok', fingerprint: expect.any(String) });
      expect(changed?.status === 'ok' && changed.fingerprint).not.toBe(fingerprint);
      const moved = await details('fedex-transit');
      expect(moved.all_events).toHaveLength(before.all_events.length + 1);
      expect(moved.all_events[0]).toMatchObject({ time: '2026-11-02T08:10:00-05:00', additional_info: { carrier_code: 'OD' } });
      expect((await row('fedex-transit'))?.tracking_fingerprint).toBe(changed?.status === 'ok' ? changed.fingerprint : 'none');
    } finally {
      amend = (answer) => answer;
      applied.mockRestore();
    }
  });

  it('an answer whose proof of delivery could not be downloaded keeps no fingerprint: the next answer is mapped in full', async () => {
    const { t, server, create, poll } = e2e;
    await create('fedex-delivered-again', '799900000021');
    // Unavailable, and again when the transport retries it once.
    const unavailable = { status: 503, body: { errors: [{ code: 'SERVICE.UNAVAILABLE.ERROR', message: 'Try later' }] } };
    server.once(DOCUMENTS, unavailable).once(DOCUMENTS, unavailable);
    await poll();
    const row = await t.context.repos.shipments.findByShipmentId(await accountRowId(), 'fedex-delivered-again');
    expect(row?.status).toBe('delivered');
    expect(row?.pod_file).toBeNull();
    expect(row?.tracking_fingerprint).toBeNull();
  });

  it('stores the secret masked and never shows it', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(CLIENT_SECRET);
    expect(res.json()[0].settings).toMatchObject({ client_id: CLIENT_ID, client_secret: '********', environment: 'sandbox' });
  });

  it('refuses a configuration without the client secret with 4030 on settings.client_secret', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'fedex-incomplete',
      carrier_id: 'fdxglb',
      settings: { client_id: CLIENT_ID },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors.settings.client_secret).toEqual([expect.stringMatching(/Required/)]);
  });
});

/** A FedEx answer with one more scan (newest first, as FedEx lists them) for `number`'s piece. */
function withScan(answer: unknown, number: string, scan: Record<string, unknown>): unknown {
  const copy = structuredClone(answer) as {
    output: { completeTrackResults: Array<{ trackingNumber: string; trackResults: Array<{ scanEvents: unknown[] }> }> };
  };
  const entry = copy.output.completeTrackResults.find((e) => e.trackingNumber === number);
  entry?.trackResults[0].scanEvents.unshift(scan);
  return copy;
}

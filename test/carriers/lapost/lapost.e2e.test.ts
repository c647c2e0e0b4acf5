import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../helpers/app.js';
import { CarrierServer } from '../support/carrier-server.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { fixtureRoute, TEST_KEY, TRACKING_PATH } from './lapost.fixtures.js';

interface ShownEvent {
  event: string;
  event_key: string | null;
  phase_key: string | null;
  time: string;
  timezone: string | null;
  location: { place: string; country_code: string | null } | null;
  additional_info: Record<string, unknown>;
}

/** A local La Poste answering these fixtures, by number. */
async function localLaPoste(...fixtures: string[]): Promise<CarrierServer> {
  return (await new CarrierServer().start()).on('GET', TRACKING_PATH, fixtureRoute(...fixtures));
}

describe('La Poste through the HTTP API (poll, store, show)', () => {
  let e2e: EndToEnd<CarrierServer>;
  let n = 0;
  beforeAll(async () => {
    const fixtures = ['in-transit-international', 'delivered', 'pickup-point', 'returned', 'not-found'];
    e2e = await startEndToEnd('lapost', () => localLaPoste(...fixtures), { configurations: { lp: { api_key: TEST_KEY } } });
  });
  afterAll(() => e2e.close());

  /** A shipment of the next id with this number. */
  const track = (trackingNumber: string) => e2e.create(`lp-${++n}`, trackingNumber);

  it('an international Colissimo in transit: events newest first, status active, phase in transit, the delivery window', async () => {
    const { server, poll, details } = e2e;
    const id = await track('CB900001014FR');
    await poll();
    const data = await details(id);
    expect(data.status).toBe('active');
    expect(data.current_phase.key).toBe('in_transit');
    expect(data.expected_delivery).toEqual({ from: '2026-11-21T09:00:00+01:00', to: '2026-11-21T13:00:00+01:00' });
    const events = data.all_events as ShownEvent[];
    expect(events.map((e) => e.additional_info.carrier_code)).toEqual(['EP1', 'ET3', 'ZZ9', 'DO2', 'DO1', 'ET4', 'ET2', 'PC2', 'DR1']);
    expect(events[0]).toMatchObject({ event: 'In transit', event_key: 'in_transit', time: '2026-11-20T08:10:00+01:00' });
    expect(events[1]).toMatchObject({
      time: '2026-11-19T21:40:00',
      timezone: 'Europe/Berlin',
      location: { place: 'Germany', country_code: 'DE' },
    });
    expect(events[2]).toMatchObject({ event: 'A note about your item.', event_key: null });
    const request = server.requests.find((r) => r.path.endsWith('CB900001014FR'));
    expect(request?.headers['x-okapi-key']).toBe(TEST_KEY);
    expect(JSON.stringify(data)).not.toContain(TEST_KEY);
  });

  it('a delivered Colissimo: status delivered, phase delivered, no estimate once La Poste marks it final', async () => {
    const { poll, details } = e2e;
    const id = await track('6A90000000101');
    await poll();
    const data = await details(id);
    expect(data.status).toBe('delivered');
    expect(data.current_phase.key).toBe('delivered');
    expect(data.expected_delivery).toEqual({ from: null, to: null });
    expect((data.all_events as ShownEvent[]).map((e) => e.event_key)).toEqual([
      'delivered',
      'out_for_delivery',
      'in_transit',
      'in_transit',
      'picked_up',
      'info_received',
    ]);
  });

  it('a parcel collected at its pickup point, and a Chronopost returned to its sender', async () => {
    const { poll, details } = e2e;
    const collected = await track('6C90000000303');
    const returned = await track('XY900003032FR');
    await poll();
    const pickup = await details(collected);
    expect(pickup.status).toBe('delivered');
    expect(pickup.all_events[0]).toMatchObject({ event_key: 'collected_by_recipient', additional_info: { carrier_code: 'DI1' } });
    expect(pickup.all_events[1]).toMatchObject({
      event_key: 'available_for_pickup',
      additional_info: { removal_point_name: 'Relais Les Tilleuls' },
    });
    const back = await details(returned);
    expect(back.status).toBe('return');
    expect(back.current_phase.key).toBe('return_to_sender');
  });

  it('a number La Poste does not know yet stays pending without events', async () => {
    const { poll, details } = e2e;
    const id = await track('CA900006060FR');
    await poll();
    const data = await details(id);
    expect(data.status).toBe('pending');
    expect(data.all_events).toEqual([]);
  });

  it('polling again stores no event twice', async () => {
    const { t, poll, details } = e2e;
    const id = await track('LA900002023FR');
    const before = (await details('lp-1')).all_events.length;
    for (let i = 0; i < 3; i++) {
      t.clock.advance(60 * 60_000);
      await poll();
    }
    expect((await details('lp-1')).all_events.length).toBe(before);
    expect((await details(id)).status).toBe('pending');
  });

  it('an api_key that is blank or not a string is refused with 4030 on settings.api_key', async () => {
    const { t, acct } = e2e;
    const url = `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`;
    for (const api_key of ['', ' spaced ', 42]) {
      const res = await t.admin('POST', url, { carrier_reference: 'lp-bad', carrier_id: 'lapost', settings: { api_key } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ api_response: '4030', errors: { settings: { api_key: [expect.any(String)] } } });
    }
    const language = await t.admin('POST', url, { carrier_reference: 'lp-bad', carrier_id: 'lapost', settings: { language: 'fr' } });
    expect(language.json()).toMatchObject({
      api_response: '4030',
      errors: { settings: { language: [expect.stringMatching(/allowed values/)] } },
    });
  });

  // api_key is required, but an operator key counts: without either, the configuration is refused.
  it('without its own key and without an operator key: refused with 4030 naming settings.api_key', async () => {
    const { t, acct } = e2e;
    const refusedConfig = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'lp-nokey',
      carrier_id: 'lapost',
      settings: {},
    });
    expect(refusedConfig.statusCode).toBe(400);
    expect(refusedConfig.json()).toMatchObject({
      api_response: '4030',
      errors: { settings: { api_key: [expect.stringMatching(/^Required/)] } },
    });
  });
});

describe('La Poste with the operator’s key (WAYBILL_CARRIER_LAPOST_API_KEY)', () => {
  it('a configuration without api_key tracks with the operator’s key', async () => {
    const operatorKey = 'lp-operator-key-0a1b2c3d4e';
    const server = await localLaPoste('delivered');
    const t = await createTestApp({ env: { WAYBILL_CARRIER_LAPOST_BASE_URL: server.url, WAYBILL_CARRIER_LAPOST_API_KEY: operatorKey } });
    try {
      const acct = await t.account({ carriers: [{ carrier_reference: 'lp', carrier_id: 'lapost' }] });
      const res = await t.as(acct)('POST', '/v5/shipment/', {
        shipment_id: 'op-1',
        tracking_number: '6A90000000101',
        carrier_reference: 'lp',
      });
      expect(res.statusCode, res.body).toBe(200);
      await t.context.worker.runOnce();
      const data = (await t.as(acct)('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'op-1' })).json().data;
      expect(data.status).toBe('delivered');
      expect(server.requests[0].headers['x-okapi-key']).toBe(operatorKey);
      expect(JSON.stringify(data)).not.toContain(operatorKey);
    } finally {
      await t.close();
      await server.close();
    }
  });
});

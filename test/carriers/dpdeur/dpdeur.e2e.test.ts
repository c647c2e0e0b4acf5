import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { DELIS_ID, type DpdServer, dpdServer, elementOf, LOGIN_PATH, PASSWORD, SETTINGS, TRACKING_PATH, UNKNOWN } from './dpdeur-server.js';

/** Through the HTTP API: a DPD configuration, shipments with synthetic parcel numbers, one poll against a local DPD. */
describe('dpdeur end to end: configuration, shipments, one poll, v5.2 details', () => {
  let e2e: EndToEnd<DpdServer>;
  beforeAll(async () => {
    e2e = await startEndToEnd('dpdeur', dpdServer, {
      configurations: { 'dpd-de': SETTINGS, 'dpd-nl': { ...SETTINGS, instance: 'nl' } },
      byHostName: true,
    });
  });
  afterAll(() => e2e?.close());

  it('maps a delivered parcel, one in transit with its Predict window, one collected at a Pickup shop and an unknown one', async () => {
    const { server, create, poll, details } = e2e;
    const shipments = [
      ['dpd-delivered', '09980000000011', 'dpd-de'],
      ['dpd-window', '0998 0000 0000 12 F', 'dpd-de'],
      ['dpd-shop', '05210000000022', 'dpd-nl'],
      ['dpd-unknown', UNKNOWN, 'dpd-de'],
    ];
    for (const [shipmentId, trackingNumber, reference] of shipments) await create(shipmentId, trackingNumber, reference);
    await poll();

    // One login per company's account, then one call per parcel number with its token.
    expect(
      server
        .to(LOGIN_PATH)
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/PublicAPI/soap/services/LoginService/V2_1', '/services/LoginService/V2_0/']);
    expect(server.to(LOGIN_PATH).every((r) => elementOf(r, 'delisId') === DELIS_ID)).toBe(true);
    const asked = server.to(TRACKING_PATH);
    expect(asked.map((r) => elementOf(r, 'parcelLabelNumber')).sort()).toEqual(
      ['09980000000011', '09980000000012', '05210000000022', UNKNOWN].sort(),
    );
    expect(asked.every((r) => server.tokens.has(elementOf(r, 'authToken') ?? ''))).toBe(true);

    const delivered = await details('dpd-delivered');
    expect(delivered.status).toBe('delivered');
    expect(delivered.current_phase).toEqual({ key: 'delivered', name: 'Delivered' });
    expect(delivered.carrier).toMatchObject({ id: 'dpdeur', name: 'DPD' });
    expect(delivered.all_events.map((e: { event_key: string }) => e.event_key)).toEqual([
      'delivered',
      'out_for_delivery',
      'in_transit',
      'in_transit',
      'picked_up',
    ]);
    expect(delivered.all_events[0]).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      timezone: 'Europe/Berlin',
      carrier_name: 'DPD',
      location: { place: 'Beispielburg, DE', city: 'Beispielburg', country_code: 'DE' },
      additional_info: { carrier_code: 'DELIVERED', carrier_description: 'Delivered: The parcel was delivered.' },
    });
    expect(delivered.all_events[0].time).toMatch(/^2026-11-18T11:02:00/);
    expect(delivered.pod_url).toBeNull();

    const window = await details('dpd-window');
    expect(window.status).toBe('active');
    expect(window.current_phase.key).toBe('in_transit');
    expect(window.expected_delivery).toEqual({ from: '2026-11-19T10:15:00+01:00', to: '2026-11-19T11:15:00+01:00' });

    const shop = await details('dpd-shop');
    expect(shop.status).toBe('delivered');
    expect(shop.all_events.map((e: { event_key: string }) => e.event_key)).toEqual([
      'collected_by_recipient',
      'available_for_pickup',
      'delivery_attempt_failed',
      'delivery_attempt_failed',
      'out_for_delivery',
      'arrived_at_facility',
      'picked_up',
    ]);
    expect(shop.all_events[1]).toMatchObject({
      event: 'Available for pickup',
      timezone: 'Europe/Amsterdam',
      location: { place: 'Kiosk De Hoek, Zandstad', location_type: 'pickup_point', country_code: 'NL' },
    });

    const unknown = await details('dpd-unknown');
    expect(unknown.status).toBe('pending');
    expect(unknown.all_events).toEqual([]);
  });

  it('stores the password masked and never shows it', async () => {
    const { t, acct } = e2e;
    const res = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(PASSWORD);
    const configs = res.json() as Array<{ carrier_reference: string; settings: Record<string, unknown> }>;
    expect(configs.find((c) => c.carrier_reference === 'dpd-nl')?.settings).toMatchObject({
      delis_id: DELIS_ID,
      password: '********',
      instance: 'nl',
      environment: 'sandbox',
    });
  });

  it('refuses a configuration without the password, or for a company it does not know, with 4030 on the setting', async () => {
    const { t, acct } = e2e;
    const missing = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'dpd-incomplete',
      carrier_id: 'dpdeur',
      settings: { delis_id: DELIS_ID },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().api_response).toBe('4030');
    expect(missing.json().errors.settings.password).toEqual([expect.stringMatching(/Required/)]);
    const unknown = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'dpd-uk',
      carrier_id: 'dpdeur',
      settings: { delis_id: DELIS_ID, password: PASSWORD, instance: 'uk' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.settings.instance).toBeDefined();
  });
});

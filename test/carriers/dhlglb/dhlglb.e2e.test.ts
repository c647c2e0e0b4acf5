import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { CarrierServer, type ReceivedRequest, type ScriptedReply } from '../support/carrier-server.js';
import { type EndToEnd, startEndToEnd } from '../support/e2e.js';
import { DHL_NUMBERS, dhlFixture } from './dhlglb.fixtures.js';

const PATH = '/track/shipments';
const KEY = 'e2e-dhl-key-7b1f0d';

interface ShownEvent {
  event: string;
  event_key: string | null;
  phase_key: string | null;
  time: string;
  timezone: string | null;
  location: { place: string; country_code: string | null; city: string | null } | null;
  additional_info: Record<string, unknown>;
}

/** The local DHL: fixtures by number, the delivered one with its proof on this server, 404 otherwise. */
function dhl(server: CarrierServer) {
  const answers: Record<string, () => unknown> = {
    [DHL_NUMBERS.transit]: () => dhlFixture('transit'),
    [DHL_NUMBERS.failure]: () => dhlFixture('failure'),
    [DHL_NUMBERS.returned]: () => dhlFixture('return'),
    [DHL_NUMBERS.delivered]: () => {
      const body = dhlFixture('delivered') as { shipments: Array<{ details: { proofOfDelivery: { documentUrl: string } } }> };
      body.shipments[0].details.proofOfDelivery.documentUrl = `${server.url}/pod/340528176905?token=e2e`;
      return body;
    },
  };
  return (request: ReceivedRequest): ScriptedReply => {
    const answer = answers[request.query.get('trackingNumber') ?? ''];
    return answer
      ? { status: 200, body: answer() }
      : { status: 404, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify(dhlFixture('not-found')) };
  };
}

/** A local DHL answering the fixtures by number. */
async function localDhl(): Promise<CarrierServer> {
  const server = await new CarrierServer().start();
  return server.on('GET', PATH, dhl(server));
}

/**
 * Runs the poller until a round finds nothing to do. DHL allows one call a second per key, so a round claims
 * for the key no more numbers than it can send in the round (one or two); the limits count on the service's
 * clock, which is manual here: it is moved on while the poller runs, as time would pass.
 */
async function poll(t: TestApp): Promise<void> {
  const ticking = setInterval(() => t.clock.advance(1_000), 5);
  try {
    for (let round = 0; round < 10 && (await t.context.worker.runOnce()) > 0; round++);
  } finally {
    clearInterval(ticking);
  }
}

describe('DHL (dhlglb) through the HTTP API: poll, store, show', () => {
  let e2e: EndToEnd<CarrierServer>;
  let n = 0;
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n% synthetic proof\n'), Buffer.alloc(32, 0x20)]);
  beforeAll(async () => {
    const proof = () => ({ status: 200, headers: { 'content-type': 'application/pdf' }, body: pdf });
    e2e = await startEndToEnd('dhlglb', async () => (await localDhl()).on('GET', '/pod/340528176905', proof), {
      configurations: { dhl: { api_key: KEY, language: 'en' } },
    });
  });
  afterAll(() => e2e.close());

  /** A shipment of the next id with this number. */
  const track = (trackingNumber: string) => e2e.create(`dhl-${++n}`, trackingNumber);

  it('an Express parcel in transit: events newest first, status active, phase in transit, the delivery window', async () => {
    const { t, server, details } = e2e;
    const id = await track(DHL_NUMBERS.transit);
    await poll(t);
    const data = await details(id);
    expect(data.status).toBe('active');
    expect(data.current_phase.key).toBe('in_transit');
    expect(data.expected_delivery).toEqual({ from: '2026-11-26T09:00:00+01:00', to: '2026-11-26T13:00:00+01:00' });
    const events = data.all_events as ShownEvent[];
    expect(events.map((e) => e.event_key)).toEqual(['in_transit', 'in_transit', 'in_transit', 'in_transit', 'info_received']);
    expect(events[0]).toMatchObject({
      event: 'In transit',
      time: '2026-11-25T06:12:00',
      timezone: 'Europe/Amsterdam',
      location: { place: 'Zwolleburg - Netherlands, NL', country_code: 'NL' },
      additional_info: { carrier_code: 'transit:ARRIVED AT DELIVERY FACILITY', carrier_description: expect.stringMatching(/^Arrived/) },
    });
    expect(events[4]).toMatchObject({ event: 'Shipment information received', time: '2026-11-24T09:30:00', location: null });
    const request = server.to(PATH).find((r) => r.query.get('trackingNumber') === DHL_NUMBERS.transit);
    expect(request?.headers['dhl-api-key']).toBe(KEY);
    expect(request?.query.get('language')).toBe('en');
    expect(JSON.stringify(data)).not.toContain(KEY);
  });

  it('a Paket delivered to a Packstation: status delivered, its proof of delivery kept and served', async () => {
    const { t, server, details } = e2e;
    const id = await track(DHL_NUMBERS.delivered);
    await poll(t);
    const data = await details(id);
    expect(data.status).toBe('delivered');
    expect(data.current_phase.key).toBe('delivered');
    const events = data.all_events as ShownEvent[];
    expect(events[0]).toMatchObject({ event_key: 'delivered', time: '2026-11-20T14:03:00+01:00', location: { place: 'Musterstadt, DE' } });
    expect(events.map((e) => e.event_key)).toEqual(['delivered', 'in_transit', 'in_transit', 'info_received']);
    expect(server.to('/pod/340528176905')).toHaveLength(1);
    expect(data.pod_url).toEqual(expect.stringContaining(`/files/pod/`));
    const file = await t.app.inject({ method: 'GET', url: new URL(data.pod_url).pathname + new URL(data.pod_url).search });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(pdf)).toBe(true);
  });

  it("a failed delivery attempt: phase exception with DHL's words; a returned parcel: status return", async () => {
    const { t, details } = e2e;
    const failed = await track(DHL_NUMBERS.failure);
    const returned = await track(DHL_NUMBERS.returned);
    await poll(t);
    const attempt = await details(failed);
    expect(attempt.status).toBe('active');
    expect(attempt.current_phase.key).toBe('exception');
    expect(attempt.all_events[0]).toMatchObject({
      event: 'Delivery attempted; recipient not home',
      event_key: null,
      timezone: 'Europe/London',
      location: { place: 'Kingsbrook, GB' },
    });
    const back = await details(returned);
    expect(back.status).toBe('return');
    expect(back.current_phase.key).toBe('return_to_sender');
    expect(back.all_events[0]).toMatchObject({ event_key: 'returned_to_sender' });
  });

  it('a number DHL does not know stays pending without events', async () => {
    const { t, details } = e2e;
    const id = await track('1234567891');
    await poll(t);
    const data = await details(id);
    expect(data.status).toBe('pending');
    expect(data.all_events).toEqual([]);
  });

  it('polling again stores no event twice', async () => {
    const { t, server, details } = e2e;
    const before = (await details('dhl-1')).all_events.length;
    for (let i = 0; i < 3; i++) {
      t.clock.advance(3 * 60 * 60_000);
      await poll(t);
    }
    expect((await details('dhl-1')).all_events.length).toBe(before);
    expect(server.to(PATH).filter((r) => r.query.get('trackingNumber') === DHL_NUMBERS.transit).length).toBeGreaterThan(1);
  });

  it('malformed settings are refused with 4030 on settings.<field>', async () => {
    const { t, acct } = e2e;
    const url = `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`;
    const refused = async (settings: Record<string, unknown>, field: string) => {
      const res = await t.admin('POST', url, { carrier_reference: 'dhl-bad', carrier_id: 'dhlglb', settings });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ api_response: '4030', errors: { settings: { [field]: [expect.any(String)] } } });
    };
    for (const api_key of ['', ' padded ', 42]) await refused({ api_key }, 'api_key');
    await refused({ api_key: KEY, service: 'parcel-xx' }, 'service');
    const service = await t.admin('POST', url, { carrier_reference: 'dhl-bad', carrier_id: 'dhlglb', settings: { service: 'parcel-xx' } });
    expect(service.json().errors.settings.service).toEqual([expect.stringMatching(/allowed values/)]);
    await refused({ api_key: KEY, language: 'english' }, 'language');
    await refused({ api_key: KEY, account_number: '123' }, 'account_number');
  });

  // api_key is required, but an operator key counts: without either, the configuration is refused.
  it('without its own key and without an operator key: refused with 4030 naming settings.api_key', async () => {
    const { t, acct } = e2e;
    const refusedConfig = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'dhl-nokey',
      carrier_id: 'dhlglb',
      settings: { service: 'express' },
    });
    expect(refusedConfig.statusCode).toBe(400);
    expect(refusedConfig.json()).toMatchObject({
      api_response: '4030',
      errors: { settings: { api_key: [expect.stringMatching(/^Required/)] } },
    });
  });
});

describe('DHL with the operator key (WAYBILL_CARRIER_DHLGLB_API_KEY)', () => {
  it('a configuration without api_key tracks with the operator key', async () => {
    const operatorKey = 'dhl-operator-key-3e9a51';
    const { t, server, create, details, close } = await startEndToEnd('dhlglb', localDhl, {
      configurations: { dhl: { service: 'express' } },
      env: { WAYBILL_CARRIER_DHLGLB_API_KEY: operatorKey },
    });
    try {
      await create('op-1', DHL_NUMBERS.transit);
      await poll(t);
      const data = await details('op-1');
      expect(data.status).toBe('active');
      expect(server.requests[0].headers['dhl-api-key']).toBe(operatorKey);
      expect(server.requests[0].query.get('service')).toBe('express');
      expect(JSON.stringify(data)).not.toContain(operatorKey);
    } finally {
      await close();
    }
  });
});

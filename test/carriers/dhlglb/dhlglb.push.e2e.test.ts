import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import { CarrierServer } from '../support/carrier-server.js';
import { DHL_NUMBERS, dhlFixture } from './dhlglb.fixtures.js';
import { SUBSCRIBE_PATH, subscribedIn, subscriptionRoute } from './dhlglb.push-server.js';

const KEY = 'e2e-dhl-push-key-4d2a9b';
const DAY_MS = 86_400_000;

/** Runs the worker once while the manual clock moves on, as DHL's one call a second per key needs. */
async function run(t: TestApp): Promise<void> {
  const ticking = setInterval(() => t.clock.advance(1_000), 5);
  try {
    await t.context.worker.runOnce();
  } finally {
    clearInterval(ticking);
  }
}

/**
 * Through the HTTP API: a DHL configuration gets a push token; the worker subscribes its shipments with the
 * push URL and a hook token; DHL pushes shipments with that token as a bearer header; a wrong token is 403.
 */
describe('dhlglb push end to end: subscriptions with a hook token, pushed shipments', () => {
  let server: CarrierServer;
  let t: TestApp;
  let acct: TestAccount;
  const faults: string[] = [];
  const numbers = Array.from({ length: 12 }, (_, i) => `${7000000000 + i}`);

  beforeAll(async () => {
    server = await new CarrierServer().start();
    subscriptionRoute(server, KEY, faults);
    // Polls find nothing: only subscriptions and pushes are at work.
    server.on('GET', '/track/shipments', () => ({
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
      body: JSON.stringify(dhlFixture('not-found')),
    }));
    t = await createTestApp({ env: { WAYBILL_CARRIER_DHLGLB_BASE_URL: server.url } });
    acct = await t.account();
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const api = (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.as(acct)(method, url, body, query);
  const details = async (shipmentId: string) =>
    (await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId })).json().data;
  const row = (shipmentId: string) =>
    t.context.database.db.selectFrom('shipments').selectAll().where('shipment_id', '=', shipmentId).executeTakeFirstOrThrow();
  const push = (body: unknown, authorization: string) =>
    t.app.inject({ method: 'POST', url: '/carrier-hooks/dhlglb/', headers: { authorization }, payload: body as object });

  it('subscribes tracked shipments in calls of at most 10 numbers with the push URL and a hook token', async () => {
    const created = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'dhl',
      carrier_id: 'dhlglb',
      settings: { api_key: KEY, service: 'express' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const pushToken = created.json().push_token as string;
    expect(pushToken).toMatch(/^wbpush_/);
    expect(created.json().push_url).toBe('https://waybill.test/carrier-hooks/dhlglb/');

    const res = await api('POST', '/v5/shipment/', {
      shipment_id: 'dhl-push-transit',
      tracking_number: DHL_NUMBERS.transit,
      carrier_reference: 'dhl',
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const [i, number] of numbers.entries()) {
      const bulk = await api('POST', '/v5/shipment/', {
        shipment_id: `dhl-push-bulk-${i}`,
        tracking_number: number,
        carrier_reference: 'dhl',
      });
      expect(bulk.statusCode, bulk.body).toBe(200);
    }
    await t.context.database.db
      .updateTable('shipments')
      .set({ next_poll_at: new Date(t.clock.now().getTime() + 40 * DAY_MS).toISOString() })
      .where('shipment_id', 'like', 'dhl-push-%')
      .execute();

    await run(t);

    expect(faults).toEqual([]);
    const calls = server.to(SUBSCRIBE_PATH);
    expect(calls.map((c) => subscribedIn(c).length).sort((a, b) => b - a)).toEqual([10, 3]);
    expect(calls.flatMap(subscribedIn).sort()).toEqual([DHL_NUMBERS.transit, ...numbers].sort());
    const hooks = new Set(calls.map((c) => JSON.stringify(JSON.parse(c.body).hook)));
    expect(hooks.size).toBe(1);
    const hook = JSON.parse(calls[0].body).hook;
    expect(hook.uri).toBe('https://waybill.test/carrier-hooks/dhlglb/');
    expect(hook.authentication).toMatchObject({ type: 'ApiKeyAuthentication', header: 'Authorization' });
    expect(hook.authentication.token).toMatch(/^Bearer wbhook_[0-9a-f]{64}\.[A-Za-z0-9_-]{43}$/);
    // The push token itself never leaves Waybill.
    expect(calls.map((c) => c.body).join()).not.toContain(pushToken);
    for (const call of calls) expect(call.headers['dhl-api-key']).toBe(KEY);
    const until = new Date(t.clock.now().getTime()).getTime();
    const subscribed = (await row('dhl-push-transit')).push_subscribed_until as string;
    expect(Date.parse(subscribed) - until).toBeGreaterThan(29 * DAY_MS);
  });

  it('acknowledges a push with the hook token and applies it after the worker ran; a wrong token is 403', async () => {
    const authorization = JSON.parse(server.to(SUBSCRIBE_PATH)[0].body).hook.authentication.token as string;
    const body = { scope: 'subscription.push', shipments: (dhlFixture('transit') as { shipments: unknown[] }).shipments };
    expect((await push(body, 'Bearer wbpush_wrong')).statusCode).toBe(403);
    const forged = authorization.replace(/\.[A-Za-z0-9_-]{43}$/, `.${'A'.repeat(43)}`);
    expect((await push(body, forged)).statusCode).toBe(403);
    const res = await push(body, authorization);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ updates: 1, queued: true });
    await t.context.worker.runOnce();
    const data = await details('dhl-push-transit');
    expect(data.status).toBe('active');
    expect(data.current_phase.key).toBe('in_transit');
    expect(data.all_events.length).toBe(5);
    expect(data.all_events[0]).toMatchObject({ event_key: 'in_transit', time: '2026-11-25T06:12:00' });
  });

  it('a new push token retires the old hook token', async () => {
    const authorization = JSON.parse(server.to(SUBSCRIBE_PATH)[0].body).hook.authentication.token as string;
    const { account_id } = await row('dhl-push-transit');
    await t.context.carrierPush.issueToken(account_id, 'dhl', 'dhlglb');
    expect((await push({ scope: 'subscription.push', shipments: [] }, authorization)).statusCode).toBe(403);
  });
});

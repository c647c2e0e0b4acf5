import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarrierRegistry } from '../../src/carriers/registry.js';
import { TrackingPoller } from '../../src/jobs/tracking-poller.js';
import { TEST_LIMITS, TestCarrier } from '../carriers/sdk/test-carrier.js';
import { CarrierServer } from '../carriers/support/carrier-server.js';
import { localToolkit } from '../carriers/support/kit.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testCarrierShipments } from './test-carrier-shipments.js';

const HOUR = 3_600_000;

/**
 * A credential allowed one call an hour of three numbers: the poller claims for it what that allows in a
 * round and leaves the rest due, instead of claiming what it cannot serve and handing it back.
 */
describe('the poller claims for a credential what its limits let it serve in a round', () => {
  let t: TestApp;
  let server: CarrierServer;
  let poller: TrackingPoller;
  const ids: number[] = [];

  beforeAll(async () => {
    server = await new CarrierServer().start();
    server.on('POST', '/oauth/token', () => ({ body: { access_token: 'tok', expires_in: 3600 } }));
    server.on('GET', /^\/track\//, (r) => ({
      body: {
        results: decodeURIComponent(r.path.slice(7))
          .split(',')
          .map((number) => ({ number, found: true, events: [{ code: 'TRN', at: '2026-11-01T09:00:00Z' }] })),
      },
    }));
    t = await createTestApp();
    const carrier = new TestCarrier(
      localToolkit('tstcar', server.url, {}, () => t.clock.now().getTime()),
      {
        ...TEST_LIMITS,
        numbers_per_call: 3,
        requests_per_second: 1 / 3600,
      },
    );
    // A wait for the credential's turn gives up at once; the walk over configurations runs once, then only while none is behind.
    poller = new TrackingPoller(
      t.context.repos,
      new CarrierRegistry([carrier]),
      t.context.carrierConfigs,
      t.context.tracking,
      t.clock,
      t.context.log,
      {
        limitWaitMs: 50,
        sweepMs: 10 * HOUR,
      },
    );
    ids.push(...(await testCarrierShipments(t, { reference: 'hourly', clientId: 'h', shipmentPrefix: 'h', numberPrefix: 'TSH' })).ids);
    const now = t.clock.now().getTime();
    for (const [i, id] of ids.entries()) {
      await t.context.database.db
        .updateTable('shipments')
        .set({ next_poll_at: new Date(now - 60_000 + i * 1000).toISOString() })
        .where('id', '=', id)
        .execute();
    }
  });
  afterAll(async () => {
    await t.close();
    await server.close();
  });

  const tracked = () => server.to(/^\/track\//).map((r) => decodeURIComponent(r.path.slice(7)));
  const rows = () => t.context.database.db.selectFrom('shipments').selectAll().where('id', 'in', ids).orderBy('id').execute();

  it('claims only what the credential can send in the round, and leaves the rest due, untouched', async () => {
    const before = await rows();
    expect(await poller.runOnce()).toBe(3);
    expect(tracked()).toEqual(['TSH0,TSH1,TSH2']);
    const after = await rows();
    expect(after.slice(0, 3).every((r) => r.last_tracking_update_at !== null)).toBe(true);
    for (const [i, r] of after.slice(3).entries()) {
      expect(r.poll_failures).toBe(0);
      expect(r.next_poll_at).toBe(before[i + 3].next_poll_at);
      expect(Date.parse(r.next_poll_at as string)).toBeLessThanOrEqual(t.clock.now().getTime());
    }
  });

  it('behind, it claims only what the next call takes, when the credential can make it, and leaves the rest due', async () => {
    // Of the seven left due in the first round.
    const due = async () => (await rows()).slice(3).filter((r) => Date.parse(r.next_poll_at as string) <= t.clock.now().getTime()).length;
    // The credential's next call is an hour away: nothing is claimed, nothing is asked.
    expect(await poller.runOnce()).toBe(0);
    expect(tracked()).toHaveLength(1);
    expect(await due()).toBe(7);
    // Past its next call (an hour and the 5% its pace keeps to spare), one call's worth: the three oldest due.
    t.clock.advance(1.1 * HOUR);
    expect(await poller.runOnce()).toBe(3);
    expect(tracked()).toHaveLength(2);
    expect(tracked()[1].split(',').sort()).toEqual(['TSH3', 'TSH4', 'TSH5']);
    expect(await due()).toBe(4);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarrierRegistry } from '../../src/carriers/registry.js';
import type { ShipmentRow } from '../../src/db/repositories/shipments.repository.js';
import { choosePolls, pollPriority, pollRanking } from '../../src/domain/shipments/poll-priority.js';
import { TrackingPoller } from '../../src/jobs/tracking-poller.js';
import { TEST_LIMITS, TestCarrier } from '../carriers/sdk/test-carrier.js';
import { CarrierServer } from '../carriers/support/carrier-server.js';
import { localToolkit } from '../carriers/support/kit.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testCarrierShipments } from './test-carrier-shipments.js';

const HOUR = 3_600_000;

function row(id: number, more: Partial<ShipmentRow> = {}): ShipmentRow {
  return { id, phase_key: 'in_transit', last_tracking_update_at: null, poll_deferred_since: null, ...more } as ShipmentRow;
}

describe('quota-aware polling: scarce daily calls go to the most urgent shipments, and none starves', () => {
  const now = new Date('2026-11-23T12:00:00Z');

  it('ranks starving, then out for delivery and failed attempts, then recently changed, then the rest', () => {
    expect(pollPriority(row(1, { poll_deferred_since: new Date(now.getTime() - 2 * HOUR).toISOString() }), now)).toBe(0);
    expect(pollPriority(row(2, { phase_key: 'out_for_delivery' }), now)).toBe(1);
    expect(pollPriority(row(3, { phase_key: 'failed_attempt' }), now)).toBe(1);
    expect(pollPriority(row(4, { last_tracking_update_at: new Date(now.getTime() - HOUR).toISOString() }), now)).toBe(2);
    expect(pollPriority(row(5), now)).toBe(3);
    // In transit polls every 30 minutes at most: deferred 89 minutes is not starving yet, 90 is.
    expect(pollPriority(row(6, { poll_deferred_since: new Date(now.getTime() - 89 * 60_000).toISOString() }), now)).toBe(3);
    expect(pollPriority(row(7, { poll_deferred_since: new Date(now.getTime() - 90 * 60_000).toISOString() }), now)).toBe(0);
  });

  it('takes at most the budget, most urgent first, longest deferred first within a rank', () => {
    const rows = [
      row(1),
      row(2, { phase_key: 'out_for_delivery' }),
      row(3, { poll_deferred_since: new Date(now.getTime() - 10 * 60_000).toISOString() }),
      row(4, { poll_deferred_since: new Date(now.getTime() - 20 * 60_000).toISOString() }),
      row(5, { poll_deferred_since: new Date(now.getTime() - 5 * HOUR).toISOString() }),
    ];
    const { poll, defer } = choosePolls(rows, 3, now);
    expect(poll.map((r) => r.id)).toEqual([5, 2, 4]);
    expect(defer.map((r) => r.id)).toEqual([3, 1]);
    expect(choosePolls(rows, 10, now).defer).toEqual([]);
    expect(choosePolls(rows, 0, now).poll).toEqual([]);
  });

  describe('the database ranks a due set as choosePolls does', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('claims the most urgent due shipments of one configuration, in any claim size', async () => {
      const account = await t.account({ carriers: [{ carrier_reference: 'rank', carrier_id: 'sandbx' }] });
      const accountId = (await t.context.accounts.require(account.accountUuid)).id;
      const at = t.clock.now();
      const ago = (ms: number) => new Date(at.getTime() - ms).toISOString();
      // Every rank, ties within a rank broken by the longest deferred, then the id.
      const stories: Array<Partial<ShipmentRow>> = [
        { phase_key: 'in_transit' },
        { phase_key: 'out_for_delivery' },
        { phase_key: 'in_transit', poll_deferred_since: ago(10 * 60_000) },
        { phase_key: 'in_transit', poll_deferred_since: ago(2 * HOUR) },
        { phase_key: 'failed_attempt', poll_deferred_since: ago(30 * 60_000) },
        { phase_key: 'in_transit', last_tracking_update_at: ago(HOUR) },
        { phase_key: 'in_transit', last_tracking_update_at: ago(30 * HOUR) },
        { phase_key: null, poll_deferred_since: ago(50 * 60_000) },
        { phase_key: 'delivered', poll_deferred_since: ago(40 * 60_000) },
        { phase_key: 'out_for_delivery', poll_deferred_since: ago(46 * 60_000) },
        { phase_key: 'available_for_pickup', poll_deferred_since: ago(5 * HOUR) },
        { phase_key: 'in_transit' },
      ];
      const ids: number[] = [];
      for (const [i, story] of stories.entries()) {
        const res = await t.as(account)('POST', '/v5/shipment/', {
          shipment_id: `r-${i}`,
          tracking_number: `WB2RANK${i}`,
          carrier_reference: 'rank',
        });
        expect(res.statusCode, res.body).toBe(200);
        const { id } = await t.context.database.db
          .selectFrom('shipments')
          .select('id')
          .where('shipment_id', '=', `r-${i}`)
          .executeTakeFirstOrThrow();
        ids.push(id);
        await t.context.database.db
          .updateTable('shipments')
          .set({ last_tracking_update_at: null, poll_deferred_since: null, ...story, next_poll_at: ago(60_000 - i) })
          .where('id', '=', id)
          .execute();
      }
      const rows = await t.context.database.db.selectFrom('shipments').selectAll().where('id', 'in', ids).execute();
      for (const limit of [1, 3, 5, 8, 12]) {
        // Read, not written: the same due set is ranked each time.
        const claimed = await t.context.repos.shipments.rankedDuePollsOf(accountId, 'rank', at.toISOString(), limit, pollRanking(at));
        const expected = choosePolls(rows, limit, at).poll.map((r) => Number(r.id));
        expect(claimed.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
      }
    });
  });

  describe('through the poller, against a carrier server that counts', () => {
    let t: TestApp;
    let server: CarrierServer;
    let poller: TrackingPoller;
    let registry: CarrierRegistry;
    beforeAll(async () => {
      server = await new CarrierServer().start();
      server.on('POST', '/oauth/token', () => ({ body: { access_token: 'tok', expires_in: 3600 } }));
      server.on('GET', /^\/track\//, (r) => ({
        body: {
          results: [{ number: decodeURIComponent(r.path.slice(7)), found: true, events: [{ code: 'TRN', at: '2026-11-01T09:00:00Z' }] }],
        },
      }));
      t = await createTestApp();
      const carrier = new TestCarrier(
        localToolkit('tstcar', server.url, {}, () => t.clock.now().getTime()),
        {
          ...TEST_LIMITS,
          numbers_per_call: 1,
          daily_quota: 4,
          quota_reset_utc: '00:00',
        },
      );
      registry = new CarrierRegistry([carrier]);
      poller = new TrackingPoller(t.context.repos, registry, t.context.carrierConfigs, t.context.tracking, t.clock, t.context.log);
    });
    afterAll(async () => {
      await t.close();
      await server.close();
    });

    it('polls four of ten due shipments, out for delivery first, and puts the others off to the reset without a failure', async () => {
      const { ids } = await testCarrierShipments(t, { reference: 'tst', clientId: 'c', shipmentPrefix: 'q', numberPrefix: 'TST' });
      // Two are out for delivery; everything is due now.
      await t.context.database.db
        .updateTable('shipments')
        .set({ phase_key: 'out_for_delivery' })
        .where('id', 'in', [ids[7], ids[8]])
        .execute();
      await t.context.database.db
        .updateTable('shipments')
        .set({ next_poll_at: t.clock.now().toISOString() })
        .where('id', 'in', ids)
        .execute();

      expect(await poller.runOnce()).toBe(10);
      const calls = server.to(/^\/track\//).map((r) => r.path.slice(7));
      expect(calls).toHaveLength(4);
      expect(calls).toEqual(expect.arrayContaining(['TST7', 'TST8']));
      const rows = await t.context.database.db.selectFrom('shipments').selectAll().where('id', 'in', ids).execute();
      const deferred = rows.filter((r) => r.poll_deferred_since !== null);
      expect(deferred).toHaveLength(6);
      const reset = new Date(t.clock.now());
      reset.setUTCHours(24, 0, 0, 0);
      for (const r of deferred) {
        expect(r.poll_failures).toBe(0);
        expect(Date.parse(r.next_poll_at as string)).toBeGreaterThanOrEqual(reset.getTime());
      }
      for (const r of rows.filter((r) => r.poll_deferred_since === null)) expect(r.last_tracking_update_at).not.toBeNull();
    });

    it('spends the last calls on the most urgent of the whole due set, not of one claim', async () => {
      // Another credential with its four calls, and a poller whose claim across carriers takes three shipments.
      const narrow = new TrackingPoller(t.context.repos, registry, t.context.carrierConfigs, t.context.tracking, t.clock, t.context.log, {
        batchSize: 3,
      });
      const { ids } = await testCarrierShipments(t, {
        reference: 'tst',
        clientId: 'c2',
        shipmentPrefix: 'w',
        numberPrefix: 'TSW',
      });
      // The urgent ones fell due last: a claim of the three oldest does not hold them.
      const now = t.clock.now().getTime();
      for (const [i, id] of ids.entries()) {
        await t.context.database.db
          .updateTable('shipments')
          .set({ next_poll_at: new Date(now - 60_000 + i * 1000).toISOString(), phase_key: i >= 8 ? 'failed_attempt' : 'in_transit' })
          .where('id', '=', id)
          .execute();
      }
      const before = server.to(/^\/track\//).length;
      expect(await narrow.runOnce()).toBe(10);
      const calls = server
        .to(/^\/track\//)
        .slice(before)
        .map((r) => r.path.slice(7));
      expect(calls).toHaveLength(4);
      expect(calls).toEqual(expect.arrayContaining(['TSW8', 'TSW9']));
      const rows = await t.context.database.db.selectFrom('shipments').selectAll().where('id', 'in', ids).execute();
      expect(rows.filter((r) => r.poll_deferred_since !== null)).toHaveLength(6);
      // Nothing is due for the credential until the reset: the next round finds nothing.
      expect(await narrow.runOnce()).toBe(0);
    });
  });
});

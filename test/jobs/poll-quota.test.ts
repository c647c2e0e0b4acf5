import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarrierRegistry } from '../../src/carriers/registry.js';
import type { ShipmentRow } from '../../src/db/repositories/shipments.repository.js';
import { choosePolls, pollPriority } from '../../src/domain/shipments/poll-priority.js';
import { TrackingPoller } from '../../src/jobs/tracking-poller.js';
import { TEST_LIMITS, TestCarrier } from '../carriers/sdk/test-carrier.js';
import { CarrierServer } from '../carriers/support/carrier-server.js';
import { localToolkit } from '../carriers/support/kit.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

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

  describe('through the poller, against a carrier server that counts', () => {
    let t: TestApp;
    let server: CarrierServer;
    let poller: TrackingPoller;
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
      const registry = new CarrierRegistry([carrier]);
      poller = new TrackingPoller(t.context.repos, registry, t.context.carrierConfigs, t.context.tracking, t.clock, t.context.log);
    });
    afterAll(async () => {
      await t.close();
      await server.close();
    });

    it('polls four of ten due shipments, out for delivery first, and puts the others off to the reset without a failure', async () => {
      const account = await t.account();
      const accountId = (await t.context.accounts.require(account.accountUuid)).id;
      await t.context.database.db
        .insertInto('carrier_configs')
        .values({
          account_id: accountId,
          carrier_reference: 'tst',
          carrier_id: 'tstcar',
          booking_outbound: 0,
          booking_return: 0,
          settings_sealed: t.context.secrets.encrypt(JSON.stringify({ client_id: 'c', client_secret: 's3cret-value' })),
          push_token_hash: null,
          created_at: t.clock.now().toISOString(),
          updated_at: t.clock.now().toISOString(),
        })
        .execute();
      const ids: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await t.as(account)('POST', '/v5/shipment/', {
          shipment_id: `q-${i}`,
          tracking_number: `TST${i}`,
          carrier_reference: 'tst',
        });
        expect(res.statusCode, res.body).toBe(200);
        const stored = await t.context.database.db
          .selectFrom('shipments')
          .select('id')
          .where('shipment_id', '=', `q-${i}`)
          .executeTakeFirstOrThrow();
        ids.push(stored.id);
      }
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
  });
});

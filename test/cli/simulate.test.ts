import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSimulateCommands } from '../../src/cli/simulate.commands.js';
import { simulateHistory } from '../../src/domain/delivery/simulated-history.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { pointCliAt, runCli } from './support.js';

/** `waybill simulate history|delete`, a client of the admin API, against a listening service (SQLite, or PostgreSQL with DATABASE_URL). */
describe('waybill simulate', () => {
  let t: TestApp;
  let merchant: TestAccount;
  let neighbour: TestAccount;
  let restoreEnv: () => void;
  beforeAll(async () => {
    t = await createTestApp();
    merchant = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
    neighbour = await t.account();
    restoreEnv = pointCliAt(await t.app.listen({ port: 0, host: '127.0.0.1' }), t.adminToken);
  });
  afterAll(async () => {
    restoreEnv();
    await t.close();
  });

  const waybill = (...args: string[]) => runCli(registerSimulateCommands, ...args);

  /** Every shipment the account lists (GET /v5/shipment/list/, page after page). */
  const listed = async (account: TestAccount) => {
    const all: Array<Record<string, any>> = [];
    let next: string | null = null;
    do {
      const res = await t.as(account)('GET', '/v5/shipment/list/', undefined, next ? { next_page: next } : { limit: '100' });
      if (res.statusCode === 404) break;
      expect(res.statusCode).toBe(200);
      all.push(...res.json().data);
      next = res.json().next_page;
    } while (next);
    return all;
  };
  const eventRows = async () =>
    Number(
      (
        await t.context.repos.db
          .selectFrom('tracking_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates a history visible to its account only, refuses it twice, and deletes exactly it', async () => {
    // Real shipments of both accounts, one of the merchant's tracked with events, that must survive the delete.
    for (const account of [merchant, neighbour]) {
      const created = await t.as(account)('POST', '/v5/shipment/', { shipment_id: `real-${account.accountUuid.slice(0, 8)}` });
      expect(created.statusCode).toBe(200);
    }
    const manual = await t.as(merchant)('POST', '/v5/events/create/', {
      shipment_id: `real-${merchant.accountUuid.slice(0, 8)}`,
      events: [{ event: 'Handed to the courier', event_key: 'picked_up', time: '2025-05-02T10:00:00+02:00' }],
    });
    expect(manual.statusCode).toBeLessThan(300);
    const eventsBefore = await eventRows();

    const printed = await waybill(
      'simulate',
      'history',
      '--account',
      merchant.accountUuid,
      '--shipments',
      '400',
      '--weeks',
      '10',
      '--seed',
      'cli',
      '--end',
      '2025-11-30',
    );
    const lines = printed.split('\n');
    expect(lines[0]).toMatch(/^created 400 simulated shipments \(\d+ events\) over 10 weeks, 2025-09-22 to 2025-11-30, seed cli$/);
    expect(lines.slice(1)).toEqual([
      'they have source "simulation" and are never polled; delete them with:',
      `  npx waybill simulate delete --account ${merchant.accountUuid}`,
      '',
    ]);

    const expected = simulateHistory({ shipments: 400, weeks: 10, seed: 'cli', end: '2025-11-30' });
    const shipments = await listed(merchant);
    const simulated = shipments.filter((s) => s.source === 'simulation');
    expect(simulated).toHaveLength(400);
    expect(shipments).toHaveLength(401);
    expect(new Set(simulated.map((s) => s.tracking_number))).toEqual(new Set(expected.map((s) => s.tracking_number)));
    expect((await listed(neighbour)).map((s) => s.source)).toEqual(['api']);
    const totalEvents = expected.reduce((sum, s) => sum + s.events.length, 0);
    expect(printed).toContain(`(${totalEvents} events)`);
    expect(await eventRows()).toBe(eventsBefore + totalEvents);

    // A simulated shipment reads like a tracked one: carrier, lane, status and phase from its events; never polled.
    const sample = expected.find((s) => s.truth.outcome === 'delivered' && !s.truth.cut) as (typeof expected)[number];
    const details = await t.as(merchant)('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: sample.tracking_number });
    expect(details.statusCode).toBe(200);
    const shown = details.json().data;
    expect(shown).toMatchObject({
      shipment_id: sample.tracking_number,
      tracking_number: sample.tracking_number,
      carrier_reference: null,
      source: 'simulation',
      status: 'delivered',
      current_phase: { key: 'delivered' },
      recipient_address: { country_code: sample.recipient_address.country_code, postal_code: sample.recipient_address.postal_code },
    });
    expect(shown.carrier.id).toBe(sample.carrier_id);
    expect(shown.all_events.map((e: { event_key: string }) => e.event_key)).toEqual(sample.events.map((e) => e.event_key).reverse());
    expect(shown.all_events.at(-1)).toMatchObject({ time: sample.events[0].time, timezone: sample.events[0].timezone });
    const polled = await t.context.repos.db
      .selectFrom('shipments')
      .select('id')
      .where('source', '=', 'simulation')
      .where((eb) => eb.or([eb('next_poll_at', 'is not', null), eb('carrier_reference', 'is not', null)]))
      .execute();
    expect(polled).toEqual([]);

    // The same history twice is refused, and nothing is added.
    await expect(
      waybill(
        'simulate',
        'history',
        '--account',
        merchant.accountUuid,
        '--shipments',
        '400',
        '--weeks',
        '10',
        '--seed',
        'cli',
        '--end',
        '2025-11-30',
      ),
    ).rejects.toThrow(/400: .*seed: The account already has this simulated history/);
    expect((await listed(merchant)).length).toBe(401);
    // Analytics count the history under each shipment's carrier id (it has no carrier configuration).
    const byCarrier = async () => {
      const res = await t.as(merchant)('GET', '/v5/analytics/delivery-performance/', undefined, {
        from: '2025-09-01',
        to: '2025-11-30',
        group_by: 'carrier',
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.rows as Array<{ key: string; shipments: number }>;
    };
    const rows = await byCarrier();
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row.key).toMatch(/^[a-z0-9]{6}$/);

    expect(await waybill('simulate', 'delete', '--account', merchant.accountUuid)).toBe('deleted 400 simulated shipments\n');
    // Taken out again: no group is left answering zeros.
    expect(await byCarrier()).toEqual([]);
    expect((await listed(merchant)).map((s) => s.source)).toEqual(['api']);
    expect((await listed(neighbour)).map((s) => s.source)).toEqual(['api']);
    expect(await eventRows()).toBe(eventsBefore);
    expect(JSON.parse(await waybill('simulate', 'delete', '--account', merchant.accountUuid, '--json'))).toEqual({ deleted: 0 });
  });

  it('refuses a history ending in the future, and an unknown account', async () => {
    const future = new Date(t.clock.now().getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
    const res = await t.admin('POST', `/admin/v1/accounts/${merchant.accountUuid}/simulated-history/`, {
      shipments: 10,
      weeks: 1,
      seed: 1,
      end: future,
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('end must not be after today');
    const unknown = await t.admin('POST', '/admin/v1/accounts/00000000-0000-4000-8000-000000000000/simulated-history/', {
      shipments: 10,
      weeks: 1,
      seed: 1,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('ends a history of today at the current time', async () => {
    const res = await t.admin('POST', `/admin/v1/accounts/${neighbour.accountUuid}/simulated-history/`, {
      shipments: 200,
      weeks: 2,
      seed: 9,
    });
    expect(res.statusCode).toBe(201);
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(res.json()).toMatchObject({ shipments: 200, weeks: 2, seed: '9', to: today, source: 'simulation' });
    const latest = await t.context.repos.db
      .selectFrom('tracking_events')
      .innerJoin('shipments', 'shipments.id', 'tracking_events.shipment_row_id')
      .select((eb) => eb.fn.max('tracking_events.time_utc').as('at'))
      .where('shipments.source', '=', 'simulation')
      .executeTakeFirstOrThrow();
    expect(String(latest.at) <= t.clock.now().toISOString()).toBe(true);
    expect((await t.admin('DELETE', `/admin/v1/accounts/${neighbour.accountUuid}/simulated-history/`)).json()).toEqual({ deleted: 200 });
  });
});

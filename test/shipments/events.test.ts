import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('POST /v5/events/create/', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account();
  });
  afterAll(() => t.close());

  const details = async (id: string, version = '/v5-2-0') =>
    (await t.call(acct.token, 'GET', `${version}/shipment/details/`, undefined, { shipment_id: id })).json().data;

  it('stores manual events of any precision, newest first, and moves status and phase', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'ev-1' });
    const res = await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'ev-1',
      events: [
        { event: 'Label printed', event_key: 'label_created', time: '2026-03-27' },
        {
          event: 'Left the hub',
          event_key: 'departed_facility',
          time: '2026-03-29T10:15:00',
          timezone: 'Europe/Berlin',
          location: { place: 'Berlin hub', city: 'Berlin', country_code: 'DE' },
        },
        { event: 'Scanned at depot', time: '2026-03-28T23:30:00+01:00', additional_info: { scanner: 7 } },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ events_created: 3 });
    const data = await details('ev-1');
    expect(data.all_events.map((e: { time: string }) => e.time)).toEqual([
      '2026-03-29T10:15:00',
      '2026-03-28T23:30:00+01:00',
      '2026-03-27',
    ]);
    expect(data.all_events[0]).toMatchObject({
      event: 'Left the hub',
      event_key: 'departed_facility',
      phase_key: 'in_transit',
      timezone: 'Europe/Berlin',
    });
    expect(data.all_events[0].location).toMatchObject({ place: 'Berlin hub', city: 'Berlin', country_code: 'DE', latitude: null });
    expect(data.all_events[1]).toMatchObject({ event_key: null, phase_key: null, additional_info: { scanner: 7 } });
    expect(data.status).toBe('active');
    expect(data.current_phase).toEqual({ key: 'in_transit', name: expect.any(String) });
    const v5 = await details('ev-1', '/v5');
    expect(v5.all_events[0].location).toEqual({ place: 'Berlin hub' });
  });

  it('refuses a time past 9999 or before 0000 in UTC on its event, and stores none of the request', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'ev-years' });
    for (const [time, timezone] of [
      ['9999-12-31T23:00:00-14:00', undefined],
      ['0000-01-01T00:30:00+01:00', undefined],
      ['9999-12-31T23:00:00', 'America/New_York'],
    ] as const) {
      const res = await t.call(acct.token, 'POST', '/v5/events/create/', {
        shipment_id: 'ev-years',
        events: [
          { event: 'In transit', event_key: 'departed_facility', time: '2026-11-30T10:00:00Z' },
          { event: 'Delivered', event_key: 'delivered', time, ...(timezone ? { timezone } : {}) },
        ],
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().api_response).toBe('4030');
      expect(res.json().errors, time).toEqual({ events: { 1: { time: [expect.stringContaining('outside the years 0000–9999 in UTC')] } } });
    }
    const data = await details('ev-years');
    expect(data.all_events).toEqual([]);
    expect(data.status).toBe('pending');
    // The last instant of 9999 in UTC is a time like any other.
    const last = await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'ev-years',
      events: [{ event: 'Delivered', event_key: 'delivered', time: '9999-12-31T23:59:59Z' }],
    });
    expect(last.statusCode, last.body).toBe(200);
  });

  it('refuses an additional_info over 4 KiB of JSON on its event, and stores none of the request; keeps one of 4 KiB', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'ev-info' });
    // {"k":"…"} is 8 bytes around the text; "é" is two bytes in UTF-8.
    const exactly = { k: 'é'.repeat((4096 - 8) / 2) };
    const over = { nested: { deep: ['x'.repeat(4096)] } };
    const refused = await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'ev-info',
      events: [
        { event: 'In transit', event_key: 'departed_facility', time: '2026-11-30T10:00:00Z', additional_info: exactly },
        { event: 'Delivered', event_key: 'delivered', time: '2026-11-30T12:00:00Z', additional_info: over },
      ],
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errors).toEqual({
      events: { 1: { additional_info: ['Ensure this object is no more than 4096 bytes as JSON.'] } },
    });
    expect((await details('ev-info')).all_events).toEqual([]);

    const kept = await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'ev-info',
      events: [{ event: 'In transit', event_key: 'departed_facility', time: '2026-11-30T10:00:00Z', additional_info: exactly }],
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await details('ev-info')).all_events[0].additional_info).toEqual(exactly);
  });

  it('orders local times by their timezone across a DST change', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'dst-1' });
    // 03:30 Berlin summer time (01:30Z) is earlier than 02:45Z given with an offset.
    await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'dst-1',
      events: [
        { event: 'B', time: '2026-03-29T02:45:00Z' },
        { event: 'A', time: '2026-03-29T03:30:00', timezone: 'Europe/Berlin' },
      ],
    });
    expect((await details('dst-1')).all_events.map((e: { event: string }) => e.event)).toEqual(['B', 'A']);
  });

  it('de-duplicates the same time, description and place', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'dd-1' });
    const event = { event: 'Arrived', time: '2026-05-01T08:00:00Z', location: { place: 'Paris' } };
    const first = await t.call(acct.token, 'POST', '/v5/events/create/', { shipment_id: 'dd-1', events: [event, event] });
    expect(first.json().data.events_created).toBe(1);
    const again = await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'dd-1',
      events: [event, { ...event, location: { place: 'Lyon' } }],
    });
    expect(again.json().data.events_created).toBe(1);
    expect((await details('dd-1')).all_events).toHaveLength(2);
  });

  it('never moves back from delivered', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'fin-1' });
    await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'fin-1',
      events: [{ event: 'Delivered', event_key: 'delivered', time: '2026-05-02T12:00:00Z' }],
    });
    await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'fin-1',
      events: [{ event: 'In transit', event_key: 'departed_facility', time: '2026-05-03T12:00:00Z' }],
    });
    const data = await details('fin-1');
    expect(data.status).toBe('delivered');
    expect(data.current_phase.key).toBe('delivered');
    expect(data.all_events).toHaveLength(2);
  });

  it.each([
    [{ events: [] }, ['events']],
    [{ events: Array.from({ length: 101 }, () => ({ event: 'x', time: '2026-01-01' })) }, ['events']],
    [{ events: [{ time: '2026-01-01' }] }, ['events', '0', 'event']],
    [{ events: [{ event: 'x'.repeat(501), time: '2026-01-01' }] }, ['events', '0', 'event']],
    [{ events: [{ event: 'x' }] }, ['events', '0', 'time']],
    [{ events: [{ event: 'x', time: '2026-02-30' }] }, ['events', '0', 'time']],
    [{ events: [{ event: 'x', time: '2026-01-01', timezone: 'Mars/Olympus' }] }, ['events', '0', 'timezone']],
    [{ events: [{ event: 'x', time: '2026-01-01', event_key: 'teleported' }] }, ['events', '0', 'event_key']],
    [
      {
        events: [
          { event: 'ok', time: '2026-01-01' },
          { event: 'x', time: 'later' },
        ],
      },
      ['events', '1', 'time'],
    ],
  ])('refuses %o and stores nothing', async (body, path) => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'bad-ev' });
    const res = await t.call(acct.token, 'POST', '/v5/events/create/', { shipment_id: 'bad-ev', ...body });
    expect(res.statusCode, res.body).toBe(400);
    let node = res.json().errors;
    for (const key of path) node = node[key];
    expect(Array.isArray(node), res.body).toBe(true);
    expect((await details('bad-ev')).all_events).toHaveLength(0);
  });

  it('answers 404 for an unknown shipment and 4030 without an identifier', async () => {
    const unknown = await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'ghost',
      events: [{ event: 'x', time: '2026-01-01' }],
    });
    expect(unknown.statusCode).toBe(404);
    const none = await t.call(acct.token, 'POST', '/v5/events/create/', { events: [{ event: 'x', time: '2026-01-01' }] });
    expect(none.statusCode).toBe(400);
  });

  it('waits for another writer holding the shipment, without a deadlock', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'ev-held' });
    const account = await t.context.accounts.require(acct.accountUuid);
    const row = await t.context.repos.shipments.findByShipmentId(account.id, 'ev-held');
    if (!row) throw new Error('ev-held not found');
    // Another writer (an update, a poll) holds the shipment's row and then writes what bumps its version.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const held = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const writer = t.context.repos.transaction(async (trx) => {
      await trx.shipments.lock(row.id);
      locked();
      await gate;
      await trx.shipments.update(row.id, { status: 'inactive', updated_at: new Date().toISOString() });
    });
    await held;
    const event = t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'ev-held',
      events: [{ event: 'Scanned while held', time: '2026-03-30T08:00:00Z' }],
    });
    if (t.context.database.dialect === 'postgres') {
      // The event's transaction waits for the shipment's row.
      const waiting = async () =>
        (
          await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and datname = current_database()`.execute(t.context.database.db)
        ).rows[0].n;
      await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
    } else {
      // SQLite: the event waits for the connection the writer holds.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    release();
    await writer;
    const res = await event;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.events_created).toBe(1);
    expect((await details('ev-held')).all_events.map((e: { event: string }) => e.event)).toEqual(['Scanned while held']);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { TrackingEventsRepository } from '../../src/db/repositories/tracking-events.repository.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

const DAY = 86_400_000;

describe('tracking through the sandbox carrier', () => {
  let t: TestApp;
  let acct: TestAccount;
  let n = 0;
  beforeAll(async () => {
    // A fixed morning: the live parcel's first scan is a date without a zone, read as UTC, so a run whose
    // moved clock put the parcel's evening (Paris) on the UTC day after would see that scan as the newest.
    t = await createTestApp({ clock: new ManualClock(new Date('2026-11-23T08:00:00Z')) });
    acct = await t.account({ carriers: [{ carrier_reference: 'sb' }, { carrier_reference: 'live', settings: { step_seconds: 60 } }] });
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.as(acct)(method, url, body, query);

  async function track(trackingNumber: string, carrierReference = 'sb'): Promise<string> {
    const shipmentId = `trk-${++n}`;
    const res = await api('POST', '/v5/shipment/', {
      shipment_id: shipmentId,
      tracking_number: trackingNumber,
      carrier_reference: carrierReference,
    });
    expect(res.statusCode, res.body).toBe(200);
    return shipmentId;
  }
  const details = async (shipmentId: string, version = '/v5-2-0') =>
    (await api('GET', `${version}/shipment/details/`, undefined, { shipment_id: shipmentId })).json().data;
  const poll = () => t.context.worker.runOnce();

  it.each([
    ['WB1000001', 'info_received', 'pending'],
    ['WB2000001', 'in_transit', 'active'],
    ['WB3000001', 'out_for_delivery', 'active'],
    ['WB4000001', 'delivered', 'delivered'],
    ['WB5000001', 'return_to_sender', 'return'],
    ['WB6000001', 'exception', 'active'],
  ])('%s ends in phase %s, status %s, after the first poll', async (number, phase, status) => {
    const id = await track(number);
    expect((await details(id)).status).toBe('pending');
    await poll();
    const data = await details(id);
    expect(data.current_phase.key).toBe(phase);
    expect(data.current_phase.name).toEqual(expect.any(String));
    expect(data.status).toBe(status);
    expect(data.all_events.length).toBeGreaterThanOrEqual(2);
    expect(data.carrier).toMatchObject({ id: 'sandbx' });
    const times = data.all_events.map((e: { time: string }) => e.time);
    expect(times.length).toBe(new Set(data.all_events.map((e: { event: string; time: string }) => `${e.event}|${e.time}`)).size);
    for (const event of data.all_events) {
      expect(event.carrier_name).toBe('Waybill Sandbox');
      expect(event.location === null || typeof event.location.place === 'string').toBe(true);
    }
  });

  it('keeps all_events newest first by instant and keeps each time as the carrier gave it', async () => {
    const id = await track('WB4000777');
    await poll();
    const events = (await details(id)).all_events as Array<{
      time: string;
      timezone: string | null;
      location: Record<string, unknown> | null;
    }>;
    const withDateOnly = events.filter((e) => /^\d{4}-\d{2}-\d{2}$/.test(e.time));
    expect(withDateOnly.length).toBeGreaterThan(0);
    const v52Location = events.find((e) => e.location !== null)?.location;
    expect(v52Location).toHaveProperty('country_code');
    expect(v52Location).toHaveProperty('latitude');
    const v5 = (await details(id, '/v5')).all_events.find((e: { location: unknown }) => e.location !== null);
    expect(Object.keys(v5.location)).toEqual(['place']);
  });

  it('re-polling never duplicates events', async () => {
    const id = await track('WB2000002');
    await poll();
    const before = (await details(id)).all_events.length;
    for (let i = 0; i < 3; i++) {
      t.clock.advance(60 * 60_000);
      await poll();
    }
    const trigger = await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: id });
    expect(trigger.statusCode).toBe(200);
    await poll();
    expect((await details(id)).all_events.length).toBe(before);
  });

  it('stores nothing for an answer it stored already, then the events of a changed answer and of a new number', async () => {
    const id = await track('WB8000002', 'live');
    const row = async () => {
      const account = await t.context.repos.accounts.findByUuid(acct.accountUuid);
      return t.context.repos.shipments.findByShipmentId(account?.id ?? 0, id);
    };
    await poll();
    const first = await details(id);
    expect(first.all_events.length).toBeGreaterThan(0);
    const digest = (await row())?.tracking_digest;
    expect(digest).toEqual(expect.any(String));

    // The same answer again (the clock has not moved): no insert is even tried.
    const inserts = vi.spyOn(TrackingEventsRepository.prototype, 'insertNewOf');
    let offered: unknown[] = [];
    try {
      expect((await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: id })).statusCode).toBe(200);
      await poll();
      expect(inserts).not.toHaveBeenCalled();
      expect((await row())?.tracking_digest).toBe(digest);
      expect((await details(id)).all_events).toEqual(first.all_events);

      // The parcel moves on: the answer has new events, and they are stored.
      t.clock.advance(3 * 60_000);
      await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: id });
      await poll();
      expect(inserts).toHaveBeenCalledTimes(1);
      offered = inserts.mock.calls[0][0] as unknown[];
    } finally {
      inserts.mockRestore();
    }
    const moved = await details(id);
    expect(moved.all_events.length).toBeGreaterThan(first.all_events.length);
    // The new answer began with the stored one: only the events after it were offered to the insert.
    expect(offered).toHaveLength(moved.all_events.length - first.all_events.length);
    expect((await row())?.tracking_digest).not.toBe(digest);

    // A new number forgets the old answer's digest, and its own events are stored.
    expect(
      (await api('POST', '/v5/shipment/update/', { tracking_number: 'WB4000888', carrier_reference: 'sb' }, { shipment_id: id }))
        .statusCode,
    ).toBe(200);
    expect((await row())?.tracking_digest).toBeNull();
    await poll();
    expect((await details(id)).all_events.length).toBeGreaterThan(moved.all_events.length);
    expect((await row())?.tracking_digest).toEqual(expect.any(String));
  });

  it('WB7: the carrier knows nothing — pending, then inactive after the window', async () => {
    const id = await track('WB7000001');
    await poll();
    expect((await details(id)).status).toBe('pending');
    for (let day = 0; day < 31; day++) {
      t.clock.advance(DAY);
      await poll();
    }
    const data = await details(id);
    expect(data.status).toBe('inactive');
    expect(data.all_events).toEqual([]);
  });

  it('WB9: retries transient carrier faults with backoff, then tracks', async () => {
    const id = await track('WB9000001');
    await poll();
    expect((await details(id)).all_events).toEqual([]);
    const row1 = await t.context.repos.shipments.findByShipmentId((await t.context.repos.accounts.findByUuid(acct.accountUuid))!.id, id);
    expect(row1?.poll_failures).toBe(1);
    for (let i = 0; i < 4; i++) {
      t.clock.advance(2 * 60_000);
      await poll();
    }
    const data = await details(id);
    expect(data.all_events.length).toBeGreaterThan(0);
    expect(data.status).toBe('active');
  });

  it('WB8: a live parcel moves on as time passes until delivered', async () => {
    const id = await track('WB8000001', 'live');
    await poll();
    const first = await details(id);
    const seen = [first.current_phase.key];
    for (let i = 0; i < 40 && seen[seen.length - 1] !== 'delivered'; i++) {
      t.clock.advance(60_000);
      await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: id });
      await poll();
      const phase = (await details(id)).current_phase.key;
      if (phase !== seen[seen.length - 1]) seen.push(phase);
    }
    expect(seen[seen.length - 1]).toBe('delivered');
    expect(seen.length).toBeGreaterThan(2);
    expect((await details(id)).status).toBe('delivered');
  });

  it('expires a shipment with no carrier update within the window', async () => {
    const id = await track('WB2000003');
    await poll();
    expect((await details(id)).status).toBe('active');
    for (let day = 0; day < 31; day++) {
      t.clock.advance(DAY);
      await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: id }).catch(() => undefined);
      await poll();
    }
    expect((await details(id)).status).toBe('expired');
  });

  it('stops polling a delivered shipment', async () => {
    const id = await track('WB4000002');
    await poll();
    const account = await t.context.repos.accounts.findByUuid(acct.accountUuid);
    const row = await t.context.repos.shipments.findByShipmentId(account!.id, id);
    expect(row?.next_poll_at).toBeNull();
  });

  it('trigger-adhoc-update refuses an untracked shipment and an unknown one', async () => {
    await api('POST', '/v5/shipment/', { shipment_id: 'untracked-1' });
    const untracked = await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: 'untracked-1' });
    expect(untracked.statusCode).toBe(400);
    expect(untracked.json().api_response).toBe('4030');
    const unknown = await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: 'nope' });
    expect(unknown.statusCode).toBe(404);
  });

  it('starts tracking when an update sets tracking_number and carrier_reference', async () => {
    await api('POST', '/v5/shipment/', { shipment_id: 'later-1' });
    await api('POST', '/v5/shipment/update/', { tracking_number: 'WB3000042', carrier_reference: 'sb' }, { shipment_id: 'later-1' });
    await poll();
    expect((await details('later-1')).current_phase.key).toBe('out_for_delivery');
  });
});

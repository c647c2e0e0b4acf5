import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FoundBooking } from '../../src/carriers/booking.js';
import { clientTrackerId } from '../../src/carriers/ship24/ship24.trackers.js';
import { API_KEY, NUMBERS, RESULTS_PATH, type Ship24Server, ship24Server, TRACKER_PATH } from '../carriers/ship24/ship24-server.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { bookableShipment, createShipment } from './fixtures.js';

/**
 * A booking that completes on a shipment an aggregator tracks (its number given while the carrier's answer was
 * lost): the booked number replaces the aggregator's as a number given by update would. The courier the
 * aggregator named for the old number is no longer shown, and the aggregator is told to stop following it.
 */
describe('a booking completed on a shipment tracked through the fallback aggregator', () => {
  let server: Ship24Server;
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    server = await ship24Server();
    t = await createTestApp({ env: { WAYBILL_CARRIER_SHIP24_BASE_URL: server.url.replace('127.0.0.1', 'localhost') } });
    acct = await t.account({ features: ['booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
    const fallback = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'agg',
      carrier_id: 'ship24',
      fallback: true,
      settings: { api_key: API_KEY },
    });
    if (fallback.statusCode !== 201) throw new Error(fallback.body);
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const api = (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.as(acct)(method, url, body, query);
  const details = async (uuid: string) => (await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
  const stopJobs = () =>
    t.context.database.db.selectFrom('jobs').select(['payload', 'status']).where('kind', '=', 'carrier.stop').execute();
  const pollNow = (uuid: string) =>
    t.context.database.db
      .updateTable('shipments')
      .set({ next_poll_at: new Date(t.clock.now().getTime() - 1_000).toISOString() })
      .where('shipment_uuid', '=', uuid)
      .execute();

  it('forgets the carrier of record and stops the aggregator tracking the old number', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('AGG-BK-1'));

    // The carrier books, but its answer is lost and it cannot find the booking yet: the booking stays unknown.
    const sandbox = t.context.carriers.get('sandbx') as unknown as { findBooking: () => Promise<FoundBooking> };
    sandbox.findBooking = async () => ({ status: 'error', retryable: true, message: 'not found yet' });
    let lost: Awaited<ReturnType<typeof api>>;
    try {
      lost = await api('POST', '/v5/booking/', {
        shipment_uuid: uuid,
        carrier_reference: 'sb',
        carrier_metadata: { simulate: 'answer_lost' },
      });
    } finally {
      delete (sandbox as Partial<typeof sandbox>).findBooking;
    }
    expect(lost.statusCode, lost.body).toBe(503);

    // Meanwhile the merchant gives the parcel's number, which only the fallback claims; its poll names InPost.
    const updated = await api('POST', '/v5/shipment/update/', { tracking_number: NUMBERS.inpost }, { shipment_uuid: uuid });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await details(uuid)).carrier_reference).toBe('agg');
    await t.context.worker.runOnce();
    await pollNow(uuid);
    await t.context.worker.runOnce();
    expect(server.to(RESULTS_PATH).length).toBeGreaterThan(0);
    const tracked = await details(uuid);
    expect(tracked.carrier.name).toBe('InPost');
    expect(tracked.additional_info.courier_code).toBe('inpost');
    expect(await stopJobs()).toEqual([]);

    // The carrier finds the booking a minute later: the booked number replaces the aggregator's.
    t.clock.advance(61_000);
    await t.context.worker.runOnce();
    const booked = await details(uuid);
    expect(booked.carrier_reference).toBe('sb');
    expect(booked.tracking_number).toMatch(/^WB8\d{9}$/);
    expect(booked.carrier.name).toBe(t.context.carriers.get('sandbx')!.record.name);
    expect(booked.additional_info?.courier_code).toBeUndefined();

    const stops = await stopJobs();
    expect(stops).toHaveLength(1);
    expect(JSON.parse(stops[0].payload)).toEqual({ carrier_reference: 'agg', tracking_number: NUMBERS.inpost });
    t.clock.advance(t.config.pollLeaseMs);
    await t.context.worker.drain();
    const unsubscribed = server.to(TRACKER_PATH).filter((r) => r.method === 'PATCH');
    expect(unsubscribed.map((r) => r.path)).toEqual([`/public/v1/trackers/${clientTrackerId(NUMBERS.inpost)}`]);
    expect(server.trackers.get(clientTrackerId(NUMBERS.inpost))?.subscribed).toBe(false);
  });
});

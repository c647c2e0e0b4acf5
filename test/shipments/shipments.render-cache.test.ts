import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOWN_COLUMNS } from '../../src/db/migrations/0026_shipment_versions.js';
import type { Caller } from '../../src/domain/auth.service.js';
import { shipmentObject } from '../../src/domain/shipments/rendered-shipment.js';
import type { ShipmentReader } from '../../src/domain/shipments/shipment.reader.js';
import { bookableShipment } from '../booking/fixtures.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { fullShipment } from './fixtures.js';

/**
 * Shipment details and lists are answered from rendered JSON kept per process. Whatever changes, through
 * the API or straight in the database (as another process would), the answer must equal a rendering made
 * anew: the reader without its cache (`uncached()`). The same checks run with the cache off.
 */
describe.each([
  ['on', '64'],
  ['off', '0'],
])('shipment renderings with the cache %s', (_name, megabytes) => {
  let t: TestApp;
  let acct: TestAccount;
  let caller: Caller;
  let anew: ShipmentReader;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_RENDER_CACHE_MB: megabytes } });
    acct = await t.account({ features: ['booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
    const account = await t.context.accounts.require(acct.accountUuid);
    caller = { accountId: account.id, accountUuid: acct.accountUuid, clientId: acct.clientId, features: new Set(), strictFields: false };
    anew = t.context.shipmentReader.uncached();
  });
  afterAll(() => t.close());

  const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value));

  /** Details in both shapes and the first list page, each asked twice, equal to a rendering made anew. */
  async function expectFresh(shipmentId: string): Promise<Record<string, any>> {
    for (const [prefix, version] of [
      ['/v5', 'v5'],
      ['/v5-2-0', 'v5.2'],
    ] as const) {
      const fresh = roundTrip(shipmentObject(await anew.details(caller, { shipment_id: shipmentId }, version)));
      for (let i = 0; i < 2; i++) {
        const res = await t.call(acct.token, 'GET', `${prefix}/shipment/details/`, undefined, { shipment_id: shipmentId });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.json()).toEqual({ api_response: '200', data: fresh });
      }
    }
    const page = await anew.list(caller, { limit: 5 });
    const freshList = roundTrip({ data: page.shipments.map(shipmentObject), next_page: page.next_page });
    for (let i = 0; i < 2; i++) {
      const res = await t.call(acct.token, 'GET', '/v5/shipment/list/', undefined, { limit: '5' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ api_response: '200', ...freshList });
    }
    return roundTrip(shipmentObject(await anew.details(caller, { shipment_id: shipmentId }, 'v5.2')));
  }

  it('answers every change made through the API', async () => {
    expect((await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment('RC-1'))).statusCode).toBe(200);
    await expectFresh('RC-1');

    // A new event.
    const event = await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'RC-1',
      events: [{ event: 'Left the hub', event_key: 'departed_facility', time: '2026-03-29T10:15:00Z', location: { place: 'Hub' } }],
    });
    expect(event.statusCode, event.body).toBe(200);
    expect((await expectFresh('RC-1')).all_events.map((e: { event: string }) => e.event)).toEqual(['Left the hub']);

    // A change of the shipment itself.
    const update = await t.call(acct.token, 'POST', '/v5/shipment/update/', { note: 'Ring twice' }, { shipment_id: 'RC-1' });
    expect(update.statusCode, update.body).toBe(200);
    expect((await expectFresh('RC-1')).note).toBe('Ring twice');

    // Its order, changed through another shipment of the same order.
    const sibling = await t.call(acct.token, 'POST', '/v5/shipment/', {
      shipment_id: 'RC-2',
      order_id: 'order-RC-1',
      order_reference: 'NEW',
    });
    expect(sibling.statusCode, sibling.body).toBe(200);
    expect((await expectFresh('RC-1')).order.order_reference).toBe('NEW');

    // A booking: documents, tracking number and carrier.
    expect((await t.call(acct.token, 'POST', '/v5/shipment/', bookableShipment('RC-3'))).statusCode).toBe(200);
    await expectFresh('RC-3');
    const booking = await t.call(acct.token, 'POST', '/v5/booking/', { shipment_id: 'RC-3', carrier_reference: 'sb' });
    expect([200, 299], booking.body).toContain(booking.statusCode);
    const booked = await expectFresh('RC-3');
    expect(booked.documents.length).toBeGreaterThan(0);
    expect(booked.tracking_number).toBe(booking.json().data.tracking_number);
  });

  it('keeps the rendering an update answers with, for the details that follow', async () => {
    expect((await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment('RC-U'))).statusCode).toBe(200);
    await expectFresh('RC-U');
    const update = await t.call(acct.token, 'POST', '/v5-2-0/shipment/update/', { note: 'Leave at the door' }, { shipment_id: 'RC-U' });
    expect(update.statusCode, update.body).toBe(200);
    const before = t.context.shipmentReader.cache.usage;
    const details = await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'RC-U' });
    expect(details.statusCode, details.body).toBe(200);
    const after = t.context.shipmentReader.cache.usage;
    expect(details.json()).toEqual(update.json());
    expect(details.json().data.note).toBe('Leave at the door');
    // Kept at the version the update committed: the details are its bytes, not a rendering made again.
    if (megabytes === '0') expect([after.hits - before.hits, after.misses - before.misses]).toEqual([0, 1]);
    else expect([after.hits - before.hits, after.misses - before.misses]).toEqual([1, 0]);
    // And what was kept is what a rendering made anew shows, in both shapes and the list.
    expect((await expectFresh('RC-U')).note).toBe('Leave at the door');
  });

  it('answers an update with the events of the rendering kept before it, and reads them when they may have changed', async () => {
    expect((await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment('RC-E'))).statusCode).toBe(200);
    const addEvent = async (event: string, time: string) => {
      const res = await t.call(acct.token, 'POST', '/v5/events/create/', {
        shipment_id: 'RC-E',
        events: [{ event, event_key: 'departed_facility', time, location: { place: `${event} Straße` } }],
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // Events of one to four UTF-8 bytes a character: they are copied as bytes.
    await addEvent('Zoë left 東京 📦', '2026-03-29T10:15:00Z');
    await addEvent('Arrived "hub" \\ 2', '2026-03-30T08:00:00Z');
    await expectFresh('RC-E');
    const reused = () => t.context.shipmentReader.cache.usage.eventsReused;
    // The events are taken from the kept rendering only where no other transaction can write them while an update
    // runs (SQLite) and renderings are kept.
    const reuses = megabytes !== '0' && t.context.database.dialect === 'sqlite' ? 1 : 0;

    const update = async (body: Record<string, unknown>, expectedReuses: number) => {
      const before = reused();
      const res = await t.call(acct.token, 'POST', '/v5-2-0/shipment/update/', body, { shipment_id: 'RC-E' });
      expect(res.statusCode, res.body).toBe(200);
      expect(reused() - before).toBe(expectedReuses);
      const fresh = roundTrip(shipmentObject(await anew.details(caller, { shipment_id: 'RC-E' }, 'v5.2')));
      expect(res.json()).toEqual({ api_response: '200', data: fresh });
      // The details that follow are the update's answer.
      const details = await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'RC-E' });
      expect(details.json()).toEqual(res.json());
      return res.json().data;
    };
    // After the details kept a rendering; then after the update kept its own.
    expect((await update({ note: 'First' }, reuses)).all_events.map((e: { event: string }) => e.event)).toEqual([
      'Arrived "hub" \\ 2',
      'Zoë left 東京 📦',
    ]);
    expect((await update({ note: 'Second', tracking_number: 'RCE123456789' }, reuses)).tracking_number).toBe('RCE123456789');
    // An event written since the kept rendering: the update reads the events.
    await addEvent('Out for delivery', '2026-03-31T07:00:00Z');
    const third = await update({ note: 'Third' }, 0);
    expect(third.all_events[0].event).toBe('Out for delivery');
    expect(third.note).toBe('Third');
    // In the v5 shape, from the v5 rendering the details kept.
    await expectFresh('RC-E');
    const before = reused();
    const v5 = await t.call(acct.token, 'POST', '/v5/shipment/update/', { note: 'Fourth' }, { shipment_id: 'RC-E' });
    expect(v5.statusCode, v5.body).toBe(200);
    expect(reused() - before).toBe(reuses);
    expect(v5.json()).toEqual({
      api_response: '200',
      data: roundTrip(shipmentObject(await anew.details(caller, { shipment_id: 'RC-E' }, 'v5'))),
    });
    expect((await expectFresh('RC-E')).all_events).toHaveLength(3);
  });

  /**
   * The first list page of three through the API, equal to one made anew: its first shipment, its size, and the
   * renderings it missed in the cache.
   */
  async function listedPage(token: string, who: Caller): Promise<{ first: string; size: number; misses: number }> {
    const page = await anew.list(who, { limit: 3 });
    const before = t.context.shipmentReader.cache.usage;
    const res = await t.call(token, 'GET', '/v5/shipment/list/', undefined, { limit: '3' });
    const after = t.context.shipmentReader.cache.usage;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(roundTrip({ api_response: '200', data: page.shipments.map(shipmentObject), next_page: page.next_page }));
    return { first: res.json().data[0].shipment_id, size: page.shipments.length, misses: after.misses - before.misses };
  }

  it('keeps the list rendering of a created shipment whose order the create made, or that has none', async () => {
    const noOrder = { order_id: undefined, order_reference: undefined, order_source_type: undefined, order_source_name: undefined };
    const cases = [
      { shipmentId: 'RC-N1', body: fullShipment('RC-N1', noOrder), read: 0 },
      { shipmentId: 'RC-N2', body: fullShipment('RC-N2'), read: 0 },
      // The order of RC-N2, which existed before this create: the new shipment is read for the list, not kept, and
      // so is RC-N2, whose order the create wrote again.
      { shipmentId: 'RC-N3', body: fullShipment('RC-N3', { order_id: 'order-RC-N2' }), read: 2 },
    ];
    // The account has listed (creates keep renderings for such accounts only: the next test); 404 while it has none.
    expect([200, 404]).toContain((await t.call(acct.token, 'GET', '/v5/shipment/list/', undefined, { limit: '3' })).statusCode);
    for (const { shipmentId, body, read } of cases) {
      const created = await t.call(acct.token, 'POST', '/v5/shipment/', body);
      expect(created.statusCode, created.body).toBe(200);
      const row = await t.context.repos.shipments.findByShipmentId(caller.accountId, shipmentId);
      if (!row) throw new Error(`${shipmentId} was not stored`);
      expect(await t.context.repos.shipments.versionOf(row.id)).toBe(0);

      const page = await listedPage(acct.token, caller);
      expect(page.first).toBe(shipmentId);
      // The page's older shipments were kept by the list before; the new one by its create, or read now.
      expect(page.misses, shipmentId).toBe(megabytes === '0' ? page.size : read);
    }
    await expectFresh('RC-N3');
  });

  /**
   * A create's kept rendering and an update's answer are rendered from the body object the write made the row's text
   * from, not from the text: the bytes must be those the text renders. Checked through JSON text that
   * a value's own JSON would not spell (`-0`, `1e21`, escapes), members sent as null (left out) and characters of one
   * to four UTF-8 bytes.
   */
  it('renders a written shipment from its body as from the text stored for it', async () => {
    const text = (body: Record<string, unknown>) =>
      JSON.stringify(body)
        .replaceAll('"NEGATIVE_ZERO"', '-0')
        .replaceAll('"LARGE"', '1e21')
        .replaceAll('"SMALL"', '15E-8')
        .replaceAll('"ESCAPED"', '"\\u00e9\\/\\u2028\\ud83d\\udce6"');
    const odd = {
      zero: 'NEGATIVE_ZERO',
      large: 'LARGE',
      small: 'SMALL',
      escaped: 'ESCAPED',
      words: 'Zoë "東京" \\ 📦\t',
      nothing: null,
    };
    const post = (url: string, body: string, query?: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url,
        query,
        headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'application/json' },
        payload: body,
      });
    const created = await post(
      '/v5/shipment/',
      text(
        fullShipment('RC-B', {
          // No order: a create keeps its rendering only with an order it made, or none.
          order_id: undefined,
          order_reference: undefined,
          order_source_type: undefined,
          order_source_name: undefined,
          recipient_address: { ...(fullShipment('RC-B').recipient_address as object), company: null, line2: null },
          shipment_value: { amount: null, currency: null },
          weight: { amount: 'NEGATIVE_ZERO', unit: 'g' },
          additional_info: odd,
        }),
      ),
    );
    expect(created.statusCode, created.body).toBe(200);
    const row = await t.context.repos.shipments.findByShipmentId(caller.accountId, 'RC-B');
    if (!row) throw new Error('RC-B was not stored');
    const anewBytes = async (version: 'v5' | 'v5.2') => (await anew.details(caller, { shipment_id: 'RC-B' }, version)).json.toString();
    // The create kept its list rendering (the account has listed: the test above): the bytes made anew from the text.
    if (megabytes !== '0') expect(t.context.shipmentReader.cache.get('v5', row.id, 0)?.toString()).toBe(await anewBytes('v5'));
    expect((await listedPage(acct.token, caller)).first).toBe('RC-B');

    const update = await post(
      '/v5-2-0/shipment/update/',
      text({
        note: 'ESCAPED',
        additional_info: { ...odd, more: 'NEGATIVE_ZERO' },
        dimensions: { length: 'LARGE', width: 1, height: 'SMALL' },
      }),
      { shipment_id: 'RC-B' },
    );
    expect(update.statusCode, update.body).toBe(200);
    expect(update.body).toBe(await anewBytes('v5.2'));
    expect(update.json().data.note).toBe('é/\u2028📦');
    await expectFresh('RC-B');
  });

  it("keeps a created shipment's rendering only for an account that has listed lately", async () => {
    const other = await t.account();
    const otherAccount = await t.context.accounts.require(other.accountUuid);
    const otherCaller: Caller = { ...caller, accountId: otherAccount.id, accountUuid: other.accountUuid, clientId: other.clientId };
    const listMisses = async (shipmentId: string) => {
      const created = await t.call(other.token, 'POST', '/v5/shipment/', fullShipment(shipmentId));
      expect(created.statusCode, created.body).toBe(200);
      return (await listedPage(other.token, otherCaller)).misses;
    };
    // Created before the account's first list page: read by it.
    expect(await listMisses('RC-L1')).toBe(1);
    // Created after it: kept (with the cache off, the page reads both).
    expect(await listMisses('RC-L2')).toBe(megabytes === '0' ? 2 : 0);
    // Fifteen minutes after the last page, to the millisecond, the account still lists: kept.
    t.clock.advance(15 * 60_000);
    expect(await listMisses('RC-L3')).toBe(megabytes === '0' ? 3 : 0);
    // A millisecond later it no longer does: read by the next page (which lists it again, so the next is kept).
    t.clock.advance(15 * 60_000 + 1);
    expect(await listMisses('RC-L4')).toBe(megabytes === '0' ? 3 : 1);
    expect(await listMisses('RC-L5')).toBe(megabytes === '0' ? 3 : 0);
  });

  it('answers a create whose rendering fails to be kept, and the list renders it', async () => {
    const reader = t.context.shipmentReader;
    reader.keepCreated = () => {
      throw new Error('rendering failed');
    };
    try {
      const created = await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment('RC-X1'));
      expect(created.statusCode, created.body).toBe(200);
    } finally {
      delete (reader as Partial<ShipmentReader>).keepCreated;
    }
    const res = await t.call(acct.token, 'GET', '/v5/shipment/list/', undefined, { limit: '1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data[0].shipment_id).toBe('RC-X1');
  });

  it('reports its hits, misses and memory at /metrics', async () => {
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const value = (series: string) => Number(new RegExp(`^${series} (\\d+)$`, 'm').exec(metrics)?.[1]);
    expect(value('waybill_render_cache_requests_total\\{result="miss"\\}')).toBeGreaterThan(0);
    if (megabytes === '0') {
      expect(value('waybill_render_cache_requests_total\\{result="hit"\\}')).toBe(0);
      expect(value('waybill_render_cache_bytes')).toBe(0);
    } else {
      expect(value('waybill_render_cache_requests_total\\{result="hit"\\}')).toBeGreaterThan(0);
      expect(value('waybill_render_cache_bytes')).toBeGreaterThan(0);
    }
    // The updates above that took their events from a kept rendering (on SQLite, with the cache on).
    const reused = value('waybill_render_cache_events_reused_total');
    expect(reused).toBe(t.context.shipmentReader.cache.usage.eventsReused);
    if (megabytes === '0' || t.context.database.dialect !== 'sqlite') expect(reused).toBe(0);
    else expect(reused).toBeGreaterThan(0);
  });

  it('answers changes written straight into the database, as by another process', async () => {
    expect((await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment('RC-4'))).statusCode).toBe(200);
    await expectFresh('RC-4');
    const { repos } = t.context;
    const row = await repos.shipments.findByShipmentId(caller.accountId, 'RC-4');
    if (!row?.order_row_id) throw new Error('RC-4 has no order');

    await repos.shipments.update(row.id, { status: 'inactive', phase_key: 'exception' });
    expect((await expectFresh('RC-4')).status).toBe('inactive');

    await repos.orders.update(row.order_row_id, { source_name: 'Other shop', updated_at: row.updated_at });
    expect((await expectFresh('RC-4')).order.source_name).toBe('Other shop');

    await repos.events.insertNew([
      {
        shipment_row_id: row.id,
        dedupe_key: 'rc-4-straight',
        event: 'Scanned',
        event_key: null,
        phase_key: null,
        time_text: '2026-03-30T08:00:00Z',
        time_utc: '2026-03-30T08:00:00.000Z',
        timezone: null,
        carrier_name: null,
        location: null,
        additional_info: '{}',
        origin: 'manual',
        sequence: 0,
        created_at: row.updated_at,
      },
    ]);
    expect((await expectFresh('RC-4')).all_events.map((e: { event: string }) => e.event)).toContain('Scanned');

    await repos.documents.insert({
      account_id: caller.accountId,
      document_uuid: randomUUID(),
      shipment_row_id: row.id,
      booking_row_id: null,
      document_id: 'invoice-1',
      name: 'Commercial invoice',
      type: 'invoice',
      file_format: 'pdf',
      content_type: 'application/pdf',
      file_key: null,
      status: 'pending',
      additional_info: '{}',
      created_at: row.updated_at,
      updated_at: row.updated_at,
    });
    expect((await expectFresh('RC-4')).documents.map((d: { document_id: string }) => d.document_id)).toEqual(['invoice-1']);
  });
  /**
   * Columns of a shipment its rendering does not show: updating only these bumps no version (0026's trigger), so the
   * poller's bookkeeping keeps kept renderings. The proof-of-delivery link is made from the row's head for every
   * answer.
   */
  const UNSHOWN: Record<string, unknown> = {
    next_poll_at: '2030-01-01T00:00:00.000Z',
    tracking_started_at: '2030-01-01T00:00:00.000Z',
    last_tracking_update_at: '2030-01-01T00:00:00.000Z',
    poll_deferred_since: '2030-01-01T00:00:00.000Z',
    tracking_digest: 'digest',
    tracking_fingerprint: 'fingerprint',
    push_subscribed_until: '2030-01-01T00:00:00.000Z',
    push_retry_at: '2030-01-01T00:00:00.000Z',
    poll_failures: 7,
    pod_file: JSON.stringify({ key: 'pod/x', reference: 'r', content_type: 'image/png' }),
    webhook_sequence: 99,
  };

  it('shows no column it does not version, and names every column one way or the other', async () => {
    const { repos, database } = t.context;
    const columns =
      database.dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from pragma_table_info('shipments')`.execute(database.db)).rows.map((r) => r.name)
        : (
            await sql<{ name: string }>`select column_name as name from information_schema.columns
              where table_name = 'shipments' and table_schema = current_schema()`.execute(database.db)
          ).rows.map((r) => r.name);
    expect([...columns].sort()).toEqual(['id', 'account_id', ...SHOWN_COLUMNS, ...Object.keys(UNSHOWN)].sort());

    expect((await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment('RC-5'))).statusCode).toBe(200);
    const row = await repos.shipments.findByShipmentId(caller.accountId, 'RC-5');
    if (!row) throw new Error('RC-5 not found');
    const shown = async () => {
      const out: unknown[] = [];
      for (const version of ['v5', 'v5.2'] as const) {
        const { pod_url: _, ...rest } = roundTrip(shipmentObject(await anew.details(caller, { shipment_id: 'RC-5' }, version)));
        out.push(rest);
      }
      return out;
    };
    await expectFresh('RC-5');
    const before = await shown();
    const version = (await repos.shipments.head(caller.accountId, 'shipment_id', 'RC-5'))?.version;
    await repos.shipments.update(row.id, UNSHOWN as never);
    expect(await shown()).toEqual(before);
    expect((await repos.shipments.head(caller.accountId, 'shipment_id', 'RC-5'))?.version).toBe(version);
    // The kept rendering still answers, with the link of the proof of delivery now on file.
    const hits = t.context.shipmentReader.cache.hits;
    const res = await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'RC-5' });
    const { pod_url, ...rest } = res.json().data;
    expect(rest).toEqual(before[1]);
    expect(pod_url).toMatch(/\/files\/pod\//);
    if (megabytes !== '0') expect(t.context.shipmentReader.cache.hits).toBe(hits + 1);
  });
});

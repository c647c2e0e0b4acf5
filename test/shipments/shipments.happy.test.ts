import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { fullShipment } from './fixtures.js';

describe('shipments: what works', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
  });
  afterAll(() => t.close());

  it('creates a shipment with only shipment_id and answers exactly the interface fields', async () => {
    const res = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'min-1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.api_response).toBe('200');
    expect(Object.keys(body.data).sort()).toEqual(['created_date', 'documents', 'order_uuid', 'shipment_uuid']);
    expect(body.data.order_uuid).toBeNull();
    expect(body.data.documents).toEqual([]);
    expect(body.data.shipment_uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.data.created_date).toISOString()).toBe(body.data.created_date);
  });

  it('stores every writable field and returns it in the details', async () => {
    const created = (
      await t.call(
        acct.token,
        'POST',
        '/v5/shipment/',
        fullShipment('full-1', { tracking_number: 'WB2000001', carrier_reference: 'sandbox' }),
      )
    ).json().data;
    expect(created.order_uuid).toMatch(/^[0-9a-f-]{36}$/);
    const v5 = (await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_uuid: created.shipment_uuid })).json().data;
    expect(v5).toMatchObject({
      shipment_uuid: created.shipment_uuid,
      shipment_id: 'full-1',
      shipment_reference: 'REF-1',
      additional_reference: 'ADD-1',
      tracking_number: 'WB2000001',
      carrier_reference: 'sandbox',
      source: 'api',
      status: 'pending',
      current_phase: { name: null, key: null },
      tags: ['vip', 'fragile'],
      notification_email: ['ada@example.com'],
      notification_phone: ['+4915112345678'],
      order: {
        order_uuid: created.order_uuid,
        order_id: 'order-full-1',
        order_reference: 'ORD-REF',
        source_type: 'shopify',
        source_name: 'Main shop',
      },
      shipment_value: { amount: 99.5, currency: 'EUR' },
      cod_value: { amount: 0, currency: 'EUR' },
      dimensions: { length: 30, width: 20, height: 10, unit: 'cm' },
      weight: { amount: 1200, unit: 'g' },
      expected_delivery: { from: '2026-12-01', to: '2026-12-03T18:00:00+01:00' },
      item_count: 2,
      note: 'Leave at the door',
      additional_info: { warehouse: 'B2' },
      all_events: [],
      documents: [],
    });
    expect(v5.carrier).toMatchObject({ id: 'sandbx', name: 'Waybill Sandbox' });
    expect(v5.recipient_address).toMatchObject({
      country: 'Germany',
      country_code: 'DE',
      city: 'Berlin',
      phone: '+49 30 1234567',
      company: null,
    });
    expect(v5.recipient_address.full).toBe('Ada Lovelace, Unter den Linden 1, 10117 Berlin, Germany');
    expect(v5.sender_address).toMatchObject({ country: 'Netherlands', country_code: 'NL' });
    expect(v5.to_address).toBeNull();
    expect(v5.shipping_costs[0]).toEqual({
      name: 'Base',
      reference: 'base',
      unit_quantity: 1,
      unit_cost: { amount: 4.95, currency: 'EUR' },
      total_cost: { amount: 4.95, currency: 'EUR' },
    });
    expect(v5.tracking_page_reference).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(v5.line_items).toBeUndefined();

    const v52 = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'full-1' })).json().data;
    expect(v52.line_items).toHaveLength(2);
    expect(v52.line_items[0]).toMatchObject({ product_name: 'Notes on the Analytical Engine', quantity: 2, return_reason: null });
    expect(v52.line_items[1]).toMatchObject({ quantity: 1, product_origin_country_code: 'GB', additional_info: { colour: 'red' } });
    expect(v52).toMatchObject({
      shipment_type: null,
      returns: null,
      collection_point: null,
      rating: null,
      pod_url: null,
      parcel_recipient_information: 'Ring twice',
    });
  });

  it('returns the v5 key set exactly, and v5.2 adds exactly its fields', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'keys-1' });
    const v5 = (await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: 'keys-1' })).json().data;
    const v52 = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'keys-1' })).json().data;
    expect(Object.keys(v5).sort()).toMatchSnapshot();
    const added = Object.keys(v52)
      .filter((k) => !(k in v5))
      .sort();
    expect(added).toEqual([
      'collection_point',
      'delivery_prediction',
      'line_items',
      'parcel_recipient_information',
      'pod_url',
      'rating',
      'returns',
      'shipment_type',
    ]);
    expect(Object.keys(v5).every((k) => k in v52)).toBe(true);
  });

  it('updates fields, keeps shipment_id, moves updated_date, answers in the version shape', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment('upd-1'));
    t.clock.advance(5000);
    const res = await t.call(
      acct.token,
      'POST',
      '/v5/shipment/update/',
      { note: 'Changed', tags: ['x'], cod_value: null, shipment_id: 'upd-1' },
      { shipment_id: 'upd-1' },
    );
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ shipment_id: 'upd-1', note: 'Changed', tags: ['x'], cod_value: { amount: null, currency: null } });
    expect(data.updated_date > data.created_date).toBe(true);
    expect(data.line_items).toBeUndefined();
    const v52 = await t.call(
      acct.token,
      'POST',
      '/v5-2-0/shipment/update/',
      { line_items: [{ product_name: 'New' }], parcel_recipient_information: null },
      { shipment_id: 'upd-1' },
    );
    expect(v52.statusCode).toBe(200);
    expect(v52.json().data.line_items).toEqual([expect.objectContaining({ product_name: 'New', quantity: 1 })]);
    expect(v52.json().data.parcel_recipient_information).toBeNull();
  });

  it('a new order_id creates a new order; the same order_id links the existing order', async () => {
    const first = (
      await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'ord-1', order_id: 'O-1', order_reference: 'R1' })
    ).json().data;
    const second = (await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'ord-2', order_id: 'O-1' })).json().data;
    expect(second.order_uuid).toBe(first.order_uuid);
    const moved = (await t.call(acct.token, 'POST', '/v5/shipment/update/', { order_id: 'O-2' }, { shipment_id: 'ord-1' })).json().data;
    expect(moved.order.order_uuid).not.toBe(first.order_uuid);
    expect(moved.order).toMatchObject({ order_id: 'O-2', order_reference: null, source_type: null });
    const referenced = (
      await t.call(acct.token, 'POST', '/v5/shipment/update/', { order_reference: 'R2' }, { shipment_id: 'ord-1' })
    ).json().data;
    expect(referenced.order).toMatchObject({ order_id: 'O-2', order_reference: 'R2' });
  });

  it("reads a shipment_uuid sent in capitals as the same uuid, and keeps the merchant's identifiers as sent", async () => {
    const upperId = 'ABCDEF01-2345-4678-9ABC-DEF012345678';
    const created = (await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: upperId })).json().data;
    const capitals = created.shipment_uuid.toUpperCase();
    for (const path of ['/v5/shipment/details/', '/v5-2-0/shipment/details/']) {
      const res = await t.call(acct.token, 'GET', path, undefined, { shipment_uuid: capitals });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.shipment_uuid).toBe(created.shipment_uuid);
      expect(res.json().data.shipment_id).toBe(upperId);
    }
    const updated = await t.call(acct.token, 'POST', '/v5/shipment/update/', { note: 'capitals' }, { shipment_uuid: capitals });
    expect(updated.statusCode, updated.body).toBe(200);
    const events = await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_uuid: capitals,
      events: [{ event: 'Handed over', time: '2026-01-02T10:00:00Z' }],
    });
    expect(events.statusCode, events.body).toBe(200);
    expect(events.json().data.shipment_uuid).toBe(created.shipment_uuid);
    // The merchant's shipment_id is not a uuid field: its case is its own.
    const byLower = await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: upperId.toLowerCase() });
    expect(byLower.statusCode).toBe(404);
  });

  it('clears a list with [], additional_info with {}, and a field that can be null with null', async () => {
    const created = await t.call(acct.token, 'POST', '/v5/shipment/', {
      shipment_id: 'clear-1',
      tags: ['a'],
      notification_email: ['a@example.com'],
      additional_info: { k: 'v' },
      note: 'n',
      weight: { amount: 1, unit: 'g' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const res = await t.call(
      acct.token,
      'POST',
      '/v5/shipment/update/',
      { tags: [], notification_email: [], additional_info: {}, note: null, weight: null },
      { shipment_id: 'clear-1' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const data = (await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: 'clear-1' })).json().data;
    expect(data).toMatchObject({ tags: [], notification_email: [], additional_info: {}, note: null, weight: { amount: null } });
    const refused = await t.call(acct.token, 'POST', '/v5/shipment/update/', { tags: null }, { shipment_id: 'clear-1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({ tags: ['Must be of type array.'] });
  });
});

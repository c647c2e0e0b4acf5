import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IGNORED_FIELDS_HEADER_MAX } from '../../src/http/unknown-fields.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { fullShipment } from '../shipments/fixtures.js';

const MARK = 'vendor-only-value';

/**
 * A create request as a client written for the vendor's API sends it: the interface's fields, and beside
 * them fields the interface does not list, at the top and nested in objects and array items.
 */
function vendorShipment(shipmentId: string): Record<string, unknown> {
  const base = fullShipment(shipmentId) as Record<string, any>;
  return {
    ...base,
    carrier_code: MARK,
    shipment_date: `${MARK}-2027-01-05`,
    origin_country_code: MARK,
    destination_country_code: MARK,
    status: MARK,
    length: 30,
    width: 20,
    height: 10,
    recipient_address: { ...base.recipient_address, address_type: MARK },
    dimensions: { ...base.dimensions, volume: MARK },
    shipping_costs: [{ ...base.shipping_costs[0], tax_rate: MARK }],
    line_items: [{ ...base.line_items[0], colour: MARK }, base.line_items[1]],
  };
}

const VENDOR_ONLY = [
  'carrier_code',
  'shipment_date',
  'origin_country_code',
  'destination_country_code',
  'status',
  'length',
  'width',
  'height',
  'recipient_address.address_type',
  'dimensions.volume',
  'shipping_costs.0.tax_rate',
  'line_items.0.colour',
].sort();

describe('unknown fields in request bodies', () => {
  let t: TestApp;
  let acct: TestAccount;
  const logLines: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp({ logStream });
    acct = await t.account();
  });
  afterAll(() => t.close());

  const ignoredOf = (res: { headers: Record<string, unknown> }) => String(res.headers['waybill-ignored-fields'] ?? '');
  const storedText = async (shipmentId: string) => {
    const db = t.context.database.db;
    const shipment = await db.selectFrom('shipments').selectAll().where('shipment_id', '=', shipmentId).executeTakeFirstOrThrow();
    const order = await db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', shipment.order_row_id as number)
      .executeTakeFirst();
    return JSON.stringify([shipment, order]);
  };

  it("accepts a vendor client's shipment, stores none of the unknown fields and names them in a header", async () => {
    const res = await t.call(acct.token, 'POST', '/v5/shipment/', vendorShipment('vendor-1'));
    expect(res.statusCode).toBe(200);
    expect(ignoredOf(res).split(',').sort()).toEqual(VENDOR_ONLY);

    const stored = await storedText('vendor-1');
    expect(stored).toContain('Notes on the Analytical Engine');
    expect(stored).not.toContain(MARK);
    const details = await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'vendor-1' });
    expect(details.statusCode).toBe(200);
    expect(details.body).not.toContain(MARK);
    // The known fields beside them were all kept, free-form ones included.
    expect(details.json().data).toMatchObject({
      recipient_address: { city: 'Berlin' },
      dimensions: { length: 30, width: 20, height: 10 },
      additional_info: { warehouse: 'B2' },
    });
    expect(details.json().data.line_items[1].additional_info).toEqual({ colour: 'red' });

    const logged = logLines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'unknown request fields ignored');
    expect(logged).toMatchObject({ level: 20, count: VENDOR_ONLY.length });
    expect([...logged.ignored_fields].sort()).toEqual(VENDOR_ONLY);
  });

  it('sends no header when nothing was ignored, and keeps free-form objects as sent', async () => {
    const res = await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment('vendor-2', { additional_info: { carrier_code: 'kept' } }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['waybill-ignored-fields']).toBeUndefined();
    expect(await storedText('vendor-2')).toContain('kept');
  });

  it('ignores them on updates and other endpoints too (v5.2 fields on the v5 path)', async () => {
    const res = await t.call(
      acct.token,
      'POST',
      '/v5/shipment/update/',
      { note: 'updated', line_items: [], colour: MARK },
      { shipment_id: 'vendor-2' },
    );
    expect(res.statusCode).toBe(200);
    expect(ignoredOf(res).split(',').sort()).toEqual(['colour', 'line_items']);
    expect(res.json().data.note).toBe('updated');
    expect(await storedText('vendor-2')).not.toContain(MARK);

    const event = await t.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'vendor-2',
      events: [{ event: 'Sorted', time: '2027-01-05T10:00:00Z', event_source: MARK }],
    });
    expect(event.statusCode, event.body).toBe(200);
    expect(ignoredOf(event)).toBe('events.0.event_source');
  });

  it('still refuses type errors on known fields (4030), naming only them', async () => {
    const res = await t.call(acct.token, 'POST', '/v5/shipment/', { ...vendorShipment('vendor-3'), item_count: 'two' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ api_response: '4030', message: 'validation_error', errors: { item_count: expect.any(Array) } });
    expect((await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: 'vendor-3' })).statusCode).toBe(404);
  });

  it('writes odd field names so the header stays one safe line, and cuts a long list', async () => {
    const odd = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'vendor-4', 'a,b.c\r\nd': 1, größe: 2 });
    expect(odd.statusCode).toBe(200);
    expect(ignoredOf(odd).split(',').sort()).toEqual(['a%2Cb%2Ec%0D%0Ad', 'gr%C3%B6%C3%9Fe']);
    // A lone surrogate is legal in JSON text (an escape) but no character: refused before any field is read
    // (test/http/request-format.test.ts), so no header ever has to write one.
    const surrogate = await t.app.inject({
      method: 'POST',
      url: '/v5/shipment/',
      headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'application/json' },
      payload: '{"shipment_id":"vendor-4b","x\\ud800":1}',
    });
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json().api_response).toBe('4000');
    expect(surrogate.headers['waybill-ignored-fields']).toBeUndefined();

    // A blank key has no characters to encode: written as a quoted empty string, as a list element of HTTP may be.
    const blank = await t.call(acct.token, 'POST', '/v5/shipment/', {
      shipment_id: 'vendor-4c',
      '': 1,
      recipient_address: { ...(fullShipment('vendor-4c') as Record<string, any>).recipient_address, '': 2 },
    });
    expect(blank.statusCode, blank.body).toBe(200);
    expect(ignoredOf(blank).split(',').sort()).toEqual(['""', 'recipient_address.""']);
    expect(await storedText('vendor-4c')).not.toContain('"":');

    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`vendor_field_number_${i}`, i]));
    const res = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'vendor-5', ...many });
    expect(res.statusCode).toBe(200);
    const header = ignoredOf(res);
    expect(header.length).toBeLessThanOrEqual(IGNORED_FIELDS_HEADER_MAX);
    const parts = header.split(',');
    const listed = parts.slice(0, -1);
    expect(listed.every((part) => /^vendor_field_number_\d+$/.test(part))).toBe(true);
    expect(parts.at(-1)).toBe(`+${300 - listed.length}`);
  });

  it('refuses them for an account with strict_fields, set through the admin API', async () => {
    const strict = await t.account();
    const patched = await t.admin('PATCH', `/admin/v1/accounts/${strict.accountUuid}/`, { strict_fields: true });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().strict_fields).toBe(true);
    expect((await t.admin('GET', `/admin/v1/accounts/${strict.accountUuid}/`)).json().strict_fields).toBe(true);

    const res = await t.call(strict.token, 'POST', '/v5/shipment/', vendorShipment('strict-1'));
    expect(res.statusCode).toBe(400);
    expect(res.headers['waybill-ignored-fields']).toBeUndefined();
    const body = res.json();
    expect(body.api_response).toBe('4030');
    expect(body.errors.carrier_code).toEqual(['Unknown field.']);
    expect(body.errors.line_items['0'].colour).toEqual(['Unknown field.']);
    expect(body.errors.recipient_address.address_type).toEqual(['Unknown field.']);

    // And back: the change applies from the next request.
    await t.admin('PATCH', `/admin/v1/accounts/${strict.accountUuid}/`, { strict_fields: false });
    expect((await t.call(strict.token, 'POST', '/v5/shipment/', vendorShipment('strict-1'))).statusCode).toBe(200);
  });

  it('creates accounts lenient unless asked, and refuses a setting that is not a boolean', async () => {
    const created = await t.admin('POST', '/admin/v1/accounts/', { name: 'strict shop', strict_fields: true });
    expect(created.statusCode).toBe(201);
    expect(created.json().strict_fields).toBe(true);
    expect((await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/`)).json().strict_fields).toBe(false);
    const bad = await t.admin('PATCH', `/admin/v1/accounts/${acct.accountUuid}/`, { strict_fields: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ strict_fields: ['Must be of type boolean.'] });
  });
});

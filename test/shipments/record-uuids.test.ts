import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from '../returns/fixtures.js';

// Shipments, orders and returns get time-ordered (version 7) UUIDs: new keys land at the right edge of their
// unique indexes. The tracking page's reference stays random.
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisecondsOf = (uuid: string) => Number.parseInt(uuid.replaceAll('-', '').slice(0, 12), 16);

describe('the UUIDs of created records', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['returns'], carriers: [{ carrier_reference: 'sb', booking: ['return'] }] });
  });
  afterAll(() => t.close());

  it('are version 7, carry the time of the create and grow from one create to the next', async () => {
    const before = Date.now();
    const shipments: string[] = [];
    const orders: string[] = [];
    for (let k = 0; k < 5; k++) {
      const res = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: `uuid-${k}`, order_id: `uuid-order-${k}` });
      expect(res.statusCode, res.body).toBe(200);
      shipments.push(res.json().data.shipment_uuid);
      orders.push(res.json().data.order_uuid);
    }
    const after = Date.now();
    for (const uuid of [...shipments, ...orders]) {
      expect(uuid).toMatch(V7);
      expect(millisecondsOf(uuid)).toBeGreaterThanOrEqual(before);
      expect(millisecondsOf(uuid)).toBeLessThanOrEqual(after);
    }
    expect([...shipments].sort()).toEqual(shipments);
    expect([...orders].sort()).toEqual(orders);
    expect(new Set(shipments).size).toBe(5);
  });

  it('are version 7 for the rows of an import, in the order of its rows', async () => {
    const csv = ['shipment_id,order_id', ...Array.from({ length: 6 }, (_, k) => `imp-uuid-${k},imp-order-${k}`)].join('\n');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v5/shipment/import/',
      headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.json().data, res.body).toMatchObject({ created: 6 });
    const uuids: string[] = [];
    for (let k = 0; k < 6; k++) {
      const details = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: `imp-uuid-${k}` })).json()
        .data;
      expect(details.shipment_uuid).toMatch(V7);
      expect(details.order.order_uuid).toMatch(V7);
      expect(details.tracking_page_reference ?? '').not.toMatch(V7);
      uuids.push(details.shipment_uuid);
    }
    expect([...uuids].sort()).toEqual(uuids);
  });

  it('are version 7 for a return ticket and its shipment', async () => {
    const res = await t.call(acct.token, 'POST', '/v5/return/', standardReturn('uuid-return'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.return_ticket.return_uuid).toMatch(V7);
    expect(res.json().data.shipment.shipment_uuid).toMatch(V7);
  });
});

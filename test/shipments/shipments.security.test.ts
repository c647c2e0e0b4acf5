import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('shipments: what an outsider gets', () => {
  let t: TestApp;
  let owner: TestAccount;
  let outsider: TestAccount;
  let shipmentUuid: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.account({ carriers: [{ carrier_reference: 'mine' }] });
    outsider = await t.account();
    shipmentUuid = (await t.call(owner.token, 'POST', '/v5/shipment/', { shipment_id: 'secret-1', order_id: 'O-secret' })).json().data
      .shipment_uuid;
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/v5/shipment/details/'],
    ['GET', '/v5-2-0/shipment/details/'],
  ])('%s %s: another account gets 404', async (method, url) => {
    for (const query of [{ shipment_uuid: shipmentUuid }, { shipment_id: 'secret-1' }] as Record<string, string>[]) {
      const res = await t.call(outsider.token, method as 'GET', url, undefined, query);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('secret-1');
    }
  });

  it('another account cannot update, and its update changes nothing', async () => {
    const res = await t.call(outsider.token, 'POST', '/v5/shipment/update/', { note: 'hijacked' }, { shipment_uuid: shipmentUuid });
    expect(res.statusCode).toBe(404);
    const mine = (await t.call(owner.token, 'GET', '/v5/shipment/details/', undefined, { shipment_uuid: shipmentUuid })).json().data;
    expect(mine.note).toBeNull();
  });

  it('another account cannot add events', async () => {
    const res = await t.call(outsider.token, 'POST', '/v5/events/create/', {
      shipment_uuid: shipmentUuid,
      events: [{ event: 'x', time: '2026-01-01' }],
    });
    expect(res.statusCode).toBe(404);
  });

  it("the list never shows another account's shipments, and the same shipment_id may exist in both", async () => {
    expect((await t.call(outsider.token, 'GET', '/v5/shipment/list/')).statusCode).toBe(404);
    expect((await t.call(outsider.token, 'POST', '/v5/shipment/', { shipment_id: 'secret-1', order_id: 'O-secret' })).statusCode).toBe(200);
    const list = (await t.call(outsider.token, 'GET', '/v5/shipment/list/')).json();
    expect(list.data).toHaveLength(1);
    expect(list.data[0].shipment_uuid).not.toBe(shipmentUuid);
  });

  it("another account's carrier_reference is not configured for me", async () => {
    const res = await t.call(outsider.token, 'POST', '/v5/shipment/', {
      shipment_id: 'x-1',
      tracking_number: 'WB2',
      carrier_reference: 'mine',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.carrier_reference).toBeDefined();
  });

  it('refuses every shipment endpoint without a token', async () => {
    for (const [method, url] of [
      ['POST', '/v5/shipment/'],
      ['POST', '/v5/shipment/update/'],
      ['POST', '/v5-2-0/shipment/update/'],
      ['GET', '/v5/shipment/list/'],
      ['GET', '/v5/shipment/details/'],
      ['GET', '/v5-2-0/shipment/details/'],
      ['POST', '/v5/events/create/'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ api_response: 403, message: 'Key not authorized' });
    }
  });
});

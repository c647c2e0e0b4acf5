import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from './fixtures.js';

describe('POST /v5/return/', () => {
  let t: TestApp;
  let acct: TestAccount;
  let n = 0;
  const nextId = () => `RET-${++n}`;
  const countReturns = async () => (await t.context.database.db.selectFrom('returns').select('id').execute()).length;

  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['returns'], carriers: [{ carrier_reference: 'sb', booking: ['return'] }] });
  });
  afterAll(() => t.close());

  const post = (body: unknown, token = acct.token) => t.call(token, 'POST', '/v5/return/', body);

  it('creates a ticket and its return shipment (standard flow)', async () => {
    const id = nextId();
    const res = await post(standardReturn(id));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['api_response', 'data']);
    expect(body.data.shipment).toEqual({
      shipment_uuid: expect.any(String),
      order_uuid: null,
      documents: [],
      created_date: expect.any(String),
    });
    expect(body.data.return_ticket).toEqual({
      return_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      return_id: `RMA-${id}`,
      return_status: 'pending',
      requested_date: expect.any(String),
      created_date: expect.any(String),
      updated_date: expect.any(String),
    });
    const details = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: id })).json().data;
    expect(details.shipment_type).toBe('return');
    expect(details.returns).toMatchObject({
      id: body.data.return_ticket.return_uuid,
      return_id: `RMA-${id}`,
      return_status: 'pending approval',
      total_refund_amount: '45.50',
      refund_is_calculated: true,
      refund_method: 'original_payment',
      return_method: 'drop_off',
      comment: 'Too small',
      cost_is_calculated: true,
      return_proofs: [],
      booking_id: null,
    });
    expect(details.line_items.map((i: { return_reason: string }) => i.return_reason)).toEqual(['Too small', 'Changed my mind']);
    expect(details.to_address.company).toBe('Acme returns');
    expect(details.from_address.country_code).toBe('FR');
    const v5 = (await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: id })).json().data;
    expect(v5.returns).toBeUndefined();
    expect(v5.shipment_type).toBeUndefined();
  });

  it('needs the returns feature', async () => {
    const plain = await t.account();
    const res = await post(standardReturn(nextId()), plain.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ api_response: '4033', message: 'Feature not enabled: returns' });
    // Before the body is read: such an account learns that first, whatever it sends.
    for (const [url, body] of [
      ['/v5/return/', {}],
      ['/v5/return/', { shipment: 'not an object', colour: 'red' }],
      ['/v5/return/update/', { return_id: 5 }],
    ] as const) {
      const refused = await t.call(plain.token, 'POST', url, body);
      expect(refused.statusCode, `${url} ${JSON.stringify(body)}`).toBe(403);
      expect(refused.json()).toEqual({ api_response: '4033', message: 'Feature not enabled: returns' });
    }
  });

  it.each([
    ['no return_ticket without the preprinted setting', (b: any) => ({ shipment: b.shipment }), ['return_ticket']],
    ['no line items', (b: any) => ({ ...b, shipment: { ...b.shipment, line_items: [] } }), ['shipment', 'line_items']],
    [
      'tracking_number in the standard flow',
      (b: any) => ({ ...b, shipment: { ...b.shipment, tracking_number: 'WB2' } }),
      ['shipment', 'tracking_number'],
    ],
    [
      'carrier_reference in the standard flow',
      (b: any) => ({ ...b, shipment: { ...b.shipment, carrier_reference: 'sb' } }),
      ['shipment', 'carrier_reference'],
    ],
    ['an unknown refund_method', (b: any) => ({ ...b, return_ticket: { refund_method: 'cash' } }), ['return_ticket', 'refund_method']],
    ['an unknown return_method', (b: any) => ({ ...b, return_ticket: { return_method: 'pigeon' } }), ['return_ticket', 'return_method']],
    [
      'a bad line item',
      (b: any) => ({ ...b, shipment: { ...b.shipment, line_items: [{ quantity: 0 }] } }),
      ['shipment', 'line_items', '0', 'quantity'],
    ],
    [
      'a bad address',
      (b: any) => ({ ...b, shipment: { ...b.shipment, from_address: { country_code: 'QQ' } } }),
      ['shipment', 'from_address', 'country_code'],
    ],
    ['no shipment_id', (b: any) => ({ ...b, shipment: { ...b.shipment, shipment_id: undefined } }), ['shipment', 'shipment_id']],
  ])('refuses %s and stores nothing', async (_name, change, path) => {
    const before = await countReturns();
    const res = await post(change(standardReturn(nextId())));
    expect(res.statusCode, res.body).toBe(400);
    let node = res.json().errors;
    for (const key of path) node = node?.[key];
    expect(Array.isArray(node), res.body).toBe(true);
    expect(await countReturns()).toBe(before);
  });

  it('refuses an unknown field for an account with strict_fields and stores nothing; ignores it otherwise', async () => {
    const strict = await t.account({ features: ['returns'], carriers: [{ carrier_reference: 'sb', booking: ['return'] }] });
    await t.admin('PATCH', `/admin/v1/accounts/${strict.accountUuid}/`, { strict_fields: true });
    const before = await countReturns();
    const refused = await post({ ...standardReturn(nextId()), colour: 1 }, strict.token);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errors).toEqual({ colour: ['Unknown field.'] });
    expect(await countReturns()).toBe(before);

    const ignored = await post({ ...standardReturn(nextId()), colour: 1 });
    expect(ignored.statusCode, ignored.body).toBe(200);
    expect(ignored.headers['waybill-ignored-fields']).toBe('colour');
  });

  it('refuses amounts past twelve digits before the point, which no decimal string of two places shows', async () => {
    const id = nextId();
    const body = standardReturn(id);
    const before = await countReturns();
    const huge = await post({ ...body, return_ticket: { ...body.return_ticket, total_refund_amount: 1e300 } });
    expect(huge.statusCode, huge.body).toBe(400);
    expect(Object.keys(huge.json().errors)).toEqual(['return_ticket']);
    expect(Object.keys(huge.json().errors.return_ticket)).toEqual(['total_refund_amount']);
    const [shirt, socks] = body.shipment.line_items;
    const cost = await post({ ...body, shipment: { ...body.shipment, line_items: [{ ...shirt, product_cost: 1e300 }, socks] } });
    expect(cost.statusCode, cost.body).toBe(400);
    expect(cost.json().errors).toEqual({ shipment: { line_items: { '0': { product_cost: [expect.any(String)] } } } });
    expect(await countReturns()).toBe(before);
    const largest = await post({ ...body, return_ticket: { ...body.return_ticket, total_refund_amount: 999_999_999_999.99 } });
    expect(largest.statusCode, largest.body).toBe(200);
    const details = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: id })).json().data;
    expect(details.returns.total_refund_amount).toBe('999999999999.99');
  });

  it('reads line item prices sent as null as left out when it calculates the refund', async () => {
    const id = nextId();
    const body = standardReturn(id);
    const [shirt, socks] = body.shipment.line_items;
    const res = await post({
      ...body,
      shipment: {
        ...body.shipment,
        line_items: [
          { ...shirt, quantity: null, total_price: null },
          { ...socks, product_cost: null, product_id: null },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const details = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: id })).json().data;
    // 20 × 1 (no quantity is one) + 5.50.
    expect(details.returns).toMatchObject({ total_refund_amount: '25.50', refund_is_calculated: true });
    expect(details.line_items.map((item: { quantity: number }) => item.quantity)).toEqual([1, 1]);
  });

  it('refuses a return_id already used in the account', async () => {
    const first = standardReturn(nextId());
    expect((await post(first)).statusCode).toBe(200);
    const second = standardReturn(nextId(), { return_ticket: { return_id: first.return_ticket.return_id } });
    const res = await post(second);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.return_ticket.return_id).toBeDefined();
  });

  it('warns when the order is unknown or an item matches no item of the order', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', {
      shipment_id: 'OUT-1',
      order_id: 'ORD-77',
      line_items: [{ product_name: 'Shirt', product_id: 'P-1' }],
    });
    const withOrder = standardReturn(nextId());
    (withOrder.shipment as Record<string, unknown>).order_id = 'ORD-77';
    const res = await post(withOrder);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.api_response).toBe('200');
    expect(body.warnings.shipment.line_items['1']).toBeDefined();
    expect(body.warnings.shipment.line_items['0']).toBeUndefined();
    expect(body.data.shipment.order_uuid).toMatch(/^[0-9a-f-]{36}$/);

    const unknownOrder = standardReturn(nextId());
    (unknownOrder.shipment as Record<string, unknown>).order_id = 'ORD-NONE';
    const res2 = await post(unknownOrder);
    expect(res2.json().warnings.shipment.order_id).toBeDefined();
    expect(res2.json().data.shipment.order_uuid).toBeNull();
  });
});

describe('preprinted-label flow', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is refused without the account setting', async () => {
    const acct = await t.account({ features: ['returns'] });
    const res = await t.call(acct.token, 'POST', '/v5/return/', {
      shipment: { shipment_id: 'PP-0', tracking_number: 'WB2000009', carrier_reference: 'sb' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.return_ticket).toBeDefined();
  });

  it('needs tracking data when the booking is not used, then tracks the return at once', async () => {
    const acct = await t.account({ features: ['returns', 'preprinted_return_labels'], carriers: [{ carrier_reference: 'sb' }] });
    const missing = await t.call(acct.token, 'POST', '/v5/return/', { shipment: { shipment_id: 'PP-1' } });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().errors.shipment).sort()).toEqual(['carrier_reference', 'tracking_number']);
    const halfway = await t.call(acct.token, 'POST', '/v5/return/', { shipment: { shipment_id: 'PP-1', tracking_number: 'WB2000010' } });
    expect(halfway.json().errors.shipment.carrier_reference).toBeDefined();

    const res = await t.call(acct.token, 'POST', '/v5/return/', {
      shipment: { shipment_id: 'PP-1', tracking_number: 'WB2000010', carrier_reference: 'sb' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.return_ticket.return_status).toBe('pending');
    await t.context.worker.runOnce();
    const details = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'PP-1' })).json().data;
    expect(details.status).toBe('active');
    expect(details.returns.return_status).toBe('shipping');
  });

  it('may leave tracking data to the booking when the account books', async () => {
    const acct = await t.account({ features: ['returns', 'preprinted_return_labels', 'booking'] });
    const res = await t.call(acct.token, 'POST', '/v5/return/', { shipment: { shipment_id: 'PP-2' } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a delivered return shipment completes the return', async () => {
    const acct = await t.account({ features: ['returns', 'preprinted_return_labels'], carriers: [{ carrier_reference: 'sb' }] });
    await t.call(acct.token, 'POST', '/v5/return/', {
      shipment: { shipment_id: 'PP-3', tracking_number: 'WB4000010', carrier_reference: 'sb' },
    });
    await t.context.worker.runOnce();
    const details = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'PP-3' })).json().data;
    expect(details.returns.return_status).toBe('completed');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { fullShipment } from './fixtures.js';

describe('shipments: what bad input gets', () => {
  let t: TestApp;
  let acct: TestAccount;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
    // Unknown fields are refused only for accounts that ask for it (test/http/unknown-fields.test.ts).
    await t.admin('PATCH', `/admin/v1/accounts/${acct.accountUuid}/`, { strict_fields: true });
  });
  afterAll(() => t.close());

  const create = (overrides: Record<string, unknown>) => t.call(acct.token, 'POST', '/v5/shipment/', fullShipment(`bad-${++n}`, overrides));
  const count = async () =>
    Number(
      (
        await t.context.database.db
          .selectFrom('shipments')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function expectRefused(overrides: Record<string, unknown>, errorPath: string[]): Promise<unknown> {
    const before = await count();
    const res = await create(overrides);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body.api_response).toBe('4030');
    expect(body.message).toBe('validation_error');
    let node = body.errors;
    for (const key of errorPath) {
      expect(node, `errors at ${errorPath.join('.')} in ${res.body}`).toHaveProperty([key]);
      node = node[key];
    }
    expect(Array.isArray(node)).toBe(true);
    expect(await count()).toBe(before);
    return node;
  }

  it.each([
    ['shipment_id missing', { shipment_id: undefined }, ['shipment_id']],
    ['shipment_id over 50', { shipment_id: 'x'.repeat(51) }, ['shipment_id']],
    ['unknown field (strict account)', { colour: 'blue' }, ['colour']],
    [
      'unknown address field',
      { recipient_address: { city: 'Berlin', country_code: 'DE', planet: 'Earth' } },
      ['recipient_address', 'planet'],
    ],
    [
      'address first_name over 150',
      { recipient_address: { first_name: 'a'.repeat(151), country_code: 'DE' } },
      ['recipient_address', 'first_name'],
    ],
    [
      'address postal_code over 25',
      { recipient_address: { postal_code: '1'.repeat(26), country_code: 'DE' } },
      ['recipient_address', 'postal_code'],
    ],
    ['country_code not two letters', { recipient_address: { country_code: 'DEU' } }, ['recipient_address', 'country_code']],
    ['country_code not ISO', { recipient_address: { country_code: 'XX' } }, ['recipient_address', 'country_code']],
    ['country name unknown', { recipient_address: { country: 'Atlantis' } }, ['recipient_address', 'country']],
    ['no country at all', { recipient_address: { city: 'Berlin' } }, ['recipient_address', 'country_code']],
    ['country and code disagree', { recipient_address: { country: 'France', country_code: 'DE' } }, ['recipient_address', 'country']],
    ['email invalid', { recipient_address: { email: 'not-an-email', country_code: 'DE' } }, ['recipient_address', 'email']],
    ['phone without +', { recipient_address: { phone: '030 1234567', country_code: 'DE' } }, ['recipient_address', 'phone']],
    ['fax with letters', { sender_address: { fax: '+31abc', country_code: 'NL' } }, ['sender_address', 'fax']],
    ['fax over 15 digits', { sender_address: { fax: '+1234567890123456', country_code: 'NL' } }, ['sender_address', 'fax']],
    ['notification phone invalid', { notification_phone: ['+4915112345678', '12'] }, ['notification_phone', '1']],
    ['notification email invalid', { notification_email: ['nope'] }, ['notification_email', '0']],
    ['negative money', { shipment_value: { amount: -1, currency: 'EUR' } }, ['shipment_value', 'amount']],
    ['unknown currency', { cod_value: { amount: 1, currency: 'ABC' } }, ['cod_value', 'currency']],
    [
      'shipping cost currency',
      { shipping_costs: [{ name: 'x', total_cost: { amount: 1, currency: 'EURO' } }] },
      ['shipping_costs', '0', 'total_cost', 'currency'],
    ],
    ['dimensions in inches', { dimensions: { length: 1, width: 1, height: 1, unit: 'in' } }, ['dimensions', 'unit']],
    ['weight in kg', { weight: { amount: 1, unit: 'kg' } }, ['weight', 'unit']],
    ['item_count negative', { item_count: -1 }, ['item_count']],
    ['string as number', { item_count: '2' }, ['item_count']],
    ['expected delivery not a time', { expected_delivery: { from: 'soon' } }, ['expected_delivery', 'from']],
    ['expected delivery reversed', { expected_delivery: { from: '2026-12-05', to: '2026-12-01' } }, ['expected_delivery', 'to']],
    ['line item quantity 0', { line_items: [{ product_name: 'a' }, { quantity: 0 }] }, ['line_items', '1', 'quantity']],
    ['line item quantity over 1,000,000', { line_items: [{ quantity: 1_000_001 }] }, ['line_items', '0', 'quantity']],
    ['line item product_name over 500', { line_items: [{ product_name: 'p'.repeat(501) }] }, ['line_items', '0', 'product_name']],
    ['line item hs_code over 20', { line_items: [{ hs_code: '1'.repeat(21) }] }, ['line_items', '0', 'hs_code']],
    ['line item image url', { line_items: [{ product_image_url: 'not a url' }] }, ['line_items', '0', 'product_image_url']],
    ['line item javascript: url', { line_items: [{ product_url: 'javascript:alert(1)' }] }, ['line_items', '0', 'product_url']],
    ['line item file: image url', { line_items: [{ product_image_url: 'file:///etc/passwd' }] }, ['line_items', '0', 'product_image_url']],
    [
      'line item data: image url',
      { line_items: [{}, { product_image_url: 'data:image/png;base64,iVBORw0KGgo=' }] },
      ['line_items', '1', 'product_image_url'],
    ],
    ['line item url without a host', { line_items: [{ product_url: 'https:///path' }] }, ['line_items', '0', 'product_url']],
    ['line item url with a port only', { line_items: [{ product_url: 'https://:80/' }] }, ['line_items', '0', 'product_url']],
    [
      'line item url with a port past 65535',
      { line_items: [{ product_url: 'http://example.com:99999/' }] },
      ['line_items', '0', 'product_url'],
    ],
    ['line item negative cost', { line_items: [{ product_cost: -0.01 }] }, ['line_items', '0', 'product_cost']],
    ['line item weight unit over 5', { line_items: [{ product_weight_unit: 'pounds' }] }, ['line_items', '0', 'product_weight_unit']],
    [
      'line item origin country',
      { line_items: [{ product_origin_country_code: 'ZZ' }] },
      ['line_items', '0', 'product_origin_country_code'],
    ],
    [
      'line items mixed currencies',
      { line_items: [{ currency_code: 'EUR' }, { currency_code: 'USD' }] },
      ['line_items', '1', 'currency_code'],
    ],
    [
      'line item custom key over 50',
      { line_items: [{ additional_info: { ['k'.repeat(51)]: 'v' } }] },
      ['line_items', '0', 'additional_info', 'k'.repeat(51)],
    ],
    [
      'line item custom value over 150',
      { line_items: [{ additional_info: { k: 'v'.repeat(151) } }] },
      ['line_items', '0', 'additional_info', 'k'],
    ],
    ['too many line items', { line_items: Array.from({ length: 1001 }, () => ({ quantity: 1 })) }, ['line_items']],
    ['unconfigured carrier_reference', { tracking_number: 'WB2', carrier_reference: 'nope' }, ['carrier_reference']],
    ['carrier_reference over 50', { carrier_reference: 'c'.repeat(51) }, ['carrier_reference']],
    [
      'linked shipment carrier',
      { linked_shipments: [{ tracking_number: 'A', carrier_reference: 'nope' }] },
      ['linked_shipments', '0', 'carrier_reference'],
    ],
    ['order_reference without order', { order_id: undefined, order_reference: 'R' }, ['order_reference']],
    ['tags not strings', { tags: [1] }, ['tags', '0']],
  ])('refuses %s and stores nothing', async (_name, overrides, path) => {
    await expectRefused(overrides, path);
  });

  it('accepts the boundary values', async () => {
    const res = await create({
      shipment_id: 'b'.repeat(50),
      recipient_address: { first_name: 'a'.repeat(150), postal_code: '1'.repeat(25), country_code: 'de', fax: '+123456789012345' },
      line_items: [{ quantity: 1_000_000, product_cost: 0, additional_info: { ['k'.repeat(50)]: 'v'.repeat(150) } }],
      item_count: 0,
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('counts characters, not UTF-16 units, against a length limit', async () => {
    // 😀 is one character in two UTF-16 units: 150 of them are 300 units.
    const atLimit = await create({ recipient_address: { first_name: '😀'.repeat(150), country_code: 'DE' } });
    expect(atLimit.statusCode, atLimit.body).toBe(200);
    const shown = await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_uuid: atLimit.json().data.shipment_uuid });
    expect(shown.json().data.recipient_address.first_name).toBe('😀'.repeat(150));
    const errors = await expectRefused({ recipient_address: { first_name: `${'😀'.repeat(150)}a`, country_code: 'DE' } }, [
      'recipient_address',
      'first_name',
    ]);
    expect(errors).toEqual(['Ensure this field has no more than 150 characters.']);
  });

  it('reports several problems at once, nested and by position', async () => {
    const res = await create({
      shipment_id: '',
      recipient_address: { country_code: 'XXX', email: 'bad' },
      line_items: [{ quantity: 1 }, { quantity: 0, currency_code: 'EURO' }],
    });
    const errors = res.json().errors;
    expect(errors.shipment_id).toBeDefined();
    expect(errors.recipient_address.country_code).toBeDefined();
    expect(errors.recipient_address.email).toBeDefined();
    expect(errors.line_items['1'].quantity).toBeDefined();
    expect(errors.line_items['1'].currency_code).toBeDefined();
    expect(errors.line_items['0']).toBeUndefined();
  });

  it('refuses a duplicate shipment_id in the account', async () => {
    expect((await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'dup-1' })).statusCode).toBe(200);
    const again = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'dup-1' });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.shipment_id[0]).toMatch(/already exists/);
  });

  it('names a duplicate shipment_id beside the other errors, and keeps nothing of a refused create', async () => {
    expect((await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'dup-2', order_id: 'O-dup-2' })).statusCode).toBe(200);
    const both = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'dup-2', recipient_address: { phone: '+999 1' } });
    expect(both.statusCode).toBe(400);
    expect(both.json().errors.shipment_id[0]).toMatch(/already exists/);
    expect(both.json().errors.recipient_address.phone).toBeDefined();
    // Refused by the insert, after the order was written: the order is not kept either.
    const again = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'dup-2', order_id: 'O-dup-3', tags: ['gone'] });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.shipment_id[0]).toMatch(/already exists/);
    const byOrder = await t.call(acct.token, 'GET', '/v5/shipment/list/', undefined, { order_id: 'O-dup-3' });
    expect(byOrder.statusCode).toBe(404);
    const byTag = await t.call(acct.token, 'GET', '/v5/shipment/list/', undefined, { tag: 'gone' });
    expect(byTag.statusCode).toBe(404);
  });

  it('refuses concurrent creates of one shipment_id but one', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'race-1' })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(4);
  });

  it('answers malformed JSON with 4000', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v5/shipment/',
      headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'application/json' },
      payload: '{"shipment_id": "x"',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4000');
  });

  describe('details', () => {
    it('needs an identifier', async () => {
      const res = await t.call(acct.token, 'GET', '/v5/shipment/details/');
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.shipment_uuid).toBeDefined();
    });
    it('refuses a malformed uuid', async () => {
      const res = await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid: 'nope' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.shipment_uuid).toBeDefined();
    });
    it('answers 404 4041 when nothing matches', async () => {
      const res = await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: 'never-created' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ api_response: '4041' });
    });
    it('refuses a uuid and an id that name different shipments', async () => {
      const a = (await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'pair-a' })).json().data;
      await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'pair-b' });
      const res = await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, {
        shipment_uuid: a.shipment_uuid,
        shipment_id: 'pair-b',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.shipment_id).toBeDefined();
    });
  });

  describe('update', () => {
    it('refuses changing shipment_id and stores nothing', async () => {
      await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'fixed-1', note: 'before' });
      const res = await t.call(
        acct.token,
        'POST',
        '/v5/shipment/update/',
        { shipment_id: 'fixed-2', note: 'after' },
        { shipment_id: 'fixed-1' },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.shipment_id).toBeDefined();
      const details = (await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: 'fixed-1' })).json().data;
      expect(details.note).toBe('before');
    });
    it('refuses v5.2 fields on the v5 path', async () => {
      await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'ver-1' });
      const res = await t.call(acct.token, 'POST', '/v5/shipment/update/', { line_items: [] }, { shipment_id: 'ver-1' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.line_items).toEqual(['Unknown field.']);
    });
    it('refuses order_reference when the shipment has no order', async () => {
      await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'noorder-1' });
      const res = await t.call(acct.token, 'POST', '/v5/shipment/update/', { order_reference: 'R' }, { shipment_id: 'noorder-1' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.order_reference).toBeDefined();
    });
    it('answers 404 for an unknown shipment', async () => {
      const res = await t.call(acct.token, 'POST', '/v5/shipment/update/', { note: 'x' }, { shipment_id: 'ghost' });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('blank values', () => {
    const details = async (shipmentId: string) =>
      (await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: shipmentId })).json().data;

    it('refuses a shipment_id of spaces only, and stores nothing', async () => {
      const before = await count();
      const res = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: '   ' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({ shipment_id: ['This field may not be blank.'] });
      expect(await count()).toBe(before);
    });

    it('reads a blank tracking_number or carrier_reference as none, on create and on update', async () => {
      const both = await t.call(acct.token, 'POST', '/v5/shipment/', {
        shipment_id: 'blank-both',
        tracking_number: '',
        carrier_reference: ' ',
      });
      expect(both.statusCode, both.body).toBe(200);
      expect(await details('blank-both')).toMatchObject({ tracking_number: null, carrier_reference: null });

      // A blank carrier is no carrier: the number is routed as if none were given.
      for (const [id, extra] of [
        ['blank-carrier', { carrier_reference: '' }],
        ['no-carrier', {}],
      ] as const) {
        const res = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: id, tracking_number: 'WB4000002', ...extra });
        expect(res.statusCode, res.body).toBe(200);
      }
      const blankCarrier = await details('blank-carrier');
      const noCarrier = await details('no-carrier');
      expect(blankCarrier.carrier_reference).toBe(noCarrier.carrier_reference);
      expect(blankCarrier.tracking_number).toBe('WB4000002');

      const updated = await t.call(acct.token, 'POST', '/v5/shipment/update/', { tracking_number: '' }, { shipment_id: 'blank-carrier' });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(await details('blank-carrier')).toMatchObject({ tracking_number: null });
    });

    it('reads a blank order_id as none: a create makes no order, an update unlinks it, order fields without one are refused', async () => {
      const created = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'blank-order', order_id: '   ' });
      expect(created.statusCode, created.body).toBe(200);
      expect(await details('blank-order')).toMatchObject({ order: null });
      const withReference = await t.call(acct.token, 'POST', '/v5/shipment/', {
        shipment_id: 'blank-order-ref',
        order_id: '',
        order_reference: 'R-1',
      });
      expect(withReference.statusCode).toBe(400);
      expect(Object.keys(withReference.json().errors)).toEqual(['order_reference']);

      await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'linked-order', order_id: 'O-blank-1' });
      expect(await details('linked-order')).toMatchObject({ order: { order_id: 'O-blank-1' } });
      const unlinked = await t.call(acct.token, 'POST', '/v5/shipment/update/', { order_id: ' ' }, { shipment_id: 'linked-order' });
      expect(unlinked.statusCode, unlinked.body).toBe(200);
      expect(await details('linked-order')).toMatchObject({ order: null });
      const byBlank = await t.call(acct.token, 'GET', '/v5/shipment/list/', undefined, { order_id: '   ' });
      expect(byBlank.statusCode).toBe(404);
    });
  });
});

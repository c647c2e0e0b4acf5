import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from '../returns/fixtures.js';

/** A field that may be null reports only what is wrong with the value sent, never "Must be of type null.". */
describe('errors on nullable fields', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['returns'], carriers: [{ carrier_reference: 'sandbox' }] });
    const created = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'existing', carrier_reference: 'sandbox' });
    expect(created.statusCode, created.body).toBe(200);
  });
  afterAll(() => t.close());

  const wrong = {
    recipient_address: { email: 'not-an-email' },
    shipment_value: { amount: -1, currency: 'EUR' },
    weight: 'heavy',
    item_count: 'many',
    note: 5,
  };
  const expected = {
    recipient_address: { email: ['Enter a valid email address.'] },
    shipment_value: { amount: ['Ensure this value is greater than or equal to 0.'] },
    weight: ['Must be of type object or null.'],
    item_count: ['Must be of type integer or null.'],
    note: ['Must be of type string or null.'],
  };

  it('on create', async () => {
    const res = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'new', ...wrong });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ api_response: '4030', message: 'validation_error', errors: expected });
  });

  it('on both updates', async () => {
    for (const prefix of ['/v5', '/v5-2-0']) {
      const res = await t.call(acct.token, 'POST', `${prefix}/shipment/update/`, wrong, { shipment_id: 'existing' });
      expect(res.statusCode, prefix).toBe(400);
      expect(res.json(), prefix).toEqual({ api_response: '4030', message: 'validation_error', errors: expected });
    }
  });

  it('on a return, and on a nullable choice of values', async () => {
    const body = standardReturn('ret-1');
    const res = await t.call(acct.token, 'POST', '/v5/return/', {
      ...body,
      shipment: { ...body.shipment, ...wrong, from_address: { city: 'Paris', country_code: 7 } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      api_response: '4030',
      message: 'validation_error',
      // An address's members may be null too (read as left out), so the type error names both types.
      errors: { shipment: { ...expected, from_address: { country_code: ['Must be of type string or null.'] } } },
    });
    const update = await t.call(acct.token, 'POST', '/v5/return/update/', {
      return_id: 'RMA-none',
      refund_method: 'cash',
      total_refund_amount: true,
    });
    expect(update.statusCode).toBe(400);
    expect(update.json().errors).toEqual({
      refund_method: ['Must be "original_payment".', 'Must be "store_credit".', 'Must be "exchange".'],
      total_refund_amount: ['Must be of type number or string or null.'],
    });
  });
});

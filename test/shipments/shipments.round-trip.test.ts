import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { fullShipment } from './fixtures.js';

/** An address with every field the interface lists. */
const everyAddressField = (city: string) => ({
  address_name: 'Head office',
  location_type: 'business',
  entity_reference: 'ENT-1',
  salutation: 'Dr.',
  first_name: 'Grace',
  last_name: 'Hopper',
  line1: 'Friedrichstraße 43',
  line2: 'Hinterhaus',
  line3: '3. OG',
  street_name: 'Friedrichstraße',
  house_number: '43',
  city,
  postal_code: '10117',
  state_or_province: 'Berlin',
  region: 'Mitte',
  country: 'Germany',
  country_code: 'DE',
  email: 'grace@example.com',
  phone: '+49 30 7654321',
  fax: '+49307654322',
  company: 'Compilers GmbH',
  tax_id: 'DE123456789',
});

/** A line item with every field the interface lists. */
const everyLineItemField = {
  product_name: 'Difference Engine kit',
  product_id: 'P-1',
  product_reference: 'SKU-9',
  product_category: 'Models',
  product_description: 'Brass, 1:10',
  product_origin_country_code: 'GB',
  hs_code: '9503.00',
  customs_description: 'Toy model',
  quantity: 3,
  product_image_url: 'https://shop.example.com/kit.png',
  product_url: 'https://shop.example.com/kit',
  product_weight: 400,
  product_weight_unit: 'g',
  line_item_weight: 1200,
  line_item_weight_unit: 'g',
  currency_code: 'EUR',
  product_cost: 30,
  subtotal_cost: 90,
  discount_amount: 5,
  tax_amount: 16.15,
  misc_cost: 1,
  total_price: 102.15,
  return_id: 'RET-1',
  return_reason: 'Too small',
  additional_info: { gift: true, wrap: 'blue', count: 2, none: null },
};

/** Every writable field given: all five addresses, line items full and sparse, linked shipments. */
function richShipment(shipmentId: string): Record<string, unknown> {
  const base = fullShipment(shipmentId);
  return fullShipment(shipmentId, {
    tracking_number: 'WB3000001',
    carrier_reference: 'sb',
    to_address: everyAddressField('Berlin'),
    from_address: { ...everyAddressField('Potsdam'), country: undefined },
    return_address: everyAddressField('Spandau'),
    shipping_costs: [...(base.shipping_costs as unknown[]), { name: 'Insurance', total_cost: { amount: 2, currency: 'EUR' } }],
    linked_shipments: [{ tracking_number: 'WB3000002', carrier_reference: 'sb' }],
    line_items: [everyLineItemField, ...(base.line_items as unknown[])],
    additional_info: { warehouse: 'B2', pallets: 3, fragile: true },
  });
}

describe('shipments: details sent back as an update', () => {
  let t: TestApp;
  let acct: TestAccount;
  let strict: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    const carriers = [{ carrier_reference: 'sb', booking: ['outbound'] }];
    acct = await t.account({ features: ['booking'], carriers });
    strict = await t.account({ features: ['booking'], carriers });
    await t.admin('PATCH', `/admin/v1/accounts/${strict.accountUuid}/`, { strict_fields: true });
  });
  afterAll(() => t.close());

  const details = async (account: TestAccount, prefix: string, shipmentId: string) => {
    const res = await t.call(account.token, 'GET', `${prefix}/shipment/details/`, undefined, { shipment_id: shipmentId });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const update = (account: TestAccount, prefix: string, shipmentId: string, body: unknown) =>
    t.call(account.token, 'POST', `${prefix}/shipment/update/`, body, { shipment_id: shipmentId });
  const create = async (account: TestAccount, body: Record<string, unknown>) => {
    const res = await t.call(account.token, 'POST', '/v5/shipment/', body);
    expect(res.statusCode, res.body).toBe(200);
  };
  /** A shipment with every field, booked (a label, a carrier, a status) and polled once (events). */
  const createRich = async (account: TestAccount, shipmentId: string) => {
    await create(account, richShipment(shipmentId));
    const booked = await t.call(account.token, 'POST', '/v5/booking/', { shipment_id: shipmentId });
    expect(booked.statusCode, booked.body).toBe(200);
    await t.context.worker.runOnce();
  };
  /** The details apart from what an update moves by itself. */
  const unchanging = ({ updated_date: _, ...rest }: Record<string, unknown>) => rest;

  for (const prefix of ['/v5', '/v5-2-0']) {
    for (const [label, account] of [
      ['an account that ignores unknown fields', () => acct],
      ['a strict account', () => strict],
    ] as const) {
      it(`${prefix}: a rich shipment's details sent back unchanged are a 200 that changes nothing (${label})`, async () => {
        const id = `rich${prefix}-${label.length}`;
        await createRich(account(), id);
        const before = await details(account(), prefix, id);
        // Everything the round trip has to carry is there: nulls inside objects, read-only fields of every kind.
        expect(before.all_events.length).toBeGreaterThan(0);
        expect(before.documents.length).toBeGreaterThan(0);
        expect(before.current_phase.key).not.toBeNull();
        expect(before.from_address.country).toBe('Germany');
        if (prefix === '/v5-2-0') expect(before.line_items[1].hs_code).toBeNull();
        expect(before.shipping_costs[1]).toMatchObject({ reference: null, unit_cost: { amount: null, currency: null } });

        t.clock.advance(60_000);
        const res = await update(account(), prefix, id, before);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['waybill-ignored-fields']).toBeUndefined();
        const after = await details(account(), prefix, id);
        expect(unchanging(after)).toEqual(unchanging(before));
        expect(unchanging(res.json().data)).toEqual(unchanging(before));
        expect(after.updated_date).toBe(t.clock.now().toISOString());
      });
    }

    it(`${prefix}: a shipment with nothing but its id survives the round trip (empty values as the details show them)`, async () => {
      const id = `bare${prefix}`;
      await create(acct, { shipment_id: id });
      const before = await details(acct, prefix, id);
      expect(before).toMatchObject({
        shipment_value: { amount: null, currency: null },
        dimensions: { length: null, width: null, height: null, unit: 'cm' },
        weight: { amount: null, unit: 'g' },
        expected_delivery: { from: null, to: null },
        recipient_address: null,
      });
      const res = await update(acct, prefix, id, before);
      expect(res.statusCode, res.body).toBe(200);
      expect(unchanging(await details(acct, prefix, id))).toEqual(unchanging(before));
    });

    it(`${prefix}: one field changed in the details body is the one change made`, async () => {
      const id = `edit${prefix}`;
      await createRich(acct, id);
      const before = await details(acct, prefix, id);
      const res = await update(acct, prefix, id, {
        ...before,
        note: 'Call before delivery',
        recipient_address: { ...before.recipient_address, line2: 'Apartment 4' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const after = await details(acct, prefix, id);
      expect(unchanging(after)).toEqual({
        ...unchanging(before),
        note: 'Call before delivery',
        recipient_address: {
          ...before.recipient_address,
          line2: 'Apartment 4',
          full: 'Ada Lovelace, Unter den Linden 1, Apartment 4, 10117 Berlin, Germany',
        },
      });
    });
  }

  it("refuses another shipment's details (a different shipment_uuid), as it refuses another shipment_id", async () => {
    await create(acct, { shipment_id: 'mine-1' });
    await create(acct, { shipment_id: 'mine-2' });
    const other = await details(acct, '/v5-2-0', 'mine-2');
    const res = await update(acct, '/v5-2-0', 'mine-1', { ...other, shipment_id: 'mine-1', note: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ api_response: '4030', errors: { shipment_uuid: ['shipment_uuid cannot change.'] } });
    // The same uuid in capitals is the same shipment.
    const own = await details(acct, '/v5-2-0', 'mine-1');
    const same = await update(acct, '/v5-2-0', 'mine-1', { shipment_uuid: own.shipment_uuid.toUpperCase(), note: 'y' });
    expect(same.statusCode, same.body).toBe(200);
  });

  describe('null members inside objects are read as absent', () => {
    /** Two shipments alike; one is sent the objects with null members, the other the same objects without them. */
    const twins = async (prefix: string, name: string, withNulls: Record<string, unknown>, without: Record<string, unknown>) => {
      await create(acct, richShipment(`${name}-nulls`));
      await create(acct, richShipment(`${name}-absent`));
      const sent = await update(acct, prefix, `${name}-nulls`, withNulls);
      expect(sent.statusCode, sent.body).toBe(200);
      const left = await update(acct, prefix, `${name}-absent`, without);
      expect(left.statusCode, left.body).toBe(200);
      const a = await details(acct, prefix, `${name}-nulls`);
      const b = await details(acct, prefix, `${name}-absent`);
      const own = ({ shipment_uuid: _u, shipment_id: _i, order: _o, tracking_page_reference: _r, ...rest }: Record<string, unknown>) =>
        unchanging(rest);
      expect(own(a)).toEqual(own(b));
      return a;
    };

    it('in an address, money, weight, dimensions, a shipping cost and a line item: as if left out', async () => {
      const { email: _e, line2: _l, ...shortAddress } = everyAddressField('Berlin');
      const { hs_code: _h, quantity: _q, additional_info: _a, ...shortItem } = everyLineItemField;
      const shown = await twins(
        '/v5-2-0',
        'nulls',
        {
          to_address: { ...shortAddress, email: null, line2: null },
          sender_address: { country_code: 'NL', city: 'Utrecht', company: null, fax: null },
          shipment_value: { amount: 12, currency: 'EUR' },
          weight: { amount: 800, unit: null },
          dimensions: { length: 10, width: 20, height: 30, unit: null },
          expected_delivery: { from: null, to: '2026-12-05' },
          shipping_costs: [
            { name: 'Base', reference: null, unit_quantity: null, unit_cost: null, total_cost: { amount: 3, currency: 'EUR' } },
          ],
          line_items: [{ ...shortItem, hs_code: null, quantity: null, additional_info: null }],
        },
        {
          to_address: shortAddress,
          sender_address: { country_code: 'NL', city: 'Utrecht' },
          shipment_value: { amount: 12, currency: 'EUR' },
          weight: { amount: 800 },
          dimensions: { length: 10, width: 20, height: 30 },
          expected_delivery: { to: '2026-12-05' },
          shipping_costs: [{ name: 'Base', total_cost: { amount: 3, currency: 'EUR' } }],
          line_items: [shortItem],
        },
      );
      // An object still replaces the stored one whole: the members sent as null are not kept from before.
      expect(shown.to_address).toMatchObject({ email: null, line2: null, line1: 'Friedrichstraße 43' });
      expect(shown.sender_address).toMatchObject({ company: null, fax: null, city: 'Utrecht', country: 'Netherlands' });
      expect(shown.weight).toEqual({ amount: 800, unit: 'g' });
      expect(shown.dimensions).toEqual({ length: 10, width: 20, height: 30, unit: 'cm' });
      expect(shown.shipping_costs).toEqual([
        {
          name: 'Base',
          reference: null,
          unit_quantity: null,
          unit_cost: { amount: null, currency: null },
          total_cost: { amount: 3, currency: 'EUR' },
        },
      ]);
      expect(shown.line_items).toEqual([
        expect.objectContaining({ hs_code: null, quantity: 1, additional_info: {}, product_name: 'Difference Engine kit' }),
      ]);
    });

    it('money, weight and dimensions with every member null are the empty value the details show, and clear', async () => {
      const shown = await twins(
        '/v5',
        'empty',
        {
          shipment_value: { amount: null, currency: null },
          weight: { amount: null, unit: 'g' },
          dimensions: { length: null, width: null, height: null, unit: 'cm' },
          expected_delivery: { from: null, to: null },
          shipping_costs: [{ name: 'Base', unit_cost: { amount: null, currency: null }, total_cost: { amount: 3, currency: 'EUR' } }],
        },
        {
          shipment_value: null,
          weight: null,
          dimensions: null,
          expected_delivery: null,
          shipping_costs: [{ name: 'Base', total_cost: { amount: 3, currency: 'EUR' } }],
        },
      );
      expect(shown).toMatchObject({
        shipment_value: { amount: null, currency: null },
        weight: { amount: null, unit: 'g' },
        dimensions: { length: null, width: null, height: null, unit: 'cm' },
        expected_delivery: { from: null, to: null },
        // Fields not sent stay.
        total_shipping_cost: { amount: 4.95, currency: 'EUR' },
        recipient_address: expect.objectContaining({ city: 'Berlin' }),
      });
    });

    it('some members null and others not: the null ones are missing (4030), nothing stored', async () => {
      await create(acct, richShipment('partial-1'));
      const before = await details(acct, '/v5-2-0', 'partial-1');
      const res = await update(acct, '/v5-2-0', 'partial-1', {
        shipment_value: { amount: 5, currency: null },
        cod_value: { amount: null, currency: 'EUR' },
        dimensions: { length: 10, width: null, height: 30, unit: 'cm' },
        shipping_costs: [{ name: 'Base', total_cost: { amount: null, currency: null } }],
        to_address: { city: 'Berlin', country: null, country_code: null },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        api_response: '4030',
        message: 'validation_error',
        errors: {
          shipment_value: { currency: ['This field is required.'] },
          cod_value: { amount: ['This field is required.'] },
          dimensions: { width: ['This field is required.'] },
          shipping_costs: { '0': { total_cost: ['This field is required.'] } },
          to_address: { country_code: ['Provide country or country_code.'] },
        },
      });
      expect(await details(acct, '/v5-2-0', 'partial-1')).toEqual(before);
    });

    it('top-level null still clears, as before; a null shipment_id (it cannot change) is left out', async () => {
      await create(acct, richShipment('clear-1'));
      const res = await update(acct, '/v5', 'clear-1', { shipment_id: null, recipient_address: null, weight: null, note: null });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({
        shipment_id: 'clear-1',
        recipient_address: null,
        weight: { amount: null, unit: 'g' },
        note: null,
      });
    });
  });
});

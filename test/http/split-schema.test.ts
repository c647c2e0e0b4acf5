import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { withFormats } from '../../src/http/formats.js';
import { splitSchema } from '../../src/http/split-schema.js';
import { ajvOptions } from '../../src/http/validation.js';
import { ShipmentCreateBody, ShipmentUpdateBodyV52 } from '../../src/schemas/shipment-input.schemas.js';

const whole = withFormats(new Ajv({ ...ajvOptions, coerceTypes: false }));
const split = withFormats(new Ajv({ ...ajvOptions, coerceTypes: false, inlineRefs: false }));

/** What a merchant's 4030 is made of: where, which check, with what, saying what. */
const seen = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? [])
    .map((e) => JSON.stringify([e.instancePath, e.keyword, e.params, e.message, /\/(anyOf|oneOf)\/\d+\/type$/.test(e.schemaPath)]))
    .sort();

const address = { street_name: 'Keizersgracht', house_number: '452', postal_code: '1016 GD', city: 'Amsterdam', country_code: 'NL' };
const bodies: unknown[] = [
  { shipment_id: 'S-1', tracking_number: 'WB1', recipient_address: address, line_items: [{ product_name: 'Socks', quantity: 1 }] },
  { shipment_id: 'S-2', recipient_address: 'Keizersgracht 452', weight: 'heavy', dimensions: [], shipment_value: { amount: 'x' } },
  { shipment_id: 7, recipient_address: { ...address, country_code: 12, unknown_field: true }, sender_address: null },
  { shipment_id: 'S-3', line_items: [{ quantity: -1 }, 'a', { product_name: 'A', quantity: 1, hs_code: { x: 1 } }], tags: [1, 'a'] },
  { shipment_id: 'S-4', total_shipping_cost: { amount: 1, currency: 'EURO', extra: 1 }, additional_info: { a: { b: 1 } } },
  { note: 12, weight: { amount: 5, unit: 'stone' }, recipient_address: { email: 'not an address', phone: 5 } },
];

describe('body schemas split by object', () => {
  it('compile into functions small enough for the optimizing compiler, where the whole schema is one of about 350 KB', () => {
    const wholeSource = whole.compile(ShipmentCreateBody).toString().length;
    const rootSource = split.compile(splitSchema(ShipmentCreateBody)).toString().length;
    expect(wholeSource).toBeGreaterThan(200_000);
    expect(rootSource).toBeLessThan(wholeSource / 4);
  });

  for (const [name, schema] of [
    ['create', ShipmentCreateBody],
    ['update (v5.2)', ShipmentUpdateBodyV52],
  ] as const) {
    it(`find the same errors at the same fields, and fill the same defaults, as the whole ${name} schema`, () => {
      const a = whole.compile(schema);
      const b = split.compile(splitSchema(schema));
      for (const body of bodies) {
        const left = structuredClone(body);
        const right = structuredClone(body);
        expect(b(right)).toBe(a(left));
        expect(seen(b.errors)).toEqual(seen(a.errors));
        expect(right).toEqual(left);
      }
      expect(seen(a.errors).length).toBeGreaterThan(0);
    });
  }

  it('is made once per schema, so that Ajv compiles it once', () => {
    expect(splitSchema(ShipmentCreateBody)).toBe(splitSchema(ShipmentCreateBody));
  });

  it('leaves a schema without nested objects as it is', () => {
    const flat = { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] };
    expect(splitSchema(flat)).toBe(flat);
  });
});

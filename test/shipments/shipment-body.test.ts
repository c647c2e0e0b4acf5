import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../src/domain/errors.js';
import { checkShipmentInput } from '../../src/domain/shipments/shipment-input.js';
import { BODY_FIELDS, pickBody } from '../../src/domain/shipments/shipments.service.js';
import type { ShipmentWrite } from '../../src/schemas/shipment-input.schemas.js';
import { fullShipment } from './fixtures.js';

v8.setFlagsFromString('--allow-natives-syntax');
/** V8's own answer: whether an object keeps its members in a shape (fast) rather than as a dictionary. */
const hasFastProperties = new Function('value', 'return %HasFastProperties(value)') as (value: object) => boolean;
/** Whether two objects have one shape: V8's caches made for one then serve the other. */
const haveSameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** The body as `pickBody` made it before its loop was written out: a loop over BODY_FIELDS through a computed key. */
function pickedByLoop(input: Record<string, unknown>, current: Record<string, unknown>) {
  const body = { ...current };
  for (const field of BODY_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    if (value !== null) body[field] = value;
    else if (Object.hasOwn(body, field)) delete body[field];
  }
  return body;
}

/**
 * A shipment's stored body is made by `pickBody`: for a create from nothing, for an update from the stored one. It
 * must stay a fast object (its JSON and every read of it otherwise go the slow way), with the members and the
 * text it always had.
 */
describe('a shipment body as stored', () => {
  const input = fullShipment('BODY-1') as ShipmentWrite;
  /** The fixture's members that are columns of their own, or the order's. */
  const columns = ['shipment_id', 'order_id', 'order_reference', 'order_source_type', 'order_source_name'];

  it("is made for a create as a fast object, with the input's body fields in their order", () => {
    const body = pickBody(input, {});
    expect(Object.keys(body).sort()).toEqual(
      Object.keys(input)
        .filter((key) => !columns.includes(key))
        .sort(),
    );
    expect(Object.keys(body).length).toBeGreaterThan(20);
    expect(hasFastProperties(body)).toBe(true);
    expect(JSON.stringify(body)).toBe(JSON.stringify(pickedByLoop(input as Record<string, unknown>, {})));
  });

  it('is made for an update from the stored body: values replace, absent keeps, null clears', () => {
    const stored = JSON.parse(JSON.stringify(pickBody(input, {}))) as Record<string, unknown>;
    const change = { note: 'Ring twice', weight: { amount: 900, unit: 'g' }, sales_channel: undefined } as ShipmentWrite;
    const body = pickBody(change, stored);
    expect(hasFastProperties(body)).toBe(true);
    expect(body.note).toBe('Ring twice');
    expect(body.weight).toEqual({ amount: 900, unit: 'g' });
    expect(body.sales_channel).toBe('web');
    expect(JSON.stringify(body)).toBe(JSON.stringify(pickedByLoop(change as Record<string, unknown>, stored)));
    // The stored body itself is left as it was.
    expect(stored.note).toBe('Leave at the door');

    const clearing = { tags: null, note: 'Ring once' } as unknown as ShipmentWrite;
    const cleared = pickBody(clearing, stored);
    expect(cleared).not.toHaveProperty('tags');
    expect(JSON.stringify(cleared)).toBe(JSON.stringify(pickedByLoop(clearing as Record<string, unknown>, stored)));
  });

  it('gives the addresses of bodies sent alike one shape, however many it has checked', async () => {
    const checked = async (shipmentId: string) => {
      // As a request's body arrives: parsed from its text; a country code, to which the check adds the country.
      const body = JSON.parse(JSON.stringify(fullShipment(shipmentId, { recipient_address: { city: 'Amsterdam', country_code: 'NL' } })));
      return (await checkShipmentInput(body, async () => ({ carrier_id: 'dhl' }), new FieldErrorCollector())) as Record<
        string,
        Record<string, unknown>
      >;
    };
    // Enough for V8 to compile the check: a spread's copies got a shape each from then on.
    let previous = await checked('SHAPE-0');
    for (let i = 1; i <= 500; i++) {
      const next = await checked(`SHAPE-${i}`);
      if (i % 100 === 0) {
        expect(next.recipient_address).toEqual(previous.recipient_address);
        expect(haveSameShape(next.recipient_address, previous.recipient_address), `after ${i}`).toBe(true);
        expect(haveSameShape(next.sender_address, previous.sender_address), `after ${i}`).toBe(true);
      }
      previous = next;
    }
  });
});

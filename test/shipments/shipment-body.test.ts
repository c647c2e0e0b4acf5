import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { BODY_FIELDS, pickBody } from '../../src/domain/shipments/shipments.service.js';
import type { ShipmentWrite } from '../../src/schemas/shipment-input.schemas.js';
import { fullShipment } from './fixtures.js';

v8.setFlagsFromString('--allow-natives-syntax');
/** V8's own answer: whether an object keeps its members in a shape (fast) rather than as a dictionary. */
const hasFastProperties = new Function('value', 'return %HasFastProperties(value)') as (value: object) => boolean;

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

  it('gives the addresses of bodies sent alike one shape, however many it has checked', () => {
    const script = fileURLToPath(new URL('./address-shapes.run.ts', import.meta.url));
    const output = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', script], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      encoding: 'utf8',
    });
    const answers = JSON.parse(output.trim().split('\n').at(-1) ?? '[]');
    expect(answers).toHaveLength(5);
    for (const answer of answers) expect(answer).toEqual({ after: answer.after, equal: true, recipient: true, sender: true });
  });
});

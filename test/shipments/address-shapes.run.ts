/**
 * Run by test/shipments/shipment-body.test.ts in a process of its own (`node --allow-natives-syntax --import tsx`):
 * whether V8 gives the addresses of alike bodies, as the input checks leave them, one shape. A process of its own:
 * in the test runner's shared process, after hundreds of other test files, the member-by-member copy failed it too,
 * most likely because so many objects had been made from `{}` that V8 no longer shares new ones' shapes (it keeps at
 * most 1,536 ways out of `{}`); the service collects the start's garbage before it listens (src/startup-garbage.ts).
 * Prints one JSON line: each hundredth check's answer.
 */
import { FieldErrorCollector } from '../../src/domain/errors.js';
import { checkShipmentInput } from '../../src/domain/shipments/shipment-input.js';
import type { ShipmentWrite } from '../../src/schemas/shipment-input.schemas.js';
import { fullShipment } from './fixtures.js';

/** Whether two objects have one shape: V8's caches made for one then serve the other. */
const haveSameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const checked = async (shipmentId: string) => {
  // As a request's body arrives: parsed from its text; a country code, to which the check adds the country.
  const body = JSON.parse(JSON.stringify(fullShipment(shipmentId, { recipient_address: { city: 'Amsterdam', country_code: 'NL' } })));
  return (await checkShipmentInput(body as ShipmentWrite, async () => ({ carrier_id: 'dhl' }), new FieldErrorCollector())) as Record<
    string,
    Record<string, unknown>
  >;
};
const answers: Array<{ after: number; equal: boolean; recipient: boolean; sender: boolean }> = [];
// Enough for V8 to compile the check: a spread's copies got a shape each from then on.
let previous = await checked('SHAPE-0');
for (let i = 1; i <= 500; i++) {
  const next = await checked(`SHAPE-${i}`);
  if (i % 100 === 0) {
    answers.push({
      after: i,
      equal: JSON.stringify(next.recipient_address) === JSON.stringify(previous.recipient_address),
      recipient: haveSameShape(next.recipient_address, previous.recipient_address),
      sender: haveSameShape(next.sender_address, previous.sender_address),
    });
  }
  previous = next;
}
console.log(JSON.stringify(answers));

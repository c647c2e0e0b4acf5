/**
 * What two parts of a create cost on the calling thread (`node --import tsx bench/create-parts.ts`), in µs, the
 * median of 11 rounds:
 * - the input checks of a realistic create body (`checkShipmentInput`: addresses, countries, phones, money, line
 *   items), with the body's build and its JSON beside it, which the checks' figure includes;
 * - a record's time-ordered UUID (`timeOrderedUuid`) against Node's `randomUUID`;
 * - a phone number's check (`isPhoneNumber`) of numbers not checked before, as a create's recipient's mostly is
 *   (nine calling codes, national numbers of six to eleven digits), against one checked before (a merchant's sender
 *   number, remembered).
 * To compare the checks with a tree from before time-ordered UUIDs, run it there without the UUID part.
 * CREATE_PARTS_PARSED=1 checks bodies parsed from their JSON text, as the service receives them, instead of the objects
 * the fixture builds (each object's shape then comes from the parse); the figure beside the checks is then the parse
 * and the JSON.
 */
import { randomUUID } from 'node:crypto';
import { timeOrderedUuid } from '../src/core/time-ordered-uuid.js';
import { FieldErrorCollector } from '../src/domain/errors.js';
import { isPhoneNumber } from '../src/domain/reference-data.js';
import { checkShipmentInput } from '../src/domain/shipments/shipment-input.js';
import type { ShipmentWrite } from '../src/schemas/shipment-input.schemas.js';
import { median, shipmentBody } from './fixtures.js';

const ROUNDS = 11;
const CHECKS = 20_000;
const UUIDS = 200_000;
const PHONES = 20_000;
const configured = Promise.resolve({ carrier_id: 'sandbox' });

/** µs a call of `work` over `count` calls. */
async function timed(count: number, work: (i: number) => unknown): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await work(i);
  return Number(process.hrtime.bigint() - started) / count / 1000;
}

const parsed = process.env.CREATE_PARTS_PARSED === '1';
const texts = parsed ? Array.from({ length: 1000 }, (_, i) => JSON.stringify(shipmentBody('parts', i))) : [];
const bodyOf = (i: number) => (parsed ? JSON.parse(texts[i % texts.length]) : shipmentBody('parts', i));
const bodyAlone = (i: number) => JSON.stringify(bodyOf(i));
const checked = async (i: number) => {
  const out = await checkShipmentInput(bodyOf(i) as ShipmentWrite, () => configured, new FieldErrorCollector());
  return JSON.stringify(out);
};
const syncTimed = (count: number, work: () => unknown): number => {
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) work();
  return Number(process.hrtime.bigint() - started) / count / 1000;
};

/** A number no round has checked: one of nine calling codes and a national number of six to eleven digits. */
let phonesMade = 0;
const CALLING_CODES = [31, 49, 1, 44, 33, 86, 7, 380, 971];
const newPhone = () => {
  const n = phonesMade++;
  return `+${CALLING_CODES[n % CALLING_CODES.length]}${String(n * 7919).padStart(6 + (n % 6), '0')}`;
};

const rounds = {
  body: [] as number[],
  checks: [] as number[],
  timeOrdered: [] as number[],
  random: [] as number[],
  newPhone: [] as number[],
  knownPhone: [] as number[],
};
for (let round = 0; round <= ROUNDS; round++) {
  const body = await timed(CHECKS, bodyAlone);
  const checks = await timed(CHECKS, checked);
  const timeOrdered = syncTimed(UUIDS, timeOrderedUuid);
  const random = syncTimed(UUIDS, randomUUID);
  const phones = Array.from({ length: PHONES }, newPhone);
  let next = 0;
  const phoneChecks = syncTimed(PHONES, () => isPhoneNumber(phones[next++]));
  const knownPhone = syncTimed(PHONES, () => isPhoneNumber('+493012345678'));
  // The first round warms up.
  if (round === 0) continue;
  rounds.body.push(body);
  rounds.checks.push(checks);
  rounds.timeOrdered.push(timeOrdered);
  rounds.random.push(random);
  rounds.newPhone.push(phoneChecks);
  rounds.knownPhone.push(knownPhone);
}
const f = (value: number) => value.toFixed(2);
console.log(
  `a create body's input checks: ${f(median(rounds.checks))} µs with its build and JSON (those alone: ${f(median(rounds.body))} µs)`,
);
console.log(`a time-ordered UUID: ${f(median(rounds.timeOrdered))} µs (randomUUID: ${f(median(rounds.random))} µs)`);
console.log(
  `a phone number's check: ${f(median(rounds.newPhone))} µs a number not seen before (one seen before: ${f(median(rounds.knownPhone))} µs)`,
);

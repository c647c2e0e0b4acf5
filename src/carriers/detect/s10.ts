import { digitsOf, weightedSum } from './check-digits.js';
import { type DetectableCarrier, type FormatFamily, reading } from './format.js';

const S10 = /^[A-Z]{2}\d{9}[A-Z]{2}$/;

/**
 * The designated operator of the issuing country, among the carriers known here (PostNord is Sweden's and
 * Denmark's; Norway's and Finland's S10 numbers are Posten Norge's and Posti's, not PostNord's).
 */
const OPERATOR_OF: Readonly<Record<string, DetectableCarrier>> = {
  AU: 'auspos',
  CA: 'canpos',
  DE: 'dhlglb',
  DK: 'postnd',
  FR: 'lapost',
  GB: 'royalm',
  NL: 'postnl',
  SE: 'postnd',
  US: 'uspsus',
};

/**
 * The UPU S10 check digit: the 8 serial digits weighted 8, 6, 4, 2, 3, 5, 9, 7, then 11 − (sum mod 11),
 * with 10 written as 0 and 11 as 5.
 */
export function s10CheckDigit(serial: string): number {
  const check = 11 - (weightedSum(digitsOf(serial), [8, 6, 4, 2, 3, 5, 9, 7]) % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/**
 * UPU S10 (`AA123456789CC`): two service letters, 8 serial digits, a check digit and the issuing country. Every
 * postal operator issues them, and an operator's S10 numbers travel on other networks, so the country names
 * a candidate but never alone decides the carrier: always low.
 */
export const s10Formats: FormatFamily = (number) => {
  if (!S10.test(number)) return [];
  const carrier = OPERATOR_OF[number.slice(11)];
  if (!carrier) return [];
  const valid = s10CheckDigit(number.slice(2, 10)) === number.charCodeAt(10) - 48;
  return [reading(carrier, 's10', valid, { distinctive: true, shared: true })];
};

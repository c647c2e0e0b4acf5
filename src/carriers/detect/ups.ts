import { endsWith } from './check-digits.js';
import { type FormatFamily, reading } from './format.js';

const UPS_1Z = /^1Z[0-9A-Z]{16}$/;

/**
 * A character of a 1Z number as UPS counts it: digits as themselves, letters by their position in the
 * alphabet counted from 2 (A=2 … H=9, I=0, J=1 … R=9, S=0 … Z=7), i.e. (char code − 63) mod 10.
 */
function upsValue(code: number): number {
  return code <= 57 ? code - 48 : (code - 63) % 10;
}

/**
 * The check digit of a 1Z number: over the 15 characters after `1Z` and before the check digit, the values
 * in odd positions (1st, 3rd, …) plus twice those in even positions, brought up to a multiple of ten.
 */
export function upsCheckDigit(number: string): number {
  let sum = 0;
  for (let i = 2; i < 17; i++) sum += upsValue(number.charCodeAt(i)) * (i % 2 === 0 ? 1 : 2);
  return (10 - (sum % 10)) % 10;
}

/** UPS: `1Z` + shipper number (6) + service (2) + package (7) + check digit, 18 characters. */
export const upsFormats: FormatFamily = (number) => {
  if (!UPS_1Z.test(number)) return [];
  return [reading('upsglb', 'ups_1z', endsWith(number, upsCheckDigit(number)), { distinctive: true })];
};

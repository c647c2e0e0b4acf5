import { digitsOf, endsWith, weightedSum } from './check-digits.js';
import { type FormatFamily, type FormatMatch, reading } from './format.js';

/**
 * The check digit of a GLS parcel number: the eleven digits weighted 3, 1, 3, 1, … from the left, plus one,
 * brought up to a multiple of ten.
 */
export function glsCheckDigit(number: string): number {
  return (10 - ((weightedSum(digitsOf(number.slice(0, 11)), [3, 1]) + 1) % 10)) % 10;
}

/**
 * GLS parcel numbers: depot (2) + product (2) + serial (7) + check digit; written with the check digit
 * (12 digits, checked) or without it (11 digits: nothing to check, and eleven digits name no carrier, so low).
 */
export const glsFormats: FormatFamily = (number) => {
  const found: FormatMatch[] = [];
  if (/^\d{12}$/.test(number)) {
    found.push(reading('glsglb', 'gls_parcel_12', endsWith(number, glsCheckDigit(number)), { distinctive: false }));
  }
  if (/^\d{11}$/.test(number)) found.push(reading('glsglb', 'gls_parcel_11', null, { distinctive: false }));
  return found;
};

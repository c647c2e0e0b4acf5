import { endsWith, gs1CheckDigit } from './check-digits.js';
import { type FormatFamily, type FormatMatch, reading } from './format.js';

const IMPB = /^9[1-5](\d{20}|\d{24})$/;

/** Whether `number` (digits only) ends with the GS1 modulo-10 check digit of the rest. */
function gs1Valid(number: string): boolean {
  return endsWith(number, gs1CheckDigit(number.slice(0, -1)));
}

/**
 * The IMpb inside `number`: itself, or what follows the `420` + ZIP (5 or 9 digits) routing prefix that labels
 * print in front of it. A 34-digit number is read both ways (ZIP+4 and a 22-digit IMpb, or ZIP and 26 digits).
 */
export function impbCandidates(number: string): string[] {
  if (IMPB.test(number)) return [number];
  if (!/^420\d+$/.test(number)) return [];
  return [number.slice(8), number.slice(12)].filter((rest) => IMPB.test(rest));
}

/**
 * USPS: Intelligent Mail package barcodes (`91`–`95` + 20 or 24 digits, GS1 modulo 10 over the IMpb itself,
 * the `420`+ZIP prefix stripped), and the older 20-digit numbers (GS1 modulo 10 over the 20 digits as they
 * are, or with the `91` application identifier they were printed without).
 */
export const uspsFormats: FormatFamily = (number) => {
  const found: FormatMatch[] = [];
  const impbs = impbCandidates(number);
  if (impbs.length > 0) found.push(reading('uspsus', 'usps_impb', impbs.some(gs1Valid), { distinctive: true }));
  // A 20-digit number starting 00 is an SSCC (its check digit is the same sum), not a USPS number.
  if (/^\d{20}$/.test(number) && !number.startsWith('00')) {
    found.push(reading('uspsus', 'usps_20', gs1Valid(number) || gs1Valid(`91${number}`), { distinctive: false }));
  }
  return found;
};

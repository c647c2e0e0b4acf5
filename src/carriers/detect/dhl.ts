import { digitsOf, endsWith, weightedSum } from './check-digits.js';
import { type FormatFamily, type FormatMatch, reading } from './format.js';
import { ssccValid } from './sscc.js';

/** The check digit of a 10-digit DHL Express waybill: the first nine digits, as a number, modulo 7. */
export function dhlExpressCheckDigit(number: string): number {
  return Number(number.slice(0, 9)) % 7;
}

/**
 * The check digit of a 12-digit DHL Paket number (Identcode): the first eleven digits weighted 4, 9, 4, 9, …
 * from the left, brought up to a multiple of ten.
 */
export function dhlPaketCheckDigit(number: string): number {
  return (10 - (weightedSum(digitsOf(number.slice(0, 11)), [4, 9]) % 10)) % 10;
}

/** DHL Paket's GS1 company prefixes as they appear in its 20-digit SSCC numbers (`00` + extension `3` + prefix). */
const DHL_SSCC = /^00340(433|434)\d{12}$/;

/**
 * DHL: Express waybills of 10 digits (modulo 7); Paket numbers of 12 digits (weights 4 and 9), 20-digit SSCCs
 * under DHL's company prefix (GS1 modulo 10), `JJD`/`JVGL` piece numbers and eCommerce `GM` numbers (no check
 * digit). Deutsche Post's S10 numbers (`..DE`) are read in s10.ts.
 */
export const dhlFormats: FormatFamily = (number) => {
  const found: FormatMatch[] = [];
  if (/^\d{10}$/.test(number)) {
    found.push(reading('dhlglb', 'dhl_express_10', endsWith(number, dhlExpressCheckDigit(number)), { distinctive: false }));
  }
  if (/^\d{12}$/.test(number)) {
    found.push(reading('dhlglb', 'dhl_paket_12', endsWith(number, dhlPaketCheckDigit(number)), { distinctive: false }));
  }
  if (DHL_SSCC.test(number)) found.push(reading('dhlglb', 'dhl_paket_sscc', ssccValid(number), { distinctive: true }));
  if (/^(JJD|JVGL)\d{9,24}$/.test(number)) found.push(reading('dhlglb', 'dhl_piece_id', null, { distinctive: true }));
  if (/^GM\d{16,18}$/.test(number)) found.push(reading('dhlglb', 'dhl_ecommerce', null, { distinctive: true }));
  return found;
};

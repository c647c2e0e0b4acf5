import { digitsOf, endsWith, gs1CheckDigit, weightedSum } from './check-digits.js';
import { type FormatFamily, type FormatMatch, reading } from './format.js';

/**
 * The check digit of a 12-digit FedEx Express number: the first eleven digits weighted 1, 3, 7, 1, 3, 7, …
 * from the rightmost of them leftwards, the sum modulo 11, and a remainder of 10 written as 0.
 */
export function fedexExpressCheckDigit(number: string): number {
  const body = digitsOf(number.slice(0, 11)).reverse();
  return (weightedSum(body, [1, 3, 7]) % 11) % 10;
}

/**
 * FedEx: Express 12 digits (modulo 11), Ground 15 digits (GS1 modulo 10), Ground `96` + 20 digits whose last
 * 15 carry a GS1 modulo-10 check, door tags `DT` + 12 digits (no check digit), and SmartPost numbers, which
 * are USPS IMpb numbers (`92` + 20 digits, or those 20 digits alone) handed to USPS for delivery: a reading
 * USPS shares, so low.
 */
export const fedexFormats: FormatFamily = (number) => {
  const found: FormatMatch[] = [];
  if (/^\d{12}$/.test(number)) {
    found.push(reading('fdxglb', 'fedex_express_12', endsWith(number, fedexExpressCheckDigit(number)), { distinctive: false }));
  }
  if (/^\d{15}$/.test(number)) {
    found.push(reading('fdxglb', 'fedex_ground_15', endsWith(number, gs1CheckDigit(number.slice(0, 14))), { distinctive: false }));
  }
  if (/^96\d{20}$/.test(number)) {
    found.push(reading('fdxglb', 'fedex_ground_96', endsWith(number, gs1CheckDigit(number.slice(7, 21))), { distinctive: true }));
  }
  if (/^DT\d{12}$/.test(number)) found.push(reading('fdxglb', 'fedex_door_tag', null, { distinctive: true }));
  const smartPost = /^92\d{20}$/.test(number) ? number : /^\d{20}$/.test(number) && !number.startsWith('00') ? `92${number}` : null;
  if (smartPost && endsWith(smartPost, gs1CheckDigit(smartPost.slice(0, 21)))) {
    found.push(reading('fdxglb', 'fedex_smartpost', true, { distinctive: false, shared: true }));
  }
  return found;
};

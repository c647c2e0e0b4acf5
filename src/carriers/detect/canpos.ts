import { endsWith, gs1CheckDigit } from './check-digits.js';
import { type FormatFamily, reading } from './format.js';

/**
 * Canada Post's own PINs (Parcel Identification Numbers). Canada Post gives a PIN as 12, 13 or 16 characters
 * ("Get Tracking Details – REST"); the 13-character ones are UPU S10 numbers (`..CA`), read in s10.ts.
 * - 16 digits: the last is a modulo-10 check digit over the first fifteen, weighted 3 and 1 from the right (GS1):
 *   Canada Post's sample PINs all carry it. Sixteen digits alone name no carrier, so the check makes it medium.
 * - 12 digits are not read: no check digit is documented for them, and twelve digits without one would only add a
 *   guess to every FedEx, GLS and DHL number of that length.
 * Delivery notice card numbers (15 digits) are not read either: they are no parcel's number.
 */
export const canposFormats: FormatFamily = (number) =>
  /^\d{16}$/.test(number)
    ? [reading('canpos', 'canpos_pin_16', endsWith(number, gs1CheckDigit(number.slice(0, 15))), { distinctive: false })]
    : [];

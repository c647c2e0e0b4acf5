import { type FormatFamily, type FormatMatch, reading } from './format.js';

/** The characters of ISO/IEC 7064 MOD 37,36, by value: digits 0–9, then letters A–Z for 10–35. */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The check character DPD prints after a parcel number (ISO/IEC 7064 MOD 37,36, the hybrid system over 36
 * characters): starting from 36, each character's value is added mod 36 (0 counting as 36), doubled, and taken
 * mod 37; the check character brings the last product to 1. `01905002345615` → `Y`.
 */
export function dpdCheckCharacter(body: string): string {
  let product = 36;
  for (const character of body) {
    const value = ALPHABET.indexOf(character);
    if (value < 0) return '';
    const sum = (product + value) % 36 || 36;
    product = (sum * 2) % 37;
  }
  return ALPHABET[(37 - product) % 36];
}

/**
 * The parcel number DPD's tracking service takes (14 digits) of a number written with or without its check
 * character, or null when the number is neither form (or its check character is wrong).
 */
export function dpdParcelNumber(number: string): string | null {
  if (/^\d{14}$/.test(number)) return number;
  if (/^\d{14}[0-9A-Z]$/.test(number) && dpdCheckCharacter(number.slice(0, 14)) === number[14]) return number.slice(0, 14);
  return null;
}

/**
 * DPD parcel numbers (the DPD Web Services' `parcelLabelNumber`): a four-digit depot and a ten-digit serial, 14
 * digits, written alone (no check: low) or followed by the check character printed beside them on the label (a
 * digit: shaped like a 15-digit FedEx Ground number, so medium; a letter: no other format here, so high).
 */
export const dpdFormats: FormatFamily = (number) => {
  const found: FormatMatch[] = [];
  if (/^\d{14}$/.test(number)) found.push(reading('dpdeur', 'dpd_parcel_14', null, { distinctive: false }));
  if (/^\d{14}[0-9A-Z]$/.test(number)) {
    const valid = dpdCheckCharacter(number.slice(0, 14)) === number[14];
    found.push(reading('dpdeur', 'dpd_parcel_15', valid, { distinctive: /[A-Z]$/.test(number) }));
  }
  return found;
};

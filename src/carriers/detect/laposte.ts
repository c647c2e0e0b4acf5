import { type FormatFamily, reading } from './format.js';

/**
 * La Poste's domestic 13-character numbers (Colissimo, Lettre suivie): a digit and a letter naming the
 * product, then 11 digits. No check-digit method is published for them. Colissimo international and
 * Chronopost numbers are S10 (`..FR`), read in s10.ts.
 */
export const laposteFormats: FormatFamily = (number) =>
  /^\d[A-Z]\d{11}$/.test(number) ? [reading('lapost', 'laposte_13', null, { distinctive: true })] : [];

import { type FormatFamily, reading } from './format.js';

/**
 * PostNL's own barcodes: type `3S`, a customer code of four letters and a serial of 7 or 9 digits (13 or 15
 * characters). PostNL publishes no check digit for them. Its S10 numbers (`..NL`) are read in s10.ts.
 */
export const postnlFormats: FormatFamily = (number) =>
  /^3S[A-Z]{4}(\d{7}|\d{9})$/.test(number) ? [reading('postnl', 'postnl_3s', null, { distinctive: true })] : [];

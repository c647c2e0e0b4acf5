import { endsWith, gs1CheckDigit } from './check-digits.js';
import { type FormatFamily, reading } from './format.js';

/** Whether an SSCC with its `00` application identifier (20 digits) carries a right GS1 check digit. */
export function ssccValid(number: string): boolean {
  return endsWith(number, gs1CheckDigit(number.slice(2, 19)));
}

/**
 * SSCC (`00` + 18 digits, GS1 modulo 10): any company with a GS1 prefix issues them, and carriers track the
 * ones on their labels, so a bare SSCC names no carrier: DHL (whose Paket numbers are SSCCs) and FedEx Ground
 * (which takes SSCC-18) are listed, always low. DHL's own prefix is read in dhl.ts.
 */
export const ssccFormats: FormatFamily = (number) => {
  if (!/^00\d{18}$/.test(number)) return [];
  const valid = ssccValid(number);
  return [
    reading('dhlglb', 'sscc', valid, { distinctive: false, shared: true }),
    reading('fdxglb', 'sscc', valid, { distinctive: false, shared: true }),
  ];
};

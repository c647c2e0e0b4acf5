/** What the format families report, and the carrier ids they know. */

/** The carriers whose tracking-number formats are known here (the sandbox carrier has none). */
export const DETECTABLE_CARRIERS = [
  'upsglb',
  'dhlglb',
  'fdxglb',
  'postnl',
  'lapost',
  'glsglb',
  'uspsus',
  'inpost',
  'postnd',
  'royalm',
  'dpdeur',
  'canpos',
  'auspos',
] as const;
export type DetectableCarrier = (typeof DETECTABLE_CARRIERS)[number];

export type Confidence = 'high' | 'medium' | 'low';

/**
 * One reading of a tracking number: the shape of `format` fits, and its check digit (when the format has one)
 * is `valid` or `invalid`; `none` when the format carries no check digit.
 */
export interface FormatMatch {
  carrier_id: DetectableCarrier;
  /** Stable name of the format, e.g. `ups_1z`, `s10`. */
  format: string;
  /** The confidence of this reading when its check digit is not invalid. */
  confidence: Confidence;
  check_digit: 'valid' | 'invalid' | 'none';
  /**
   * The shape alone names the carrier (a prefix or letters no other carrier issues, e.g. `1Z`), so a wrong
   * check digit is a mistyped number of that carrier rather than another carrier's number.
   */
  distinctive: boolean;
}

/** A format family: every reading of an already normalised number (upper case, no spaces or dashes). */
export type FormatFamily = (number: string) => FormatMatch[];

/** The confidence rule every family applies (docs/carriers/detection.md). */
export function confidenceOf(reading: { distinctive: boolean; hasCheckDigit: boolean; shared?: boolean }): Confidence {
  if (reading.shared) return 'low';
  if (reading.distinctive && reading.hasCheckDigit) return 'high';
  if (reading.distinctive || reading.hasCheckDigit) return 'medium';
  return 'low';
}

/** A reading of one format, its check digit judged by `valid` (or `null` when the format has none). */
export function reading(
  carrier_id: DetectableCarrier,
  format: string,
  valid: boolean | null,
  shape: { distinctive: boolean; shared?: boolean },
): FormatMatch {
  return {
    carrier_id,
    format,
    confidence: confidenceOf({ distinctive: shape.distinctive, hasCheckDigit: valid !== null, shared: shape.shared }),
    check_digit: valid === null ? 'none' : valid ? 'valid' : 'invalid',
    distinctive: shape.distinctive,
  };
}

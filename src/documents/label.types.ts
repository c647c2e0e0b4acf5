/** Output formats a shipping label can be rendered in. */
export type LabelFormat = 'pdf' | 'zpl' | 'png';

export const LABEL_FORMATS: readonly LabelFormat[] = ['pdf', 'zpl', 'png'];

/** MIME type stored with, and served for, each label format. */
export const LABEL_CONTENT_TYPES: Readonly<Record<LabelFormat, string>> = {
  pdf: 'application/pdf',
  zpl: 'application/x-zpl',
  png: 'image/png',
};

/**
 * An address block on the label. Field names are those of the interface's Address record, so a stored
 * address can be passed as it is; only the fields that belong on a label are read.
 */
export interface LabelAddress {
  first_name?: string | null;
  last_name?: string | null;
  company?: string | null;
  line1?: string | null;
  line2?: string | null;
  line3?: string | null;
  /** Used with `house_number` when `line1` is absent. */
  street_name?: string | null;
  house_number?: string | null;
  postal_code?: string | null;
  city?: string | null;
  state_or_province?: string | null;
  /** ISO 3166-1 alpha-2; decides the order of postal code and city and is printed as the country's English name. */
  country_code: string;
  phone?: string | null;
}

/** Everything printed on a 4x6 inch shipping label. */
export interface LabelInput {
  sender: LabelAddress;
  recipient: LabelAddress;
  /** Carrier name as shown to people, e.g. "Waybill Sandbox". */
  carrier_name: string;
  /** Shipping service name, e.g. "Parcel Standard". */
  service_name: string;
  /** Parcel weight in grams. */
  weight_grams: number;
  /**
   * Letters, digits and `. _ / + -`, starting with a letter or digit, at most 64 characters (what carriers use;
   * nothing a printer's Code 128 command would read as a control sequence). Encoded in both barcodes.
   */
  tracking_number: string;
  /** The caller's shipment identifier; encoded in the 2D barcode beside the tracking number. */
  shipment_id: string;
  shipment_reference?: string | null;
  /** Name of the pick-up/drop-off location the parcel is routed to, when there is one. */
  pudo_location_name?: string | null;
  /** Calendar date printed on the label (YYYY-MM-DD), also the PDF creation date; omitted when absent. */
  date?: string | null;
}

/** A rendered label: its bytes and how to store and serve them. */
export interface RenderedLabel {
  format: LabelFormat;
  contentType: string;
  /** File name extension without the dot: pdf, zpl or png. */
  extension: LabelFormat;
  bytes: Uint8Array;
}

/** Thrown when a label input cannot be printed as given; `field` names the offending input field. */
export class LabelInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'LabelInputError';
  }
}

const TRACKING_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._/+-]{0,63}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Checks the parts of a label input that would otherwise produce an unreadable or unscannable label. */
export function validateLabelInput(input: LabelInput): void {
  if (!TRACKING_NUMBER.test(input.tracking_number)) {
    throw new LabelInputError('tracking_number', 'must be 1 to 64 letters, digits or . _ / + -, starting with a letter or digit');
  }
  if (!input.shipment_id || input.shipment_id.length > 50) throw new LabelInputError('shipment_id', 'must be 1 to 50 characters');
  if (!Number.isFinite(input.weight_grams) || input.weight_grams < 0) {
    throw new LabelInputError('weight_grams', 'must be a non-negative number');
  }
  if (input.date && !DATE.test(input.date)) throw new LabelInputError('date', 'must be YYYY-MM-DD');
  for (const role of ['sender', 'recipient'] as const) {
    if (!/^[A-Za-z]{2}$/.test(input[role]?.country_code ?? '')) {
      throw new LabelInputError(`${role}.country_code`, 'must be an ISO 3166-1 alpha-2 code');
    }
  }
}

/**
 * Which carriers a tracking number can belong to, read from its format and check digit alone (no carrier is
 * asked). Pure: the services decide what to do with the candidates. docs/carriers/detection.md has the formats,
 * their sources and the confidence rules.
 */
import { auspostFormats } from './auspos.js';
import { canposFormats } from './canpos.js';
import { dhlFormats } from './dhl.js';
import { dpdFormats } from './dpdeur.js';
import { fedexFormats } from './fedex.js';
import type { Confidence, FormatFamily, FormatMatch } from './format.js';
import { glsFormats } from './gls.js';
import { inpostFormats } from './inpost.js';
import { laposteFormats } from './laposte.js';
import { postnordFormats } from './postnd.js';
import { postnlFormats } from './postnl.js';
import { royalmFormats } from './royalm.js';
import { s10Formats } from './s10.js';
import { ssccFormats } from './sscc.js';
import { upsFormats } from './ups.js';
import { uspsFormats } from './usps.js';

export { type Confidence, DETECTABLE_CARRIERS, type DetectableCarrier, type FormatMatch } from './format.js';

export interface DetectedCarrier {
  carrier_id: string;
  confidence: Confidence;
  format: string;
  check_digit: 'valid' | 'none';
}

const FAMILIES: readonly FormatFamily[] = [
  upsFormats,
  fedexFormats,
  uspsFormats,
  dhlFormats,
  glsFormats,
  postnlFormats,
  laposteFormats,
  inpostFormats,
  canposFormats,
  postnordFormats,
  auspostFormats,
  royalmFormats,
  dpdFormats,
  s10Formats,
  ssccFormats,
];

/** How a format is named in messages. */
const FORMAT_NAMES: Readonly<Record<string, string>> = {
  ups_1z: 'UPS 1Z',
  fedex_express_12: 'FedEx Express',
  fedex_ground_15: 'FedEx Ground',
  fedex_ground_96: 'FedEx Ground 96',
  fedex_door_tag: 'FedEx door tag',
  fedex_smartpost: 'FedEx SmartPost',
  usps_impb: 'USPS IMpb',
  usps_20: 'USPS 20-digit',
  dhl_express_10: 'DHL Express',
  dhl_paket_12: 'DHL Paket',
  dhl_paket_sscc: 'DHL Paket SSCC',
  dhl_piece_id: 'DHL piece ID',
  dhl_ecommerce: 'DHL eCommerce',
  gls_parcel_12: 'GLS parcel number',
  gls_parcel_11: 'GLS parcel number',
  postnl_3s: 'PostNL 3S',
  laposte_13: 'La Poste',
  dpd_parcel_14: 'DPD parcel number',
  dpd_parcel_15: 'DPD parcel number',
  inpost_24: 'InPost',
  canpos_pin_16: 'Canada Post PIN',
  postnord_11se: 'PostNord',
  auspost_eparcel_16: 'Australia Post eParcel article',
  auspost_consignment_10: 'Australia Post eParcel consignment',
  royalm_2d_21: 'Royal Mail 2D barcode',
  s10: 'UPU S10',
  sscc: 'SSCC',
};

const RANK: Readonly<Record<Confidence, number>> = { high: 0, medium: 1, low: 2 };

/** The form numbers are read in: spaces and dashes removed, upper case. */
export function normalizeTrackingNumber(trackingNumber: string): string {
  return trackingNumber.replace(/[\s-]+/g, '').toUpperCase();
}

/** Every format whose shape fits the number, with its check digit judged (`invalid` readings included). */
export function readTrackingNumber(trackingNumber: string): FormatMatch[] {
  const number = normalizeTrackingNumber(trackingNumber);
  if (number === '') return [];
  return FAMILIES.flatMap((family) => family(number));
}

/**
 * The carriers the number can belong to, best first, one entry per carrier (its most confident reading).
 * Readings whose check digit is wrong are left out.
 *
 * @example
 * detectCarriers('1Z 999 AA1 01 2345 6784');
 * // [{ carrier_id: 'upsglb', confidence: 'high', format: 'ups_1z', check_digit: 'valid' }]
 */
export function detectCarriers(trackingNumber: string): DetectedCarrier[] {
  const best = new Map<string, DetectedCarrier>();
  for (const match of readTrackingNumber(trackingNumber)) {
    if (match.check_digit === 'invalid') continue;
    const known = best.get(match.carrier_id);
    if (known && RANK[known.confidence] <= RANK[match.confidence]) continue;
    best.set(match.carrier_id, {
      carrier_id: match.carrier_id,
      confidence: match.confidence,
      format: match.format,
      check_digit: match.check_digit,
    });
  }
  return [...best.values()].sort((a, b) => RANK[a.confidence] - RANK[b.confidence]);
}

/**
 * Whether the number may be one of `carrierId`'s: it fails only when it clearly claims a format of that carrier
 * (a shape no other carrier issues, e.g. `1Z` for `upsglb`) and its check digit is wrong, and it fits no other
 * format of that carrier. Numbers in formats not known for the carrier pass, and so does every number for a
 * carrier without known formats (the sandbox).
 */
export function checkTrackingNumber(carrierId: string, trackingNumber: string): { ok: true } | { ok: false; message: string } {
  const readings = readTrackingNumber(trackingNumber).filter((match) => match.carrier_id === carrierId);
  if (readings.some((match) => match.check_digit !== 'invalid')) return { ok: true };
  const claimed = readings.find((match) => match.distinctive);
  if (!claimed) return { ok: true };
  return {
    ok: false,
    message: `This is not a valid ${FORMAT_NAMES[claimed.format] ?? claimed.format} tracking number: its check digit does not match. Check the number for typing errors.`,
  };
}

/** The readable name of a format, for messages. */
export function formatName(format: string): string {
  return FORMAT_NAMES[format] ?? format;
}

import { EU_COUNTRIES } from '../../core/eu-countries.js';
import type { BookingProduct } from '../booking.js';

/** What a product allows, as DHL's API reference and product pages state (docs/carriers/dhlpde.md, "Products"). */
export interface ParcelDeProduct extends BookingProduct {
  /** Digits 11 and 12 of the billing number booked with it (the "Verfahren"). */
  procedure: string;
  /** Heaviest parcel accepted, in grams. */
  max_weight_grams: number;
  /** Where it goes: Germany only, abroad only, or EU countries only (outbound); returns come to Germany. */
  scope: 'domestic' | 'abroad' | 'eu';
}

/**
 * The products booked through the Shipping API v2 (`shipping_service` holds the code), and DHL Retoure
 * Online/International through the Returns API for return shipments: `V07PAK` is the name integrations give
 * it (procedure 07 of the return billing number); the Returns API itself takes no product code.
 */
export const PARCEL_DE_PRODUCTS: readonly ParcelDeProduct[] = [
  {
    code: 'V01PAK',
    name: 'DHL Paket',
    types: ['outbound'],
    destinations: ['DE'],
    procedure: '01',
    max_weight_grams: 31_500,
    scope: 'domestic',
  },
  {
    code: 'V62KP',
    name: 'DHL Kleinpaket',
    types: ['outbound'],
    destinations: ['DE'],
    procedure: '62',
    max_weight_grams: 1_000,
    scope: 'domestic',
  },
  {
    code: 'V62WP',
    name: 'Warenpost (replaced by DHL Kleinpaket, V62KP)',
    types: ['outbound'],
    destinations: ['DE'],
    procedure: '62',
    max_weight_grams: 1_000,
    scope: 'domestic',
  },
  {
    code: 'V53WPAK',
    name: 'DHL Paket International',
    types: ['outbound'],
    destinations: ['eu', 'international'],
    procedure: '53',
    max_weight_grams: 31_500,
    scope: 'abroad',
  },
  {
    code: 'V54EPAK',
    name: 'DHL Europaket',
    types: ['outbound'],
    destinations: ['eu'],
    procedure: '54',
    max_weight_grams: 31_500,
    scope: 'eu',
  },
  {
    code: 'V66WPI',
    name: 'Warenpost International',
    types: ['outbound'],
    destinations: ['eu', 'international'],
    procedure: '66',
    max_weight_grams: 1_000,
    scope: 'abroad',
  },
  {
    code: 'V07PAK',
    name: 'DHL Retoure Online / International (Returns API)',
    types: ['return'],
    destinations: ['DE'],
    procedure: '07',
    max_weight_grams: 31_500,
    scope: 'domestic',
  },
];

export const RETURN_PRODUCT = 'V07PAK';

export function productOf(code: string | null | undefined): ParcelDeProduct | undefined {
  return PARCEL_DE_PRODUCTS.find((product) => product.code === code);
}

/** The product when the shipment names none: DHL Paket within Germany, DHL Paket International abroad, Retoure for returns. */
export function defaultProduct(type: 'outbound' | 'return', destination: string | null): string {
  if (type === 'return') return RETURN_PRODUCT;
  return destination === null || destination === 'DE' ? 'V01PAK' : 'V53WPAK';
}

/**
 * Countries a DHL Retoure label can be booked from (the Returns API's sender countries, alpha-2), and whether the
 * return needs a customs declaration (from outside the EU).
 */
export const RETURN_SENDER_COUNTRIES: ReadonlySet<string> = new Set([
  'BE',
  'BG',
  'DK',
  'DE',
  'EE',
  'FI',
  'FR',
  'GR',
  'GB',
  'IE',
  'IT',
  'HR',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'NO',
  'AT',
  'PL',
  'PT',
  'RO',
  'SE',
  'CH',
  'SK',
  'SI',
  'ES',
  'CZ',
  'HU',
  'CY',
]);

/** Whether a product may go from Germany to `destination` (alpha-2). */
export function servesDestination(product: ParcelDeProduct, destination: string): boolean {
  if (product.scope === 'domestic') return destination === 'DE';
  if (product.scope === 'eu') return destination !== 'DE' && EU_COUNTRIES.has(destination);
  return destination !== 'DE';
}

import { Type } from '@sinclair/typebox';
import { LABEL_FORMATS, type LabelFormat } from '../../documents/label.types.js';
import type { BookingProduct, BookRequest, CarrierFieldError } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import {
  addressAt,
  countryOf,
  LIMITS,
  linesOf,
  nameOf,
  needsCustoms,
  partiesOf,
  personOf,
  phoneDigits,
  postalOf,
  usesImperialUnits,
} from './upsglb.parties.js';

/**
 * What a UPS booking needs before anything is sent: the booking settings, the products (UPS service codes)
 * and the options merchants give in `carrier_metadata`, and `checkUpsBooking`, which finds every problem
 * UPS would refuse that we can see ourselves. Pure. Limits and codes: Shipping.yaml (UPS-API/api-documentation).
 */

/** The configuration settings booking adds to tracking's client credentials. */
export const UPS_BOOKING_SETTINGS = {
  account_number: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9]{6}$',
      description: 'UPS account (shipper) number, 6 letters and digits; needed to book. The UPS app needs the Shipping product.',
    }),
  ),
  label_format: Type.Optional(
    Type.Union([Type.Literal('pdf'), Type.Literal('png'), Type.Literal('zpl')], {
      description: 'Label format when a booking does not choose one: pdf (default), png or zpl',
    }),
  ),
  negotiated_rates: Type.Optional(
    Type.Boolean({ description: "Ask UPS for the account's negotiated rates (shown in carrier_additional_info)" }),
  ),
};

/** UPS service codes we book (Shipping.yaml, `Service.Code`). */
export const UPS_PRODUCTS: readonly BookingProduct[] = [
  { code: '01', name: 'UPS Next Day Air', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: '02', name: 'UPS 2nd Day Air', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: '03', name: 'UPS Ground', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: '07', name: 'UPS Worldwide Express', types: ['outbound', 'return'], destinations: ['international'] },
  { code: '08', name: 'UPS Worldwide Expedited', types: ['outbound', 'return'], destinations: ['international'] },
  { code: '11', name: 'UPS Standard', types: ['outbound', 'return'] },
  { code: '12', name: 'UPS 3 Day Select', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: '13', name: 'UPS Next Day Air Saver', types: ['outbound'], destinations: ['domestic'] },
  { code: '14', name: 'UPS Next Day Air Early', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: '17', name: 'UPS Worldwide Economy DDU', types: ['outbound', 'return'], destinations: ['international'] },
  { code: '54', name: 'UPS Worldwide Express Plus', types: ['outbound', 'return'], destinations: ['international'] },
  { code: '59', name: 'UPS 2nd Day Air A.M.', types: ['outbound'], destinations: ['domestic'] },
  { code: '65', name: 'UPS Saver', types: ['outbound', 'return'] },
  { code: '70', name: 'UPS Access Point Economy', types: ['outbound', 'return'] },
  { code: '72', name: 'UPS Worldwide Economy DDP', types: ['outbound', 'return'], destinations: ['international'] },
  { code: '74', name: 'UPS Express 12:00', types: ['outbound', 'return'] },
];

/** Packages in one booking: UPS allows 20 for a return ("For Return Shipments up to 20 packages are allowed"). */
export const UPS_MAX_PARCELS = 20;

/** `ShipmentIndicationType` for a booking to an Access Point: 01 Hold for Pickup (default), 02 Access Point Delivery. */
export const INDICATION_TYPES = ['01', '02'] as const;
/** `InternationalForms.ReasonForExport`. */
export const EXPORT_REASONS = ['SALE', 'GIFT', 'SAMPLE', 'RETURN', 'REPAIR', 'INTERCOMPANYDATA'] as const;
/** `InternationalForms.TermsOfShipment` (Incoterms). */
export const TERMS_OF_SHIPMENT = 'CFR CIF CIP CPT DAF DDP DAP DEQ DES EXW FAS FCA FOB'.split(' ');

/** Options a booking may give in `carrier_metadata` (besides the service's own `parcels`). */
export const METADATA_KEYS = ['label_format', 'shipment_indication_type', 'reason_for_export', 'invoice_number', 'terms_of_shipment'];

/** The label format of a booking: its own option, else the configuration's, else pdf. */
export function labelFormatOf(request: BookRequest, settings: CarrierSettings): LabelFormat {
  const wanted = request.carrier_metadata.label_format ?? settings.label_format ?? 'pdf';
  return LABEL_FORMATS.includes(wanted as LabelFormat) ? (wanted as LabelFormat) : 'pdf';
}

/** The text describing the goods: the shipment's description, else its line items' names. */
export function goodsDescription(request: BookRequest): string {
  const own = (request.description_of_goods ?? '').replace(/\s+/g, ' ').trim();
  if (own) return own;
  return request.line_items
    .map((item) => String(item.customs_description ?? item.product_name ?? '').trim())
    .filter(Boolean)
    .join(', ');
}

/** The largest a package may be: "Length + 2*(Width + Height) must be less than or equal to ... 330 CM". */
const MAX_LENGTH_CM = 270;
const MAX_GIRTH_CM = 330;

function checkAddress(request: BookRequest, field: string, role: string, international: boolean, errors: CarrierFieldError[]): void {
  const address = addressAt(request, field);
  if (!address) {
    errors.push({ path: [field], message: `UPS needs this address (the ${role}) to book.` });
    return;
  }
  const name = nameOf(address);
  if (!name) errors.push({ path: [field, 'first_name'], message: 'A name or a company is needed on the UPS label.' });
  if (String(address.company ?? '').trim().length > LIMITS.name)
    errors.push({ path: [field, 'company'], message: `UPS takes names of at most ${LIMITS.name} characters.` });
  if (personOf(address).length > LIMITS.name)
    errors.push({ path: [field, 'last_name'], message: `UPS takes names (first and last) of at most ${LIMITS.name} characters.` });
  const lines = linesOf(address);
  if (lines.length === 0) errors.push({ path: [field, 'line1'], message: 'A street address is needed on the UPS label.' });
  for (const line of lines) {
    if (line.text.length > LIMITS.line)
      errors.push({ path: [field, line.field], message: `UPS takes address lines of at most ${LIMITS.line} characters.` });
  }
  const city = String(address.city ?? '').trim();
  if (!city) errors.push({ path: [field, 'city'], message: 'The city is needed on the UPS label.' });
  else if (city.length > LIMITS.city)
    errors.push({ path: [field, 'city'], message: `UPS takes cities of at most ${LIMITS.city} characters.` });
  const country = countryOf(address);
  if (!/^[A-Z]{2}$/.test(country)) errors.push({ path: [field, 'country_code'], message: 'UPS needs the country (ISO code).' });
  const postal = postalOf(address);
  if (!postal && ['US', 'CA', 'PR'].includes(country))
    errors.push({ path: [field, 'postal_code'], message: 'UPS needs the postal code in the US, Canada and Puerto Rico.' });
  else if (postal.length > LIMITS.postal)
    errors.push({ path: [field, 'postal_code'], message: `UPS takes postal codes of at most ${LIMITS.postal} characters.` });
  const state = String(address.state_or_province ?? '').trim();
  if (!state && ['US', 'CA', 'VN'].includes(country))
    errors.push({ path: [field, 'state_or_province'], message: 'UPS needs the state or province code here (e.g. NY).' });
  else if (state.length > LIMITS.state)
    errors.push({
      path: [field, 'state_or_province'],
      message: `UPS takes the state or province code, at most ${LIMITS.state} characters (e.g. NY).`,
    });
  const phone = phoneDigits(address);
  if (international && !phone)
    errors.push({ path: [field, 'phone'], message: 'UPS needs a phone number of both parties when the parcel leaves the country.' });
  else if (phone.length > LIMITS.phone)
    errors.push({ path: [field, 'phone'], message: `UPS takes phone numbers of at most ${LIMITS.phone} digits.` });
  const email = String(address.email ?? '');
  if (email.length > LIMITS.email)
    errors.push({ path: [field, 'email'], message: `UPS takes e-mail addresses of at most ${LIMITS.email} characters.` });
}

function checkMetadata(request: BookRequest, errors: CarrierFieldError[]): void {
  for (const [key, value] of Object.entries(request.carrier_metadata)) {
    const path = ['carrier_metadata', key];
    if (!METADATA_KEYS.includes(key)) {
      errors.push({ path, message: `Unknown option for UPS. Options: parcels, ${METADATA_KEYS.join(', ')}.` });
    } else if (key === 'label_format' && !LABEL_FORMATS.includes(value as LabelFormat)) {
      errors.push({ path, message: `One of: ${LABEL_FORMATS.join(', ')}.` });
    } else if (key === 'shipment_indication_type') {
      if (!(INDICATION_TYPES as readonly unknown[]).includes(value))
        errors.push({ path, message: '01 (Hold for Pickup at a UPS Access Point) or 02 (UPS Access Point Delivery).' });
      else if (!request.pudo_location) errors.push({ path, message: 'Only for a booking to a UPS Access Point (pudo_location_uuid).' });
    } else if (key === 'reason_for_export' && !(EXPORT_REASONS as readonly unknown[]).includes(value)) {
      errors.push({ path, message: `One of: ${EXPORT_REASONS.join(', ')}.` });
    } else if (key === 'invoice_number' && (typeof value !== 'string' || value.trim() === '' || value.length > 35)) {
      errors.push({ path, message: 'A text of 1 to 35 characters.' });
    } else if (key === 'terms_of_shipment' && !TERMS_OF_SHIPMENT.includes(value as string)) {
      errors.push({ path, message: `One of: ${TERMS_OF_SHIPMENT.join(', ')}.` });
    }
  }
}

function checkParcels(request: BookRequest, imperial: boolean, errors: CarrierFieldError[]): void {
  const ownParcel = request.parcels.length === 1 && request.parcels[0].weight_grams === request.weight_grams;
  request.parcels.forEach((parcel, index) => {
    const at = ownParcel ? [] : ['carrier_metadata', 'parcels', index];
    if (parcel.weight_grams === null || !(parcel.weight_grams > 0)) {
      errors.push({ path: ownParcel ? ['weight'] : [...at, 'weight'], message: 'UPS needs the weight (in g, above 0) of every parcel.' });
    }
    const dims = parcel.dimensions_cm;
    if (!dims) return;
    const sides = [dims.length, dims.width, dims.height].sort((a, b) => b - a);
    const path = ownParcel ? ['dimensions'] : [...at, 'dimensions'];
    if (!sides.every((side) => typeof side === 'number' && Number.isFinite(side) && side > 0))
      errors.push({ path, message: 'UPS needs the length, width and height in cm, each above 0.' });
    else if (sides[0] > MAX_LENGTH_CM)
      errors.push({ path, message: `UPS takes parcels of at most ${MAX_LENGTH_CM} cm${imperial ? ' (108 in)' : ''} on the longest side.` });
    else if (sides[0] + 2 * (sides[1] + sides[2]) > MAX_GIRTH_CM)
      errors.push({ path, message: `UPS takes parcels whose length + 2 × (width + height) is at most ${MAX_GIRTH_CM} cm.` });
  });
}

function checkCustoms(request: BookRequest, errors: CarrierFieldError[]): void {
  if (request.line_items.length === 0) {
    errors.push({
      path: ['line_items'],
      message: 'UPS needs the goods (line items) for the commercial invoice of a parcel crossing a customs border.',
    });
    return;
  }
  const currencies = new Set<string>();
  request.line_items.forEach((item, index) => {
    const at = ['line_items', index];
    const hs = String(item.hs_code ?? '').replace(/[\s.]/g, '');
    if (!/^[A-Za-z0-9]{6,15}$/.test(hs))
      errors.push({
        path: [...at, 'hs_code'],
        message: 'UPS needs the HS code (6 to 15 letters and digits) of each item crossing a customs border.',
      });
    if (!/^[A-Za-z]{2}$/.test(String(item.product_origin_country_code ?? '')))
      errors.push({
        path: [...at, 'product_origin_country_code'],
        message: 'UPS needs the country of origin of each item for the invoice.',
      });
    if (!String(item.customs_description ?? item.product_name ?? '').trim())
      errors.push({ path: [...at, 'customs_description'], message: 'UPS needs a description of each item for the invoice.' });
    if (unitValue(item) === null)
      errors.push({ path: [...at, 'product_cost'], message: 'UPS needs the value of each item (above 0) for the invoice.' });
    const currency = String(item.currency_code ?? request.shipment_value?.currency ?? '');
    if (currency) currencies.add(currency.toUpperCase());
  });
  if (currencies.size === 0)
    errors.push({ path: ['line_items', 0, 'currency_code'], message: 'UPS needs the currency of the goods for the invoice.' });
}

/** An item's value per unit: its product cost, else its subtotal or total price divided by the quantity. */
export function unitValue(item: Readonly<Record<string, unknown>>): number | null {
  const quantity = typeof item.quantity === 'number' && item.quantity > 0 ? item.quantity : 1;
  for (const [value, per] of [
    [item.product_cost, 1],
    [item.subtotal_cost, quantity],
    [item.total_price, quantity],
  ] as const) {
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value / per;
  }
  return null;
}

/**
 * Every problem UPS would refuse that the request shows: the account number, the service, the addresses in
 * UPS's limits, weights and sizes, customs data when the parcel crosses a customs border, Access Point rules,
 * and the options. Never throws, whatever the request holds.
 */
export function checkUpsBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
  const errors: CarrierFieldError[] = [];
  try {
    if (typeof settings.account_number !== 'string' || !/^[A-Za-z0-9]{6}$/.test(settings.account_number)) {
      errors.push({
        path: ['carrier_reference'],
        message:
          'This UPS configuration has no account number (settings.account_number, the 6-character UPS shipper number); UPS books only with one.',
      });
    }
    const product = UPS_PRODUCTS.find((p) => p.code === request.shipping_service);
    if (!request.shipping_service) {
      errors.push({
        path: ['shipping_service'],
        message: `UPS needs the service code. Codes: ${UPS_PRODUCTS.map((p) => p.code).join(', ')}.`,
      });
    } else if (!product) {
      errors.push({
        path: ['shipping_service'],
        message: `Not a UPS service Waybill books. Codes: ${UPS_PRODUCTS.map((p) => `${p.code} (${p.name})`).join(', ')}.`,
      });
    } else if (!product.types.includes(request.type_of_shipment)) {
      errors.push({ path: ['shipping_service'], message: `${product.name} cannot be used for return labels.` });
    }
    const parties = partiesOf(request);
    const international = countryOf(request.sender) !== countryOf(request.recipient);
    checkAddress(
      request,
      request.sender_field,
      request.type_of_shipment === 'return' ? 'consumer sending it back' : 'shipper',
      international,
      errors,
    );
    checkAddress(request, request.recipient_field, 'addressee', international, errors);
    checkParcels(request, usesImperialUnits(countryOf(addressAt(request, parties.shipper))), errors);
    checkMetadata(request, errors);
    const returnFromUs = request.type_of_shipment === 'return' && ['US', 'PR'].includes(countryOf(request.sender));
    if (returnFromUs && request.parcels.length > 1) {
      errors.push({ path: ['carrier_metadata', 'parcels'], message: 'UPS returns from the US and Puerto Rico are one parcel each.' });
    }
    if (request.pudo_location) {
      if (request.type_of_shipment === 'return')
        errors.push({ path: ['pudo_location_uuid'], message: 'UPS return labels go to the merchant, not to an Access Point.' });
      if (!String(request.recipient?.email ?? '').trim())
        errors.push({
          path: [request.recipient_field, 'email'],
          message: 'UPS tells the addressee by e-mail that the parcel waits at the Access Point.',
        });
    }
    const customs = needsCustoms(request);
    if ((customs || request.type_of_shipment === 'return') && !goodsDescription(request)) {
      errors.push({ path: ['description_of_goods'], message: 'UPS needs a description of the goods for this shipment.' });
    }
    if (customs) checkCustoms(request, errors);
  } catch {
    errors.push({ path: ['shipment_uuid'], message: 'The shipment data could not be read for UPS.' });
  }
  return errors;
}

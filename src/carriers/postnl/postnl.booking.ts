import { Type } from '@sinclair/typebox';
import type { LabelFormat } from '../../documents/label.types.js';
import type { BookingProduct, BookRequest, CarrierFieldError } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import { countryOf, EU, readParty } from './postnl.parties.js';

/**
 * What a PostNL booking needs before anything is sent: the booking settings, the products (PostNL's
 * `ProductCodeDelivery`), the options merchants give in `carrier_metadata`, and `checkPostnlBooking`, which
 * finds every problem PostNL would refuse that we can see ourselves. Pure.
 *
 * Sources (docs/carriers/postnl.md): the Labelling API v2_2 models (LabellingRequest, Shipment, Address,
 * Contact, Dimension, Group, ProductOption) and the product codes and business rules of the Developer Portal.
 */

/** The configuration settings booking adds to tracking's API key: the PostNL contract's codes. */
export const POSTNL_BOOKING_SETTINGS = {
  customer_code: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9]{1,6}$',
      description: 'PostNL customer code (1 to 6 letters and digits, e.g. DEVC in the sandbox); needed to book',
    }),
  ),
  customer_number: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,8}$', description: 'PostNL customer number (up to 8 digits, e.g. 11223344); needed to book' }),
  ),
  collection_location: Type.Optional(
    Type.String({ pattern: '^[0-9]{6}$', description: 'PostNL collection location (6 digits) of the contract, when PostNL gave one' }),
  ),
  label_format: Type.Optional(
    Type.Union([Type.Literal('pdf'), Type.Literal('zpl')], {
      description: 'Label format when a booking does not choose one: pdf (default) or zpl',
    }),
  ),
  barcode_serie: Type.Optional(
    Type.String({
      pattern: '^[0-9]{6,9}-[0-9]{6,9}$',
      description: "Barcode range for PostNL's barcode service ('000000000-999999999'); PostNL's default when absent",
    }),
  ),
};

/**
 * `ProductCodeDelivery` values we book, for a Dutch contract (sent from the Netherlands). Sources, read 2026-11-29:
 * PostNL Developer Portal pages naming them (use cases, the Belgium and Brexit pages, Smart Returns); each code's
 * source is in docs/carriers/postnl.md.
 */
export const POSTNL_PRODUCTS: readonly BookingProduct[] = [
  { code: '3085', name: 'Standard shipment', types: ['outbound'], destinations: ['domestic'] },
  { code: '3189', name: 'Signature on delivery', types: ['outbound'], destinations: ['domestic'] },
  { code: '3089', name: 'Signature on delivery + Delivery to stated address only', types: ['outbound'], destinations: ['domestic'] },
  { code: '3385', name: 'Deliver to stated address only', types: ['outbound'], destinations: ['domestic'] },
  { code: '3533', name: 'Pick up at PostNL location + Signature on delivery', types: ['outbound'], destinations: ['domestic'] },
  { code: '4944', name: 'Parcels EU to consumer', types: ['outbound'], destinations: ['eu'] },
  { code: '2285', name: 'Return label (Smart Returns when asked)', types: ['return'], destinations: ['domestic'] },
];

/** Products delivered at a PostNL point (address type 09). */
const PICKUP_PRODUCTS: ReadonlySet<string> = new Set(['3533']);
/** Products to other EU countries (one parcel, no multi-collo). */
const EU_PRODUCTS: ReadonlySet<string> = new Set(['4944']);

/** A product and what PostNL's business rules ask of it. */
export type PostnlProduct = BookingProduct & { pickup: boolean; eu: boolean };

/** Parcels in one multi-collo booking (`Groups`, group type 03): our limit, well inside PostNL's 200 KB request size. */
export const POSTNL_MAX_PARCELS = 10;

/** The heaviest parcel PostNL takes (31.5 kg) and its largest size (176 × 78 × 58 cm), from PostNL's parcel rules. */
export const MAX_WEIGHT_GRAMS = 31_500;
const MAX_SIDES_CM = [176, 78, 58] as const;

/** Options a booking may give in `carrier_metadata` (besides the service's own `parcels`). */
export const METADATA_KEYS = ['label_format', 'smart_returns'];

/** The label format of a booking: its own option, else the configuration's, else pdf. PostNL renders PDF and ZPL. */
export function labelFormatOf(request: BookRequest, settings: CarrierSettings): LabelFormat {
  const wanted = request.carrier_metadata.label_format ?? settings.label_format ?? 'pdf';
  return wanted === 'zpl' ? 'zpl' : 'pdf';
}

export function productOf(request: BookRequest): PostnlProduct | undefined {
  const product = POSTNL_PRODUCTS.find((p) => p.code === request.shipping_service);
  return product && { ...product, pickup: PICKUP_PRODUCTS.has(product.code), eu: EU_PRODUCTS.has(product.code) };
}

/** Whether the booking asks for Smart Returns (a return label PostNL mails to the consumer as a QR code). */
export function smartReturns(request: BookRequest): boolean {
  return request.carrier_metadata.smart_returns === true;
}

function checkMetadata(request: BookRequest, errors: CarrierFieldError[]): void {
  for (const [key, value] of Object.entries(request.carrier_metadata)) {
    const path = ['carrier_metadata', key];
    if (!METADATA_KEYS.includes(key)) {
      errors.push({ path, message: `Unknown option for PostNL. Options: parcels, ${METADATA_KEYS.join(', ')}.` });
    } else if (key === 'label_format' && value !== 'pdf' && value !== 'zpl') {
      errors.push({ path, message: 'PostNL renders labels as pdf or zpl.' });
    } else if (key === 'smart_returns') {
      if (typeof value !== 'boolean') errors.push({ path, message: 'true or false.' });
      else if (value && request.type_of_shipment !== 'return') errors.push({ path, message: 'Smart Returns are for return labels only.' });
    }
  }
}

function checkParcels(request: BookRequest, product: PostnlProduct | undefined, errors: CarrierFieldError[]): void {
  const ownParcel = request.parcels.length === 1 && request.parcels[0].weight_grams === request.weight_grams;
  if (request.parcels.length > 1) {
    const why =
      request.type_of_shipment === 'return' ? 'a return label' : product?.pickup ? 'a PostNL point' : product?.eu ? 'abroad' : null;
    if (why)
      errors.push({ path: ['carrier_metadata', 'parcels'], message: `PostNL books one parcel per shipment to ${why} (no multi-collo).` });
    else if (request.parcels.length > POSTNL_MAX_PARCELS)
      errors.push({
        path: ['carrier_metadata', 'parcels'],
        message: `Waybill books at most ${POSTNL_MAX_PARCELS} PostNL parcels at once.`,
      });
  }
  request.parcels.forEach((parcel, index) => {
    const at = ownParcel ? [] : ['carrier_metadata', 'parcels', index];
    const weight = parcel.weight_grams;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || !(weight > 0)) {
      errors.push({
        path: ownParcel ? ['weight'] : [...at, 'weight'],
        message: 'PostNL needs the weight (in g, above 0) of every parcel.',
      });
    } else if (weight > MAX_WEIGHT_GRAMS) {
      errors.push({ path: ownParcel ? ['weight'] : [...at, 'weight'], message: 'PostNL takes parcels of at most 31.5 kg.' });
    }
    const dims = parcel.dimensions_cm;
    if (!dims) return;
    const path = ownParcel ? ['dimensions'] : [...at, 'dimensions'];
    const sides = [dims.length, dims.width, dims.height];
    if (!sides.every((side) => typeof side === 'number' && Number.isFinite(side) && side > 0)) {
      errors.push({ path, message: 'PostNL needs the length, width and height in cm, each above 0.' });
      return;
    }
    const sorted = [...sides].sort((a, b) => b - a);
    if (sorted.some((side, i) => side > MAX_SIDES_CM[i]))
      errors.push({ path, message: 'PostNL takes parcels of at most 176 × 78 × 58 cm.' });
  });
}

function checkProduct(request: BookRequest, product: PostnlProduct | undefined, errors: CarrierFieldError[]): void {
  const list = POSTNL_PRODUCTS.map((p) => `${p.code} (${p.name})`).join(', ');
  if (!request.shipping_service) {
    errors.push({ path: ['shipping_service'], message: `PostNL needs the product code. Codes: ${list}.` });
    return;
  }
  if (!product) {
    errors.push({ path: ['shipping_service'], message: `Not a PostNL product Waybill books. Codes: ${list}.` });
    return;
  }
  if (!product.types.includes(request.type_of_shipment)) {
    const fit = POSTNL_PRODUCTS.filter((p) => p.types.includes(request.type_of_shipment)).map((p) => p.code);
    errors.push({
      path: ['shipping_service'],
      message: `${product.code} (${product.name}) is not for ${request.type_of_shipment === 'return' ? 'return labels' : 'outbound parcels'}; use ${fit.join(' or ')}.`,
    });
    return;
  }
  if (request.pudo_location && request.type_of_shipment === 'return') {
    errors.push({ path: ['pudo_location_uuid'], message: 'PostNL return labels go back to the merchant, not to a PostNL point.' });
    return;
  }
  if (request.pudo_location && !product.pickup) {
    const pickup = [...PICKUP_PRODUCTS];
    errors.push({ path: ['shipping_service'], message: `A parcel to a PostNL point needs a pick-up product: ${pickup.join(', ')}.` });
  }
  if (product.pickup && !request.pudo_location) {
    errors.push({ path: ['pudo_location_uuid'], message: `${product.code} delivers at a PostNL point: choose one (pudo_location_uuid).` });
  }
}

/**
 * Every problem PostNL would refuse that the request shows: the contract's codes, the product and where it goes,
 * the addresses in PostNL's limits, weights and sizes, PostNL points, and the options. Never throws.
 */
export function checkPostnlBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
  const errors: CarrierFieldError[] = [];
  try {
    if (typeof settings.customer_code !== 'string' || typeof settings.customer_number !== 'string') {
      errors.push({
        path: ['carrier_reference'],
        message:
          'This PostNL configuration has no customer code and number (settings.customer_code, settings.customer_number); PostNL books only with them.',
      });
    }
    const product = productOf(request);
    checkProduct(request, product, errors);
    const returning = request.type_of_shipment === 'return';
    const sender = readParty(request.sender, request.sender_field, returning ? 'consumer sending it back' : 'sender');
    const recipient = readParty(request.recipient, request.recipient_field, returning ? 'merchant it goes back to' : 'addressee');
    errors.push(...sender.problems, ...recipient.problems);
    const from = countryOf(request.sender);
    const to = countryOf(request.recipient);
    // Returns go from the consumer back to the merchant: the merchant's side is the contract's, in the Netherlands.
    const home = returning ? { field: request.recipient_field, country: to } : { field: request.sender_field, country: from };
    const away = returning ? { field: request.sender_field, country: from } : { field: request.recipient_field, country: to };
    if (home.country && home.country !== 'NL')
      errors.push({
        path: [home.field, 'country_code'],
        message: 'Waybill books PostNL parcels of a Dutch contract: this address is in the Netherlands.',
      });
    if (product && away.country) {
      if (product.eu && (away.country === 'NL' || !EU.has(away.country)))
        errors.push({ path: [away.field, 'country_code'], message: `${product.code} goes to EU countries other than the Netherlands.` });
      if (!product.eu && away.country !== 'NL')
        errors.push({
          path: [away.field, 'country_code'],
          message: `${product.code} (${product.name}) is for the Netherlands${returning ? '' : '; 4944 goes to other EU countries'}.`,
        });
    }
    const consumer = returning ? request.sender : request.recipient;
    const consumerField = returning ? request.sender_field : request.recipient_field;
    const email = typeof consumer?.email === 'string' ? consumer.email.trim() : '';
    if (product?.pickup && !email)
      errors.push({
        path: [consumerField, 'email'],
        message: 'PostNL e-mails the addressee when the parcel is ready at the PostNL point.',
      });
    if (returning && smartReturns(request) && !email)
      errors.push({ path: [consumerField, 'email'], message: 'PostNL sends the Smart Returns code to this e-mail address.' });
    if (request.pudo_location) {
      if (request.pudo_location.address.country_code !== 'NL')
        errors.push({ path: ['pudo_location_uuid'], message: 'Waybill books PostNL points in the Netherlands.' });
    }
    checkParcels(request, product, errors);
    checkMetadata(request, errors);
  } catch {
    errors.push({ path: ['shipment_uuid'], message: 'The shipment data could not be read for PostNL.' });
  }
  return errors;
}

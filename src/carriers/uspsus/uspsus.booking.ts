import { Type } from '@sinclair/typebox';
import { LABEL_FORMATS, type LabelFormat } from '../../documents/label.types.js';
import type { BookingProduct, BookParcel, BookRequest, CarrierFieldError } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import { addressOf, countryOf, emailOf, linesOf, personOf, phoneOf, stateOf, zipOf } from './uspsus.parties.js';

/**
 * What a USPS booking needs before anything is sent: the settings of the payment account, the products (USPS
 * mail classes), the options merchants give in `carrier_metadata`, and `checkUspsBooking`, which finds every
 * problem USPS would refuse that we can see ourselves. Pure. Field limits and codes: the OpenAPI "Labels"
 * 3.9.4 (developers.usps.com/domesticlabelsv3) and "Payments" 3.0; sources in docs/carriers/uspsus.md.
 */

/** The configuration settings booking adds to tracking's client credentials (Payments 3.0 `roles`). */
export const USPS_BOOKING_SETTINGS = {
  crid: Type.Optional(
    Type.String({
      pattern: '^[0-9]{4,15}$',
      description: 'Customer Registration ID (CRID) of the USPS business account that owns and pays for the labels; needed to book',
    }),
  ),
  mid: Type.Optional(Type.String({ pattern: '^([0-9]{6}|[0-9]{9})$', description: 'Mailer ID (MID, 6 or 9 digits) of the labels' })),
  manifest_mid: Type.Optional(
    Type.String({ pattern: '^([0-9]{6}|[0-9]{9})$', description: 'Manifest MID, when it differs from the MID (6 or 9 digits)' }),
  ),
  account_type: Type.Optional(
    Type.Union([Type.Literal('EPS'), Type.Literal('PERMIT')], {
      description: 'How postage is paid: EPS (Enterprise Payment System account, default) or PERMIT (permit imprint)',
    }),
  ),
  account_number: Type.Optional(
    Type.String({ pattern: '^[0-9A-Za-z]{1,20}$', description: 'The EPS account number, or the permit number for PERMIT' }),
  ),
  permit_zip: Type.Optional(Type.String({ pattern: '^[0-9]{5}$', description: 'ZIP Code of the permit (PERMIT only)' })),
  label_format: Type.Optional(
    Type.Union([Type.Literal('pdf'), Type.Literal('png'), Type.Literal('zpl')], {
      description: 'Label format when a booking does not choose one: pdf (default), png or zpl (203 dpi)',
    }),
  ),
};

/** USPS mail classes we book (`packageDescription.mailClass`), and the return service of each that has one. */
export const USPS_PRODUCTS: readonly BookingProduct[] = [
  { code: 'USPS_GROUND_ADVANTAGE', name: 'USPS Ground Advantage', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: 'PRIORITY_MAIL', name: 'Priority Mail', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: 'PRIORITY_MAIL_EXPRESS', name: 'Priority Mail Express', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: 'MEDIA_MAIL', name: 'Media Mail', types: ['outbound'], destinations: ['domestic'] },
  { code: 'LIBRARY_MAIL', name: 'Library Mail', types: ['outbound'], destinations: ['domestic'] },
  { code: 'BOUND_PRINTED_MATTER', name: 'Bound Printed Matter', types: ['outbound'], destinations: ['domestic'] },
];

/** The mail class of a return label (`BaseReturnsPackageDescription.mailClass`) for each product that has one. */
export const RETURN_CLASSES: Readonly<Record<string, string>> = {
  USPS_GROUND_ADVANTAGE: 'USPS_GROUND_ADVANTAGE_RETURN_SERVICE',
  PRIORITY_MAIL: 'PRIORITY_MAIL_RETURN_SERVICE',
  PRIORITY_MAIL_EXPRESS: 'PRIORITY_MAIL_EXPRESS_RETURN_SERVICE',
};

/** The mail classes USPS holds for pickup at a Post Office (Hold For Pickup: Priority Mail Express, Priority Mail, USPS Ground Advantage). */
export const HOLD_FOR_PICKUP_CLASSES = ['USPS_GROUND_ADVANTAGE', 'PRIORITY_MAIL', 'PRIORITY_MAIL_EXPRESS'];

/** One package per label: the Labels API creates one label (one tracking number) per call. */
export const USPS_MAX_PARCELS = 1;

/** `rateIndicator` values of outbound labels (`DomesticPackageDescription`) and of return labels (`ReturnsPackageDescription`). */
export const RATE_INDICATORS =
  '3D 3N 3R 5D BA BB CP CM DC DE DF DN DR E4 E6 FA FB FE FP FS LC LF LL LO LS NP OS P5 P6 P7 P8 P9 Q6 Q7 Q8 Q9 Q0 PA PL PM PR SN SP SR'.split(
    ' ',
  );
export const RETURN_RATE_INDICATORS = 'CP DN DR E4 E6 FA FB FE FP FS OS P5 P6 P7 P8 P9 PA PL PM Q6 Q7 Q8 Q9 Q0 SP'.split(' ');
/** `processingCategory` values we send (IRREGULAR and NON_MACHINABLE "will convert to NONSTANDARD"). */
export const PROCESSING_CATEGORIES = ['MACHINABLE', 'NONSTANDARD', 'LETTERS', 'FLATS'];

/** Options a booking may give in `carrier_metadata` (besides the service's own `parcels`). */
export const METADATA_KEYS = ['label_format', 'rate_indicator', 'processing_category'];

/** The label format of a booking: its own option, else the configuration's, else pdf. */
export function labelFormatOf(request: BookRequest, settings: Readonly<Record<string, unknown>>): LabelFormat {
  const wanted = request.carrier_metadata.label_format ?? settings.label_format ?? 'pdf';
  return LABEL_FORMATS.includes(wanted as LabelFormat) ? (wanted as LabelFormat) : 'pdf';
}

/** "Items must weigh 70 pounds (1120 ounces) or less" (Labels 3.9.4, `weight`). */
export const MAX_WEIGHT_LB = 70;
const GRAMS_PER_LB = 453.59237;
const CM_PER_INCH = 2.54;
/** Length plus girth: 130 in for USPS Ground Advantage, 108 in for the other classes (DMM 201.7.1, 201.8). */
const MAX_LENGTH_GIRTH_IN: Readonly<Record<string, number>> = { USPS_GROUND_ADVANTAGE: 130 };
const DEFAULT_LENGTH_GIRTH_IN = 108;

/** Pounds, as USPS takes them (`weightUOM` lb), at most 2 decimals and never 0 for a parcel that weighs something. */
export function pounds(grams: number): number {
  return Math.max(0.01, Math.ceil((grams / GRAMS_PER_LB) * 100) / 100);
}

/** Inches, at most one decimal, rounded up (USPS measures to the next higher inch or fraction). */
export function inches(cm: number): number {
  return Math.max(0.1, Math.ceil((cm / CM_PER_INCH) * 10) / 10);
}

/** The sides of a parcel in inches, longest first (USPS: "the maximum dimension is always length"). */
export function sidesInches(parcel: BookParcel): [number, number, number] | null {
  const dims = parcel.dimensions_cm;
  if (!dims) return null;
  const sides = [dims.length, dims.width, dims.height];
  if (!sides.every((side) => typeof side === 'number' && Number.isFinite(side) && side > 0)) return null;
  const [a, b, c] = sides.map(inches).sort((x, y) => y - x);
  return [a, b, c];
}

/**
 * Machinable parcels (DMM 201.7.2, since January 2025): 6 oz to 25 lb, 6 x 3 x 0.25 in to 22 x 18 x 15 in; anything
 * else is NONSTANDARD. A merchant may say otherwise in `carrier_metadata.processing_category`.
 */
export function processingCategoryOf(request: BookRequest, parcel: BookParcel): string {
  const own = request.carrier_metadata.processing_category;
  if (typeof own === 'string' && PROCESSING_CATEGORIES.includes(own)) return own;
  const sides = sidesInches(parcel);
  const lb = (parcel.weight_grams ?? 0) / GRAMS_PER_LB;
  if (!sides || lb < 6 / 16 || lb > 25) return 'NONSTANDARD';
  const [length, width, height] = sides;
  const fits = length <= 22 && width <= 18 && height <= 15 && length >= 6 && width >= 3 && height >= 0.25;
  return fits ? 'MACHINABLE' : 'NONSTANDARD';
}

/** `rateIndicator`: the merchant's, else PA (single piece) for Priority Mail Express and SP (single piece) otherwise. */
export function rateIndicatorOf(request: BookRequest): string {
  const own = request.carrier_metadata.rate_indicator;
  if (typeof own === 'string' && own) return own;
  return request.shipping_service === 'PRIORITY_MAIL_EXPRESS' ? 'PA' : 'SP';
}

/** Limits of `DomesticLabelAddress` (Labels 3.9.4). */
export const LIMITS = { street: 50, city: 28, name: 50, email: 50 } as const;
/** US states and the territories and military codes `State` lists. */
const STATES = new Set(
  'AA AE AL AK AP AS AZ AR CA CO CT DE DC FM FL GA GU HI ID IL IN IA KS KY LA ME MH MD MA MI MN MS MO MP MT NE NV NH NJ NM NY NC ND OH OK OR PW PA PR RI SC SD TN TX UT VT VI VA WA WV WI WY'.split(
    ' ',
  ),
);
/**
 * Where USPS asks for a customs form (`customsForm`: "MPOs, APOs, FPOs, or DPOs … and some … Possessions,
 * Territories, and Freely Associated States"): not booked by Waybill yet.
 */
const CUSTOMS_STATES = new Set('AA AE AP AS FM GU MH MP PW VI'.split(' '));
/** The countries whose addresses USPS delivers as domestic mail (their ISO code is the state code). */
export const DOMESTIC_COUNTRIES = new Set(['US', 'PR', 'VI', 'GU', 'AS', 'MP', 'FM', 'MH', 'PW']);

function checkAddress(request: BookRequest, field: string, role: string, errors: CarrierFieldError[]): void {
  const address = addressOf(request, field);
  if (!address) {
    errors.push({ path: [field], message: `USPS needs this address (the ${role}) to book.` });
    return;
  }
  const person = personOf(address);
  const company = String(address.company ?? '').trim();
  if (!person.first && !person.last && !company)
    errors.push({ path: [field, 'first_name'], message: 'USPS needs the first and last name, or a company, on the label.' });
  if (person.first.length > LIMITS.name || person.last.length > LIMITS.name)
    errors.push({ path: [field, 'last_name'], message: `USPS takes first and last names of at most ${LIMITS.name} characters each.` });
  if (company.length > LIMITS.name)
    errors.push({ path: [field, 'company'], message: `USPS takes company names of at most ${LIMITS.name} characters.` });
  const lines = linesOf(address);
  if (lines.length === 0) errors.push({ path: [field, 'line1'], message: 'USPS needs the street address.' });
  for (const line of lines)
    if (line.text.length > LIMITS.street)
      errors.push({ path: [field, line.field], message: `USPS takes address lines of at most ${LIMITS.street} characters.` });
  if (lines.length > 2) errors.push({ path: [field, lines[2].field], message: 'USPS takes two address lines (street and unit).' });
  const city = String(address.city ?? '').trim();
  if (!city) errors.push({ path: [field, 'city'], message: 'USPS needs the city.' });
  else if (city.length > LIMITS.city)
    errors.push({ path: [field, 'city'], message: `USPS takes cities of at most ${LIMITS.city} characters.` });
  const country = countryOf(address);
  if (!DOMESTIC_COUNTRIES.has(country)) {
    errors.push({
      path: [field, 'country_code'],
      message: 'USPS labels through Waybill are domestic: both addresses in the US (or its territories).',
    });
    return;
  }
  const state = stateOf(address);
  if (!STATES.has(state)) errors.push({ path: [field, 'state_or_province'], message: 'USPS needs the two-letter state code (e.g. NY).' });
  else if (CUSTOMS_STATES.has(state))
    errors.push({
      path: [field, 'state_or_province'],
      message: 'USPS needs a customs form for military and some territory addresses, which Waybill does not send yet.',
    });
  if (!zipOf(address)) errors.push({ path: [field, 'postal_code'], message: 'USPS needs the ZIP Code: 5 digits, or ZIP+4 (12345-6789).' });
  const phone = String(address.phone ?? '').trim();
  if (phone && !phoneOf(address)) errors.push({ path: [field, 'phone'], message: 'USPS takes phone numbers of 8 to 15 digits.' });
  const email = String(address.email ?? '').trim();
  if (email && !emailOf(address))
    errors.push({
      path: [field, 'email'],
      message: `USPS takes e-mail addresses of at most ${LIMITS.email} characters (name@domain.tld).`,
    });
}

function checkMetadata(request: BookRequest, errors: CarrierFieldError[]): void {
  const indicators = request.type_of_shipment === 'return' ? RETURN_RATE_INDICATORS : RATE_INDICATORS;
  for (const [key, value] of Object.entries(request.carrier_metadata)) {
    const path = ['carrier_metadata', key];
    if (!METADATA_KEYS.includes(key)) errors.push({ path, message: `Unknown option for USPS. Options: ${METADATA_KEYS.join(', ')}.` });
    else if (key === 'label_format' && !LABEL_FORMATS.includes(value as LabelFormat))
      errors.push({ path, message: `One of: ${LABEL_FORMATS.join(', ')}.` });
    else if (key === 'rate_indicator' && !indicators.includes(value as string))
      errors.push({ path, message: `A USPS rate indicator of this label type, one of: ${indicators.join(', ')}.` });
    else if (key === 'processing_category' && !PROCESSING_CATEGORIES.includes(value as string))
      errors.push({ path, message: `One of: ${PROCESSING_CATEGORIES.join(', ')}.` });
  }
}

function checkParcel(request: BookRequest, errors: CarrierFieldError[]): void {
  const parcel = request.parcels[0];
  if (!parcel) return;
  const own = request.parcels.length === 1 && parcel.weight_grams === request.weight_grams;
  const at = (name: string) => (own ? [name] : ['carrier_metadata', 'parcels', 0, name]);
  if (parcel.weight_grams === null || !(parcel.weight_grams > 0))
    errors.push({ path: at('weight'), message: 'USPS needs the weight of the parcel (above 0).' });
  else if (parcel.weight_grams / GRAMS_PER_LB > MAX_WEIGHT_LB)
    errors.push({ path: at('weight'), message: `USPS takes parcels of at most ${MAX_WEIGHT_LB} lb (31.75 kg).` });
  const sides = sidesInches(parcel);
  if (!sides) {
    errors.push({ path: at('dimensions'), message: 'USPS needs the length, width and height of the parcel, each above 0.' });
    return;
  }
  const [length, width, height] = sides;
  const max = MAX_LENGTH_GIRTH_IN[request.shipping_service ?? ''] ?? DEFAULT_LENGTH_GIRTH_IN;
  if (length + 2 * (width + height) > max)
    errors.push({
      path: at('dimensions'),
      message: `USPS takes parcels of this class whose length plus girth is at most ${max} in (${Math.floor(max * CM_PER_INCH)} cm).`,
    });
}

/**
 * Every problem USPS would refuse that the request shows: the payment account, the mail class, domestic
 * addresses within USPS's limits, the parcel, Hold For Pickup's needs, and the options. Never throws.
 */
export function checkUspsBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
  const errors: CarrierFieldError[] = [];
  try {
    const missing = ['crid', 'mid', 'account_number'].filter((name) => typeof settings[name] !== 'string' || settings[name] === '');
    if (settings.account_type === 'PERMIT' && typeof settings.permit_zip !== 'string') missing.push('permit_zip');
    if (missing.length > 0)
      errors.push({
        path: ['carrier_reference'],
        message: `This USPS configuration cannot pay for labels: settings ${missing.join(', ')} missing (the CRID, MID and EPS account or permit of the USPS business account).`,
      });
    const product = USPS_PRODUCTS.find((p) => p.code === request.shipping_service);
    if (!product)
      errors.push({
        path: ['shipping_service'],
        message: `${request.shipping_service ? 'Not a USPS mail class Waybill books' : 'USPS needs the mail class'}. Codes: ${USPS_PRODUCTS.map((p) => `${p.code} (${p.name})`).join(', ')}.`,
      });
    else if (!product.types.includes(request.type_of_shipment))
      errors.push({ path: ['shipping_service'], message: `USPS has no return service for ${product.name}.` });
    if (request.parcels.length > USPS_MAX_PARCELS)
      errors.push({
        path: ['carrier_metadata', 'parcels'],
        message: 'USPS labels are one parcel each: book each parcel as its own shipment.',
      });
    const isReturn = request.type_of_shipment === 'return';
    checkAddress(request, request.sender_field, isReturn ? 'consumer sending it back' : 'sender', errors);
    checkAddress(request, request.recipient_field, isReturn ? 'merchant receiving it' : 'addressee', errors);
    checkParcel(request, errors);
    checkMetadata(request, errors);
    if (request.pudo_location) {
      if (isReturn) errors.push({ path: ['pudo_location_uuid'], message: 'USPS return labels go to the merchant, not to a Post Office.' });
      else if (product && !HOLD_FOR_PICKUP_CLASSES.includes(product.code))
        errors.push({
          path: ['pudo_location_uuid'],
          message: `USPS holds ${HOLD_FOR_PICKUP_CLASSES.join(', ')} for pickup at a Post Office, not ${product.name}.`,
        });
      const point = request.pudo_location;
      if (!/^[0-9A-Za-z]{1,7}$/.test(String(point.pudo_location_id)) || !(point.services ?? []).includes('pick_up'))
        errors.push({ path: ['pudo_location_uuid'], message: 'Not a Post Office that holds parcels for pickup (USPS Hold For Pickup).' });
      const recipient = addressOf(request, request.recipient_field);
      const sender = addressOf(request, request.sender_field);
      // Hold For Pickup: "the toAddress … 'email', and 'phone' as well as the fromAddress … 'firstName', 'lastName', 'email', and 'phone' fields are required".
      if (recipient && !emailOf(recipient))
        errors.push({ path: [request.recipient_field, 'email'], message: 'USPS Hold For Pickup needs the addressee’s e-mail address.' });
      if (recipient && !phoneOf(recipient))
        errors.push({ path: [request.recipient_field, 'phone'], message: 'USPS Hold For Pickup needs the addressee’s phone number.' });
      if (sender) {
        const person = personOf(sender);
        if (!person.first || !person.last)
          errors.push({
            path: [request.sender_field, person.first ? 'last_name' : 'first_name'],
            message: 'USPS Hold For Pickup needs the sender’s first and last name.',
          });
        if (!emailOf(sender))
          errors.push({ path: [request.sender_field, 'email'], message: 'USPS Hold For Pickup needs the sender’s e-mail address.' });
        if (!phoneOf(sender))
          errors.push({ path: [request.sender_field, 'phone'], message: 'USPS Hold For Pickup needs the sender’s phone number.' });
      }
    }
  } catch {
    errors.push({ path: ['shipment_uuid'], message: 'The shipment data could not be read for USPS.' });
  }
  return errors;
}

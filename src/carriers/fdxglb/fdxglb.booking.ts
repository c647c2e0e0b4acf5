import { Type } from '@sinclair/typebox';
import { LABEL_FORMATS, type LabelFormat } from '../../documents/label.types.js';
import type { BookingProduct, BookRequest, CarrierFieldError } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import { CredentialText, secret } from '../sdk/settings.js';
import {
  addressAt,
  companyOf,
  countryOf,
  LIMITS,
  linesOf,
  needsCustoms,
  personOf,
  phoneDigits,
  postalOf,
  STATE_COUNTRIES,
} from './fdxglb.parties.js';

/**
 * What a FedEx booking needs before anything is sent: the booking settings, the products (FedEx `serviceType`s),
 * the options merchants give in `carrier_metadata`, and `checkFedexBooking`, which finds every problem FedEx
 * would refuse that we can see ourselves. Pure. Limits and values: the Ship API's schema descriptions
 * (docs/carriers/fdxglb.md, Sources).
 */

/** The configuration settings booking adds to tracking's client credentials. */
export const FEDEX_BOOKING_SETTINGS = {
  account_number: Type.Optional(
    Type.String({ pattern: '^[0-9]{9}$', description: 'FedEx account number (9 digits) that pays for the shipments; needed to book' }),
  ),
  ship_client_id: Type.Optional(
    CredentialText(
      'API key of the FedEx project with the Ship and Locations APIs, when it is not the tracking project (FedEx keeps the Track API in a project of its own)',
    ),
  ),
  ship_client_secret: Type.Optional(secret(CredentialText('Secret key of that Ship project'))),
  pickup_type: Type.Optional(
    Type.Union(
      [Type.Literal('DROPOFF_AT_FEDEX_LOCATION'), Type.Literal('USE_SCHEDULED_PICKUP'), Type.Literal('CONTACT_FEDEX_TO_SCHEDULE')],
      {
        description:
          'How parcels reach FedEx: DROPOFF_AT_FEDEX_LOCATION (default), USE_SCHEDULED_PICKUP (a regular pickup) or CONTACT_FEDEX_TO_SCHEDULE',
      },
    ),
  ),
  label_format: Type.Optional(
    Type.Union([Type.Literal('pdf'), Type.Literal('png'), Type.Literal('zpl')], {
      description: 'Label format when a booking does not choose one: pdf (default), png or zpl (ZPLII)',
    }),
  ),
  search_country_code: Type.Optional(
    Type.String({
      pattern: '^[A-Z]{2}$',
      description: 'Country (ISO code) of FedEx location searches by lat and lng, which FedEx searches within one country',
    }),
  ),
  electronic_trade_documents: Type.Optional(
    Type.Boolean({
      description: 'Send the commercial invoice to customs electronically (FedEx ETD) for parcels crossing a customs border',
    }),
  ),
};

/** FedEx service types we book (the Ship API's `serviceType` values). */
export const FEDEX_PRODUCTS: readonly BookingProduct[] = [
  {
    code: 'FEDEX_INTERNATIONAL_PRIORITY',
    name: 'FedEx International Priority',
    types: ['outbound', 'return'],
    destinations: ['international'],
  },
  { code: 'INTERNATIONAL_ECONOMY', name: 'FedEx International Economy', types: ['outbound', 'return'], destinations: ['international'] },
  {
    code: 'FEDEX_INTERNATIONAL_CONNECT_PLUS',
    name: 'FedEx International Connect Plus',
    types: ['outbound'],
    destinations: ['international'],
  },
  { code: 'FEDEX_REGIONAL_ECONOMY', name: 'FedEx Regional Economy', types: ['outbound', 'return'], destinations: ['eu'] },
  { code: 'FEDEX_PRIORITY', name: 'FedEx Priority', types: ['outbound', 'return'] },
  { code: 'PRIORITY_OVERNIGHT', name: 'FedEx Priority Overnight', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: 'STANDARD_OVERNIGHT', name: 'FedEx Standard Overnight', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: 'FIRST_OVERNIGHT', name: 'FedEx First Overnight', types: ['outbound'], destinations: ['domestic'] },
  { code: 'FEDEX_2_DAY', name: 'FedEx 2Day', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: 'FEDEX_2_DAY_AM', name: 'FedEx 2Day A.M.', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: 'FEDEX_EXPRESS_SAVER', name: 'FedEx Express Saver', types: ['outbound', 'return'], destinations: ['domestic'] },
  { code: 'FEDEX_GROUND', name: 'FedEx Ground', types: ['outbound', 'return'], destinations: ['domestic', 'CA'] },
  { code: 'GROUND_HOME_DELIVERY', name: 'FedEx Home Delivery', types: ['outbound'], destinations: ['domestic'] },
];

/**
 * Packages in one booking: a single-shot multiple-package shipment is answered at once up to 40 packages
 * ("Value or element is not needed when groupPackageCount is less than or equal to 40"); above, FedEx
 * processes it asynchronously, which Waybill does not use.
 */
export const FEDEX_MAX_PARCELS = 40;

/** `commercialInvoice.shipmentPurpose`. */
export const SHIPMENT_PURPOSES = ['GIFT', 'NOT_SOLD', 'PERSONAL_EFFECTS', 'REPAIR_AND_RETURN', 'SAMPLE', 'SOLD'] as const;
/** Incoterms for `commercialInvoice.termsOfSale` ("Max length is 3"). */
export const TERMS_OF_SALE = 'CFR CIF CIP CPT DAP DAT DDP DDU DPU EXW FAS FCA FOB'.split(' ');
/** Who pays duties and taxes (`customsClearanceDetail.dutiesPayment.paymentType`). */
export const DUTIES_PAYERS = ['SENDER', 'RECIPIENT'] as const;

/** Options a booking may give in `carrier_metadata` (besides the service's own `parcels`). */
export const METADATA_KEYS = ['label_format', 'shipment_purpose', 'terms_of_sale', 'duties_payment', 'electronic_trade_documents'];

/** FedEx's package limits: 150 lb (68 kg), 274 cm (108 in) long, 419 cm (165 in) length plus girth. */
const MAX_GRAMS = 68_000;
const MAX_LENGTH_CM = 274;
const MAX_GIRTH_CM = 419;

/** The label format of a booking: its own option, else the configuration's, else pdf. */
export function labelFormatOf(request: BookRequest, settings: CarrierSettings): LabelFormat {
  const wanted = request.carrier_metadata.label_format ?? settings.label_format ?? 'pdf';
  return LABEL_FORMATS.includes(wanted as LabelFormat) ? (wanted as LabelFormat) : 'pdf';
}

/** Whether the booking asks FedEx to send its commercial invoice electronically: its own option, else the configuration's. */
export function wantsEtd(request: BookRequest, settings: CarrierSettings): boolean {
  const own = request.carrier_metadata.electronic_trade_documents;
  return (typeof own === 'boolean' ? own : settings.electronic_trade_documents) === true;
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

/** An item's value per unit: its product cost, else its subtotal or total price divided by the quantity. */
export function unitValue(item: Readonly<Record<string, unknown>>): number | null {
  const quantity = quantityOf(item);
  for (const [value, per] of [
    [item.product_cost, 1],
    [item.subtotal_cost, quantity],
    [item.total_price, quantity],
  ] as const) {
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value / per;
  }
  return null;
}

export function quantityOf(item: Readonly<Record<string, unknown>>): number {
  return typeof item.quantity === 'number' && Number.isInteger(item.quantity) && item.quantity > 0 ? item.quantity : 1;
}

function checkAddress(request: BookRequest, field: string, role: string, errors: CarrierFieldError[]): void {
  const address = addressAt(request, field);
  if (!address) {
    errors.push({ path: [field], message: `FedEx needs this address (the ${role}) to book.` });
    return;
  }
  const company = companyOf(address);
  const person = personOf(address);
  if (!company && !person) errors.push({ path: [field, 'first_name'], message: 'A name or a company is needed on the FedEx label.' });
  if (company.length > LIMITS.company)
    errors.push({ path: [field, 'company'], message: `FedEx takes company names of at most ${LIMITS.company} characters.` });
  if (person.length > LIMITS.person)
    errors.push({ path: [field, 'last_name'], message: `FedEx takes names (first and last) of at most ${LIMITS.person} characters.` });
  const lines = linesOf(address);
  if (lines[0]?.field !== 'line1') errors.push({ path: [field, 'line1'], message: 'A street address is needed on the FedEx label.' });
  for (const line of lines) {
    if (line.text.length > LIMITS.line)
      errors.push({ path: [field, line.field], message: `FedEx takes address lines of at most ${LIMITS.line} characters.` });
  }
  const city = String(address.city ?? '').trim();
  if (!city) errors.push({ path: [field, 'city'], message: 'The city is needed on the FedEx label.' });
  else if (city.length > LIMITS.city)
    errors.push({ path: [field, 'city'], message: `FedEx takes cities of at most ${LIMITS.city} characters.` });
  const country = countryOf(address);
  if (!/^[A-Z]{2}$/.test(country)) errors.push({ path: [field, 'country_code'], message: 'FedEx needs the country (ISO code).' });
  const postal = postalOf(address);
  if (postal.length > LIMITS.postal)
    errors.push({ path: [field, 'postal_code'], message: `FedEx takes postal codes of at most ${LIMITS.postal} characters.` });
  const state = String(address.state_or_province ?? '').trim();
  if (STATE_COUNTRIES.includes(country) && !/^[A-Za-z]{2}$/.test(state))
    errors.push({
      path: [field, 'state_or_province'],
      message: 'FedEx needs the two-letter state or province code in the US, Canada and Puerto Rico (e.g. NY).',
    });
  const phone = phoneDigits(address);
  if (phone.length < LIMITS.phoneMin || phone.length > LIMITS.phoneMax)
    errors.push({
      path: [field, 'phone'],
      message: `FedEx needs a phone number of ${LIMITS.phoneMin} to ${LIMITS.phoneMax} digits for the ${role}.`,
    });
  if (String(address.email ?? '').length > LIMITS.email)
    errors.push({ path: [field, 'email'], message: `FedEx takes e-mail addresses of at most ${LIMITS.email} characters.` });
}

function checkMetadata(request: BookRequest, errors: CarrierFieldError[]): void {
  for (const [key, value] of Object.entries(request.carrier_metadata)) {
    const path = ['carrier_metadata', key];
    if (!METADATA_KEYS.includes(key)) {
      errors.push({ path, message: `Unknown option for FedEx. Options: parcels, ${METADATA_KEYS.join(', ')}.` });
    } else if (key === 'label_format' && !LABEL_FORMATS.includes(value as LabelFormat)) {
      errors.push({ path, message: `One of: ${LABEL_FORMATS.join(', ')}.` });
    } else if (key === 'shipment_purpose' && !(SHIPMENT_PURPOSES as readonly unknown[]).includes(value)) {
      errors.push({ path, message: `One of: ${SHIPMENT_PURPOSES.join(', ')}.` });
    } else if (key === 'terms_of_sale' && !TERMS_OF_SALE.includes(value as string)) {
      errors.push({ path, message: `One of: ${TERMS_OF_SALE.join(', ')}.` });
    } else if (key === 'duties_payment' && !(DUTIES_PAYERS as readonly unknown[]).includes(value)) {
      errors.push({ path, message: 'SENDER (the merchant pays duties and taxes) or RECIPIENT.' });
    } else if (key === 'electronic_trade_documents' && typeof value !== 'boolean') {
      errors.push({ path, message: 'true or false.' });
    }
  }
}

function checkParcels(request: BookRequest, errors: CarrierFieldError[]): void {
  const ownParcel = request.parcels.length === 1 && request.parcels[0].weight_grams === request.weight_grams;
  if (request.parcels.length > FEDEX_MAX_PARCELS)
    errors.push({
      path: ['carrier_metadata', 'parcels'],
      message: `FedEx books at most ${FEDEX_MAX_PARCELS} parcels in one shipment here.`,
    });
  request.parcels.forEach((parcel, index) => {
    const at = ownParcel ? [] : ['carrier_metadata', 'parcels', index];
    const weightPath = ownParcel ? ['weight'] : [...at, 'weight'];
    if (parcel.weight_grams === null || !(parcel.weight_grams > 0))
      errors.push({ path: weightPath, message: 'FedEx needs the weight (in g, above 0) of every parcel.' });
    else if (parcel.weight_grams > MAX_GRAMS) errors.push({ path: weightPath, message: 'FedEx takes parcels of at most 68 kg (150 lb).' });
    const dims = parcel.dimensions_cm;
    if (!dims) return;
    const sides = [dims.length, dims.width, dims.height].sort((a, b) => b - a);
    const path = ownParcel ? ['dimensions'] : [...at, 'dimensions'];
    if (!sides.every((side) => typeof side === 'number' && Number.isFinite(side) && side > 0))
      errors.push({ path, message: 'FedEx needs the length, width and height in cm, each above 0.' });
    else if (sides[0] > MAX_LENGTH_CM)
      errors.push({ path, message: `FedEx takes parcels of at most ${MAX_LENGTH_CM} cm (108 in) on the longest side.` });
    else if (sides[0] + 2 * (sides[1] + sides[2]) > MAX_GIRTH_CM)
      errors.push({ path, message: `FedEx takes parcels whose length + 2 × (width + height) is at most ${MAX_GIRTH_CM} cm (165 in).` });
  });
}

function checkCustoms(request: BookRequest, errors: CarrierFieldError[]): void {
  if (request.line_items.length === 0) {
    errors.push({
      path: ['line_items'],
      message: 'FedEx needs the goods (line items) for the commercial invoice of a parcel crossing a customs border.',
    });
    return;
  }
  let currency = false;
  request.line_items.forEach((item, index) => {
    const at = ['line_items', index];
    const hs = String(item.hs_code ?? '').replace(/[\s.]/g, '');
    if (!/^[0-9]{6,14}$/.test(hs))
      errors.push({
        path: [...at, 'hs_code'],
        message: 'FedEx needs the HS code (6 to 14 digits) of each item crossing a customs border.',
      });
    if (!/^[A-Za-z]{2}$/.test(String(item.product_origin_country_code ?? '')))
      errors.push({ path: [...at, 'product_origin_country_code'], message: 'FedEx needs the country of manufacture of each item.' });
    const description = String(item.customs_description ?? item.product_name ?? '').trim();
    if (!description)
      errors.push({ path: [...at, 'customs_description'], message: 'FedEx needs a description of each item for the invoice.' });
    else if (description.length > 450)
      errors.push({ path: [...at, 'customs_description'], message: 'FedEx takes item descriptions of at most 450 characters.' });
    if (unitValue(item) === null)
      errors.push({ path: [...at, 'product_cost'], message: 'FedEx needs the value of each item (above 0) for the invoice.' });
    if (item.currency_code || request.shipment_value?.currency) currency = true;
  });
  if (!currency)
    errors.push({ path: ['line_items', 0, 'currency_code'], message: 'FedEx needs the currency of the goods for the invoice.' });
}

/**
 * Every problem FedEx would refuse that the request shows: the account number, the service, the addresses in
 * FedEx's limits (phones of both parties), weights and sizes, customs data when the parcel crosses a customs
 * border, Hold at Location rules and the options. Never throws, whatever the request holds.
 */
export function checkFedexBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
  const errors: CarrierFieldError[] = [];
  try {
    if (typeof settings.account_number !== 'string' || !/^[0-9]{9}$/.test(settings.account_number)) {
      errors.push({
        path: ['carrier_reference'],
        message: 'This FedEx configuration has no account number (settings.account_number, 9 digits); FedEx books only with one.',
      });
    }
    if (Boolean(settings.ship_client_id) !== Boolean(settings.ship_client_secret)) {
      errors.push({
        path: ['carrier_reference'],
        message:
          'This FedEx configuration has only one of ship_client_id and ship_client_secret: set both (the Ship project’s keys) or neither.',
      });
    }
    const product = FEDEX_PRODUCTS.find((p) => p.code === request.shipping_service);
    if (!request.shipping_service) {
      errors.push({
        path: ['shipping_service'],
        message: `FedEx needs the service type. Types: ${FEDEX_PRODUCTS.map((p) => p.code).join(', ')}.`,
      });
    } else if (!product) {
      errors.push({
        path: ['shipping_service'],
        message: `Not a FedEx service Waybill books. Types: ${FEDEX_PRODUCTS.map((p) => `${p.code} (${p.name})`).join(', ')}.`,
      });
    } else if (!product.types.includes(request.type_of_shipment)) {
      errors.push({ path: ['shipping_service'], message: `${product.name} cannot be used for return labels.` });
    }
    const isReturn = request.type_of_shipment === 'return';
    checkAddress(request, request.sender_field, isReturn ? 'consumer sending it back' : 'shipper', errors);
    checkAddress(request, request.recipient_field, isReturn ? 'merchant receiving it' : 'addressee', errors);
    checkParcels(request, errors);
    checkMetadata(request, errors);
    if (request.pudo_location) {
      if (isReturn)
        errors.push({ path: ['pudo_location_uuid'], message: 'FedEx return labels go to the merchant, not to a FedEx location.' });
      if (request.shipping_service === 'GROUND_HOME_DELIVERY')
        errors.push({
          path: ['shipping_service'],
          message: 'FedEx Home Delivery goes to the door: choose FedEx Ground to hold at a location.',
        });
    }
    const customs = needsCustoms(request);
    if (customs && !goodsDescription(request))
      errors.push({ path: ['description_of_goods'], message: 'FedEx needs a description of the goods for this shipment.' });
    if (customs) checkCustoms(request, errors);
  } catch {
    errors.push({ path: ['shipment_uuid'], message: 'The shipment data could not be read for FedEx.' });
  }
  return errors;
}

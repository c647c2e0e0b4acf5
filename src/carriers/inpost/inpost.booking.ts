import { Type } from '@sinclair/typebox';
import type { BookingProduct, BookRequest, CarrierFieldError } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import { addressOf, countryOf, emailOf, personOf, phoneOf, postCodeOf, streetOf } from './inpost.parties.js';

/**
 * What an InPost booking needs before anything is sent: the booking settings, the ShipX services we book,
 * the options merchants give in `carrier_metadata`, and `checkInpostBooking`, which finds every problem ShipX
 * would refuse that we can see ourselves (docs/carriers/inpost.md, "Booking"). Pure.
 */

/** The configuration settings booking adds to tracking's optional token. */
export const INPOST_BOOKING_SETTINGS = {
  organization_id: Type.Optional(
    Type.Union([Type.String({ pattern: '^[0-9]{1,12}$' }), Type.Integer({ minimum: 1, maximum: 999_999_999_999 })], {
      description: 'ShipX organization id (digits, shown in the Parcel Manager with the API token); needed with api_token to book',
    }),
  ),
  label_format: Type.Optional(
    Type.Union([Type.Literal('pdf'), Type.Literal('zpl')], {
      description: 'Label format when a booking does not choose one: pdf (default) or zpl',
    }),
  ),
  label_type: Type.Optional(
    Type.Union([Type.Literal('A6'), Type.Literal('normal')], {
      description: 'Label size: A6 (default, 10 × 15 cm) or normal (an A4 page; courier labels are always A6)',
    }),
  ),
};

/** ShipX services we book ("Shipment sizes and services"); the Polish instance serves Poland only. */
export const INPOST_PRODUCTS: readonly BookingProduct[] = [
  {
    code: 'inpost_locker_standard',
    name: 'InPost Paczkomat® (parcel locker), standard',
    types: ['outbound', 'return'],
    destinations: ['PL'],
  },
  { code: 'inpost_courier_standard', name: 'InPost courier, standard', types: ['outbound', 'return'], destinations: ['PL'] },
  { code: 'inpost_courier_express_1000', name: 'InPost courier express, by 10:00', types: ['outbound'], destinations: ['PL'] },
  { code: 'inpost_courier_express_1200', name: 'InPost courier express, by 12:00', types: ['outbound'], destinations: ['PL'] },
  { code: 'inpost_courier_express_1700', name: 'InPost courier express, by 17:00', types: ['outbound'], destinations: ['PL'] },
];

export const LOCKER_SERVICE = 'inpost_locker_standard';

/** Parcels in one courier shipment: ShipX takes a collection of 1 to 1000; a locker shipment is one parcel. */
export const INPOST_MAX_PARCELS = 10;

/** Locker parcel sizes (`template`): A, B and C. */
export const PARCEL_TEMPLATES = ['small', 'medium', 'large'] as const;
/** `custom_attributes.sending_method`: how the parcel reaches InPost. */
export const SENDING_METHODS = ['parcel_locker', 'pok', 'pop', 'courier_pok', 'branch', 'dispatch_order'] as const;
/** Sending methods that name the point the parcel is dropped off at (`dropoff_point`). */
export const NEEDS_DROPOFF_POINT = ['parcel_locker', 'pok', 'courier_pok'];

/** Options a booking may give in `carrier_metadata` (besides the service's own `parcels`). */
export const METADATA_KEYS = ['label_format', 'label_type', 'parcel_template', 'target_point', 'sending_method', 'dropoff_point'];

/** The largest locker parcel (size C): 41 × 38 × 64 cm, and 25 kg. */
const LOCKER_MAX_CM = [64, 41, 38];
const LOCKER_MAX_GRAMS = 25_000;

/** A locker or point name as ShipX writes them: `KRA010`, `POP-WAW123`. */
const POINT_NAME = /^[A-Z0-9][A-Z0-9-]{2,31}$/i;

/** The configuration's organization id as digits, or null. */
export function organizationOf(settings: Readonly<Record<string, unknown>>): string | null {
  const id = settings.organization_id;
  const text = typeof id === 'number' && Number.isInteger(id) && id > 0 ? String(id) : typeof id === 'string' ? id.trim() : '';
  return /^[0-9]{1,12}$/.test(text) ? text : null;
}

export function isLocker(request: BookRequest): boolean {
  return request.shipping_service === LOCKER_SERVICE;
}

/** The label format of a booking: its own option, else the configuration's, else pdf. */
export function labelFormatOf(request: BookRequest, settings: CarrierSettings): 'pdf' | 'zpl' {
  const wanted = request.carrier_metadata.label_format ?? settings.label_format;
  return wanted === 'zpl' ? 'zpl' : 'pdf';
}

export function labelTypeOf(request: BookRequest, settings: CarrierSettings): 'A6' | 'normal' {
  const wanted = request.carrier_metadata.label_type ?? settings.label_type;
  return wanted === 'normal' ? 'normal' : 'A6';
}

/** The locker a booking goes to: the PUDO location's name, else `carrier_metadata.target_point`. */
export function targetPointOf(request: BookRequest): string | null {
  const point = request.pudo_location?.pudo_location_id ?? request.carrier_metadata.target_point;
  return typeof point === 'string' && point.trim() !== '' ? point.trim().toUpperCase() : null;
}

/** Whether the shipment's own weight and dimensions are its one parcel (no `carrier_metadata.parcels`). */
export function ownParcel(request: BookRequest): boolean {
  return request.parcels.length === 1 && request.parcels[0].weight_grams === request.weight_grams;
}

function checkAddress(request: BookRequest, field: string, role: string, errors: CarrierFieldError[], needsStreet: boolean): void {
  const address = addressOf(request, field);
  if (!address) {
    errors.push({ path: [field], message: `InPost needs this address (the ${role}) to book.` });
    return;
  }
  if (!personOf(address).full && !String(address.company ?? '').trim())
    errors.push({ path: [field, 'first_name'], message: 'A name or a company is needed on the InPost label.' });
  const country = countryOf(address);
  if (country !== 'PL') errors.push({ path: [field, 'country_code'], message: 'InPost (ShipX Poland) books parcels within Poland only.' });
  if (!needsStreet) return;
  const street = streetOf(address);
  if (!street.street) errors.push({ path: [field, 'line1'], message: 'A street address is needed on the InPost label.' });
  else if (!street.building)
    errors.push({
      path: [field, street.field],
      message: 'InPost needs the building number: give house_number, or end line1 with it (e.g. "Marszałkowska 12").',
    });
  if (!String(address.city ?? '').trim()) errors.push({ path: [field, 'city'], message: 'The city is needed on the InPost label.' });
  if (!postCodeOf(address)) errors.push({ path: [field, 'postal_code'], message: 'InPost needs a Polish postal code (00-000).' });
}

function checkContact(request: BookRequest, field: string, errors: CarrierFieldError[]): void {
  const address = addressOf(request, field);
  if (!address) return;
  if (!phoneOf(address))
    errors.push({
      path: [field, 'phone'],
      message: 'InPost needs a Polish mobile number (9 digits) to tell the addressee about the locker.',
    });
  if (!emailOf(address))
    errors.push({ path: [field, 'email'], message: 'InPost needs an e-mail address to tell the addressee about the locker.' });
}

function checkMetadata(request: BookRequest, errors: CarrierFieldError[]): void {
  const metadata = request.carrier_metadata;
  for (const [key, value] of Object.entries(metadata)) {
    const path = ['carrier_metadata', key];
    if (!METADATA_KEYS.includes(key)) {
      errors.push({ path, message: `Unknown option for InPost. Options: parcels, ${METADATA_KEYS.join(', ')}.` });
    } else if (key === 'label_format' && value !== 'pdf' && value !== 'zpl') {
      errors.push({ path, message: 'pdf or zpl.' });
    } else if (key === 'label_type' && value !== 'A6' && value !== 'normal') {
      errors.push({ path, message: 'A6 or normal.' });
    } else if (key === 'parcel_template') {
      if (!(PARCEL_TEMPLATES as readonly unknown[]).includes(value))
        errors.push({ path, message: `One of: ${PARCEL_TEMPLATES.join(', ')} (locker sizes A, B, C).` });
      else if (!isLocker(request))
        errors.push({ path, message: 'Only for parcel locker shipments; courier parcels give weight and dimensions.' });
    } else if (key === 'target_point') {
      if (typeof value !== 'string' || !POINT_NAME.test(value.trim())) errors.push({ path, message: 'A locker name such as KRA010.' });
      else if (request.pudo_location) errors.push({ path, message: 'Give the locker as pudo_location_uuid or target_point, not both.' });
    } else if (key === 'sending_method') {
      if (!(SENDING_METHODS as readonly unknown[]).includes(value))
        errors.push({ path, message: `One of: ${SENDING_METHODS.join(', ')}.` });
      else if (NEEDS_DROPOFF_POINT.includes(value as string) && metadata.dropoff_point === undefined)
        errors.push({
          path: ['carrier_metadata', 'dropoff_point'],
          message: `InPost needs the drop-off point with sending_method ${value}.`,
        });
    } else if (key === 'dropoff_point' && (typeof value !== 'string' || !POINT_NAME.test(value.trim()))) {
      errors.push({ path, message: 'A locker or point name such as KRA010.' });
    }
  }
}

function checkParcels(request: BookRequest, errors: CarrierFieldError[]): void {
  const locker = isLocker(request);
  if (locker && request.parcels.length > 1) {
    errors.push({
      path: ['carrier_metadata', 'parcels'],
      message: 'A parcel locker shipment is one parcel; book several parcels with a courier service.',
    });
    return;
  }
  if (locker && PARCEL_TEMPLATES.includes(request.carrier_metadata.parcel_template as never)) return;
  const own = ownParcel(request);
  request.parcels.forEach((parcel, index) => {
    const at = own ? [] : ['carrier_metadata', 'parcels', index];
    const weightPath = own ? ['weight'] : [...at, 'weight'];
    const sizePath = own ? ['dimensions'] : [...at, 'dimensions'];
    const grams = parcel.weight_grams;
    if (grams === null || !(grams > 0) || !Number.isFinite(grams)) {
      errors.push({
        path: weightPath,
        message: locker
          ? 'InPost needs the weight (in g, above 0), or carrier_metadata.parcel_template.'
          : 'InPost needs the weight (in g, above 0) of every parcel.',
      });
    } else if (locker && grams > LOCKER_MAX_GRAMS) {
      errors.push({ path: weightPath, message: 'A parcel locker takes parcels of at most 25 kg.' });
    }
    const dims = parcel.dimensions_cm;
    const sides = dims ? [dims.length, dims.width, dims.height] : [];
    if (!dims || !sides.every((side) => typeof side === 'number' && Number.isFinite(side) && side > 0)) {
      errors.push({
        path: sizePath,
        message: locker
          ? 'InPost needs the length, width and height in cm, or carrier_metadata.parcel_template.'
          : 'InPost needs the length, width and height in cm of every parcel.',
      });
      return;
    }
    const sorted = [...sides].sort((a, b) => b - a);
    if (locker && sorted.some((side, i) => side > LOCKER_MAX_CM[i]))
      errors.push({ path: sizePath, message: 'A parcel locker takes parcels of at most 64 × 41 × 38 cm (size C).' });
  });
}

/**
 * Every problem ShipX would refuse that the request shows: the token and organization, the service, the
 * addresses (Poland only), phone and e-mail for a locker, the locker, weights and sizes, and the options.
 * Never throws, whatever the request holds.
 */
export function checkInpostBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
  const errors: CarrierFieldError[] = [];
  try {
    const token = typeof settings.api_token === 'string' && settings.api_token !== '';
    if (!token || !organizationOf(settings)) {
      errors.push({
        path: ['carrier_reference'],
        message:
          'This InPost configuration cannot book: ShipX needs the organization’s API token (settings.api_token) and its organization id (settings.organization_id).',
      });
    }
    const product = INPOST_PRODUCTS.find((p) => p.code === request.shipping_service);
    if (!product) {
      errors.push({
        path: ['shipping_service'],
        message: `${request.shipping_service ? 'Not an InPost service Waybill books' : 'InPost needs the service'}. Services: ${INPOST_PRODUCTS.map((p) => `${p.code} (${p.name})`).join(', ')}.`,
      });
    } else if (!product.types.includes(request.type_of_shipment)) {
      errors.push({ path: ['shipping_service'], message: `${product.name} cannot be used for return labels.` });
    }
    const locker = isLocker(request);
    const isReturn = request.type_of_shipment === 'return';
    // Without a sender, ShipX uses the organization's address (outbound only: a return's sender is the consumer).
    if (request.sender || isReturn)
      checkAddress(request, request.sender_field, isReturn ? 'consumer sending it back' : 'sender', errors, true);
    checkAddress(request, request.recipient_field, isReturn ? 'merchant receiving it' : 'addressee', errors, !locker);
    if (locker) {
      checkContact(request, request.recipient_field, errors);
      if (!targetPointOf(request) && request.carrier_metadata.target_point === undefined)
        errors.push({
          path: ['pudo_location_uuid'],
          message:
            'A parcel locker shipment needs its locker: pudo_location_uuid (from GET /v5/pudo-locations/) or carrier_metadata.target_point.',
        });
    } else if (request.pudo_location) {
      errors.push({
        path: ['pudo_location_uuid'],
        message: 'Courier services deliver to the address; book a locker with inpost_locker_standard.',
      });
    } else if (request.carrier_metadata.target_point !== undefined) {
      errors.push({ path: ['carrier_metadata', 'target_point'], message: 'Only for inpost_locker_standard.' });
    }
    checkParcels(request, errors);
    checkMetadata(request, errors);
  } catch {
    errors.push({ path: ['shipment_uuid'], message: 'The shipment data could not be read for InPost.' });
  }
  return errors;
}

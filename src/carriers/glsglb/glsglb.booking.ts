import { Type } from '@sinclair/typebox';
import { LABEL_FORMATS, type LabelFormat } from '../../documents/label.types.js';
import type { BookingProduct, BookRequest, CarrierFieldError } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import {
  addressAt,
  countryOf,
  crossesCustomsBorder,
  LIMITS,
  nameOf,
  personOf,
  phoneOf,
  str,
  streetOf,
  WITHOUT_POSTAL_CODE,
} from './glsglb.parties.js';

/**
 * What a GLS booking needs before anything is sent: the booking settings, the products (ShipIT's `Product`) and
 * the options merchants give in `carrier_metadata`, and `checkGlsBooking`, which finds every problem GLS would
 * refuse that we can see ourselves. Pure. Fields and limits: GLS ShipIT REST documentation (docs/carriers/glsglb.md).
 */

/** The configuration settings booking adds to tracking's client credentials (the same app, with ShipIT Farm added). */
export const GLS_BOOKING_SETTINGS = {
  contact_id: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9-]{1,40}$',
      description:
        'GLS Contact ID (the shipper as GLS knows it, given with the ShipIT credentials); needed to book. The developer portal app needs the ShipIT Farm API product.',
    }),
  ),
  label_format: Type.Optional(
    Type.Union([Type.Literal('pdf'), Type.Literal('png'), Type.Literal('zpl')], {
      description: 'Label format when a booking does not choose one: pdf (default), png or zpl',
    }),
  ),
  zpl_resolution: Type.Optional(
    Type.Union([Type.Literal('200'), Type.Literal('300')], {
      description: 'Printer resolution of ZPL labels in dpi: 200 (default, template ZPL_200) or 300 (ZPL_300)',
    }),
  ),
};

/** ShipIT's products we book (`Shipment.Product`); GLS derives the network (national, EU, …) from the addresses. */
export const GLS_PRODUCTS: readonly BookingProduct[] = [
  { code: 'PARCEL', name: 'GLS Parcel (BusinessParcel, EuroBusinessParcel)', types: ['outbound', 'return'] },
  { code: 'EXPRESS', name: 'GLS Express', types: ['outbound'] },
];

/** Shipment units in one booking. ShipIT documents no maximum: ten is ours, well within a multi-parcel shipment. */
export const GLS_MAX_PARCELS = 10;

/** The heaviest GLS parcel: 40 kg (GLS's parcel network). */
const MAX_WEIGHT_GRAMS = 40_000;

/** Options a booking may give in `carrier_metadata` (besides the service's own `parcels`). */
export const METADATA_KEYS = ['label_format'];

/** The label format of a booking: its own option, else the configuration's, else pdf. */
export function labelFormatOf(request: BookRequest, settings: CarrierSettings): LabelFormat {
  const wanted = request.carrier_metadata.label_format ?? settings.label_format ?? 'pdf';
  return LABEL_FORMATS.includes(wanted as LabelFormat) ? (wanted as LabelFormat) : 'pdf';
}

function tooLong(value: string, limit: number): boolean {
  return value.length > limit;
}

function checkAddress(request: BookRequest, field: string, role: string, errors: CarrierFieldError[]): void {
  const address = addressAt(request, field);
  if (!address) {
    errors.push({ path: [field], message: `GLS needs this address (the ${role}) to book.` });
    return;
  }
  const name = nameOf(address);
  if (!name) errors.push({ path: [field, 'first_name'], message: 'A name or a company is needed on the GLS label.' });
  if (tooLong(str(address.company), LIMITS.text))
    errors.push({ path: [field, 'company'], message: `GLS takes names of at most ${LIMITS.text} characters.` });
  if (tooLong(personOf(address), LIMITS.text))
    errors.push({ path: [field, 'last_name'], message: `GLS takes names (first and last) of at most ${LIMITS.text} characters.` });
  const street = streetOf(address);
  if (!street.street) errors.push({ path: [field, 'line1'], message: 'A street is needed on the GLS label.' });
  else if (tooLong(street.street, LIMITS.text))
    errors.push({ path: [field, street.field], message: `GLS takes streets of at most ${LIMITS.text} characters.` });
  if (tooLong([str(address.line2), str(address.line3)].filter(Boolean).join(', '), LIMITS.text))
    errors.push({
      path: [field, 'line2'],
      message: `GLS takes one more address line (line2 and line3 together) of at most ${LIMITS.text} characters.`,
    });
  if (tooLong(street.number, LIMITS.text))
    errors.push({ path: [field, 'house_number'], message: `GLS takes house numbers of at most ${LIMITS.text} characters.` });
  const city = str(address.city);
  if (!city) errors.push({ path: [field, 'city'], message: 'The city is needed on the GLS label.' });
  else if (tooLong(city, LIMITS.text))
    errors.push({ path: [field, 'city'], message: `GLS takes cities of at most ${LIMITS.text} characters.` });
  const country = countryOf(address);
  if (!/^[A-Z]{2}$/.test(country)) errors.push({ path: [field, 'country_code'], message: 'GLS needs the country (ISO code).' });
  else if (!str(address.postal_code) && !WITHOUT_POSTAL_CODE.has(country))
    errors.push({ path: [field, 'postal_code'], message: 'GLS routes parcels by postal code: it is needed.' });
  if (tooLong(str(address.email), LIMITS.email))
    errors.push({ path: [field, 'email'], message: `GLS takes e-mail addresses of at most ${LIMITS.email} characters.` });
  if (tooLong(phoneOf(address), LIMITS.text))
    errors.push({ path: [field, 'phone'], message: `GLS takes phone numbers of at most ${LIMITS.text} characters.` });
}

function checkMetadata(request: BookRequest, errors: CarrierFieldError[]): void {
  for (const [key, value] of Object.entries(request.carrier_metadata)) {
    const path = ['carrier_metadata', key];
    if (!METADATA_KEYS.includes(key)) {
      errors.push({ path, message: `Unknown option for GLS. Options: parcels, ${METADATA_KEYS.join(', ')}.` });
    } else if (key === 'label_format' && !LABEL_FORMATS.includes(value as LabelFormat)) {
      errors.push({ path, message: `One of: ${LABEL_FORMATS.join(', ')}.` });
    }
  }
}

function checkParcels(request: BookRequest, errors: CarrierFieldError[]): void {
  if (request.parcels.length > GLS_MAX_PARCELS) {
    errors.push({ path: ['carrier_metadata', 'parcels'], message: `Waybill books at most ${GLS_MAX_PARCELS} GLS parcels at once.` });
    return;
  }
  const ownParcel = request.parcels.length === 1 && request.parcels[0].weight_grams === request.weight_grams;
  request.parcels.forEach((parcel, index) => {
    const path = ownParcel ? ['weight'] : ['carrier_metadata', 'parcels', index, 'weight'];
    const grams = parcel.weight_grams;
    if (typeof grams !== 'number' || !Number.isFinite(grams) || !(grams > 0)) {
      errors.push({ path, message: 'GLS needs the weight (in g, above 0) of every parcel.' });
    } else if (grams > MAX_WEIGHT_GRAMS) {
      errors.push({ path, message: `GLS takes parcels of at most ${MAX_WEIGHT_GRAMS / 1000} kg.` });
    }
  });
}

/**
 * Every problem GLS would refuse that the request shows: the Contact ID, the product, the addresses in GLS's
 * limits, weights, the ParcelShop rules, customs borders (not booked: see docs), and the options. Never throws,
 * whatever the request holds.
 */
export function checkGlsBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
  const errors: CarrierFieldError[] = [];
  try {
    if (typeof settings.contact_id !== 'string' || !/^[A-Za-z0-9-]{1,40}$/.test(settings.contact_id)) {
      errors.push({
        path: ['carrier_reference'],
        message:
          'This GLS configuration has no Contact ID (settings.contact_id, the shipper GLS gave with ShipIT); GLS books only with one.',
      });
    }
    const product = GLS_PRODUCTS.find((p) => p.code === request.shipping_service);
    if (!request.shipping_service) {
      errors.push({ path: ['shipping_service'], message: `GLS needs the product. Codes: ${GLS_PRODUCTS.map((p) => p.code).join(', ')}.` });
    } else if (!product) {
      errors.push({
        path: ['shipping_service'],
        message: `Not a GLS product Waybill books. Codes: ${GLS_PRODUCTS.map((p) => `${p.code} (${p.name})`).join(', ')}.`,
      });
    } else if (!product.types.includes(request.type_of_shipment)) {
      errors.push({ path: ['shipping_service'], message: `${product.name} cannot be used for return labels: use PARCEL.` });
    }
    const isReturn = request.type_of_shipment === 'return';
    checkAddress(request, request.sender_field, isReturn ? 'consumer sending it back' : 'sender', errors);
    checkAddress(request, request.recipient_field, isReturn ? 'merchant receiving it' : 'consignee', errors);
    checkParcels(request, errors);
    checkMetadata(request, errors);
    if (crossesCustomsBorder(request)) {
      errors.push({
        path: [request.recipient_field, 'country_code'],
        message:
          'Waybill books GLS parcels within a country or within the EU only: a parcel crossing a customs border needs customs data GLS takes through its separate Customs API, which Waybill does not send.',
      });
    }
    if (tooLong(str(request.shipment_reference), LIMITS.text)) {
      errors.push({ path: ['shipment_reference'], message: `GLS takes references of at most ${LIMITS.text} characters.` });
    }
    if (request.pudo_location) {
      if (isReturn) errors.push({ path: ['pudo_location_uuid'], message: 'GLS return labels go to the merchant, not to a ParcelShop.' });
      else if (request.shipping_service === 'EXPRESS')
        errors.push({ path: ['pudo_location_uuid'], message: 'GLS delivers to a ParcelShop with PARCEL only.' });
      const recipient = request.recipient ?? {};
      if (!str(recipient.email) && !phoneOf(recipient))
        errors.push({
          path: [request.recipient_field, 'email'],
          message: 'GLS tells the addressee that the parcel waits at the ParcelShop by e-mail or text message: give one of them.',
        });
    }
  } catch {
    errors.push({ path: ['shipment_uuid'], message: 'The shipment data could not be read for GLS.' });
  }
  return errors;
}

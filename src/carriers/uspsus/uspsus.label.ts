import type { LabelFormat } from '../../documents/label.types.js';
import type { BookRequest } from '../booking.js';
import { labelFormatOf, pounds, processingCategoryOf, RETURN_CLASSES, rateIndicatorOf, sidesInches } from './uspsus.booking.js';
import { uspsAddress } from './uspsus.parties.js';

/**
 * The Labels 3.9.4 requests of a booking (`POST /labels/v3/label`, `POST /labels/v3/return-label`) and the
 * reading of their answers: `application/vnd.usps.labels+json` (the metadata with the images in base64) or the
 * default `multipart/form-data` (a `labelMetadata` JSON part and a `labelImage` part "always Base64 encoded").
 */

export const LABEL_PATH = '/labels/v3/label';
export const RETURN_LABEL_PATH = '/labels/v3/return-label';
/** The answer Waybill asks for: one JSON document with the label image in base64 (`LabelVendorResponse`). */
export const LABEL_ACCEPT = 'application/vnd.usps.labels+json';

/** `imageInfo.imageType` for each of our formats: USPS renders all three itself. */
export const IMAGE_TYPES: Readonly<Record<LabelFormat, string>> = { pdf: 'PDF', png: 'PNG', zpl: 'ZPL203DPI' };

/** `customerReference` (at most 4, each 1 to 30 characters): our booking reference, then the merchant's reference, printed. */
function references(request: BookRequest): Array<Record<string, unknown>> {
  const list: Array<Record<string, unknown>> = [{ referenceNumber: request.booking_reference, printReferenceNumber: false }];
  const own = (request.shipment_reference ?? '').replace(/\s+/g, ' ').trim().slice(0, 30);
  if (own) list.push({ referenceNumber: own, printReferenceNumber: true });
  return list;
}

/** Where and what to send for a booking (checked by `checkUspsBooking` first). */
export function labelRequest(
  request: BookRequest,
  settings: Readonly<Record<string, unknown>>,
): { path: string; body: Record<string, unknown>; format: LabelFormat } {
  const format = labelFormatOf(request, settings);
  const parcel = request.parcels[0];
  const [length, width, height] = sidesInches(parcel) ?? [0, 0, 0];
  const isReturn = request.type_of_shipment === 'return';
  const sender = request.sender ?? {};
  const recipient = request.recipient ?? {};
  const service = request.shipping_service ?? '';
  const imageInfo = { imageType: IMAGE_TYPES[format], labelType: '4X6LABEL', receiptOption: 'NONE' };
  const packageDescription: Record<string, unknown> = {
    mailClass: isReturn ? RETURN_CLASSES[service] : service,
    rateIndicator: rateIndicatorOf(request),
    weightUOM: 'lb',
    weight: pounds(parcel.weight_grams ?? 0),
    dimensionsUOM: 'in',
    length,
    width,
    height,
    processingCategory: processingCategoryOf(request, parcel),
    customerReference: references(request),
  };
  if (isReturn) {
    return {
      path: RETURN_LABEL_PATH,
      body: { imageInfo, toAddress: uspsAddress(recipient), fromAddress: uspsAddress(sender), packageDescription },
      format,
    };
  }
  const point = request.pudo_location;
  // Hold For Pickup: the parcel is addressed to the Post Office (its facilityId from the locator), for the addressee.
  const toAddress = point
    ? {
        ...uspsAddress(point.address as unknown as Record<string, unknown>, recipient),
        holdForPickup: true,
        facilityId: point.pudo_location_id,
      }
    : uspsAddress(recipient);
  return {
    path: LABEL_PATH,
    body: {
      imageInfo,
      toAddress,
      fromAddress: uspsAddress(sender),
      packageDescription: { ...packageDescription, mailingDate: request.date, destinationEntryFacilityType: 'NONE' },
    },
    format,
  };
}

/** What a label answer holds that Waybill keeps. */
export interface UspsLabel {
  trackingNumber: string;
  image: Uint8Array;
  metadata: Record<string, unknown>;
}

function object(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

const BASE64 = /^[A-Za-z0-9+/=\r\n]+$/;

/** The image bytes of a part or a field that USPS sends in base64 (a part already binary is kept as it is). */
function imageBytes(raw: Uint8Array | string): Uint8Array | null {
  const text = typeof raw === 'string' ? raw : Buffer.from(raw).toString('latin1');
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!BASE64.test(trimmed)) return typeof raw === 'string' ? Buffer.from(raw, 'latin1') : raw;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length > 0 ? new Uint8Array(bytes) : null;
}

function labelOf(metadata: Record<string, unknown> | null, image: Uint8Array | string | null): UspsLabel | null {
  const trackingNumber = typeof metadata?.trackingNumber === 'string' ? metadata.trackingNumber.replace(/\s+/g, '') : '';
  const bytes = image === null ? null : imageBytes(image);
  if (!metadata || !/^[A-Z0-9]{10,34}$/i.test(trackingNumber) || !bytes) return null;
  return { trackingNumber: trackingNumber.toUpperCase(), image: bytes, metadata };
}

/** A `LabelVendorResponse`/`ReturnLabelVendorResponse` (`application/vnd.usps.labels+json`) → the label; null when unreadable. */
export function readVendorAnswer(body: unknown, isReturn: boolean): UspsLabel | null {
  const answer = object(body);
  if (!answer) return null;
  const image = answer[isReturn ? 'returnLabelImage' : 'labelImage'];
  return labelOf(answer, typeof image === 'string' ? image : null);
}

/**
 * A `multipart/form-data` answer (USPS's default) → the label, parsed by the platform's own multipart parser
 * (Fetch's `Response.formData()`); null when unreadable.
 */
export async function readMultipartAnswer(body: Uint8Array, contentType: string, isReturn: boolean): Promise<UspsLabel | null> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    return null;
  }
  const text = async (value: FormDataEntryValue | null): Promise<string | Uint8Array | null> =>
    value === null ? null : typeof value === 'string' ? value : new Uint8Array(await value.arrayBuffer());
  const metadataPart = await text(form.get(isReturn ? 'returnLabelMetadata' : 'labelMetadata'));
  const imagePart = await text(form.get(isReturn ? 'returnLabelImage' : 'labelImage'));
  let metadata: Record<string, unknown> | null = null;
  try {
    const json = typeof metadataPart === 'string' ? metadataPart : metadataPart ? Buffer.from(metadataPart).toString('utf8') : '';
    metadata = object(JSON.parse(json));
  } catch {
    return null;
  }
  return labelOf(metadata, imagePart);
}

/** What USPS told about the label that merchants may want (postage, zone, SKU, delivery commitment). */
export function labelInfo(metadata: Record<string, unknown>): Record<string, unknown> {
  const info: Record<string, unknown> = {};
  if (typeof metadata.postage === 'number') info.postage = { amount: metadata.postage, currency: 'USD' };
  for (const [from, to] of [
    ['SKU', 'sku'],
    ['zone', 'zone'],
    ['routingInformation', 'routing_information'],
    ['serviceTypeCode', 'service_type_code'],
    ['bannerText', 'banner_text'],
  ] as const) {
    if (typeof metadata[from] === 'string' && metadata[from] !== '') info[to] = metadata[from];
  }
  const commitment = object(metadata.commitment);
  if (commitment && typeof commitment.scheduleDeliveryDate === 'string') info.scheduled_delivery_date = commitment.scheduleDeliveryDate;
  if (commitment && typeof commitment.name === 'string') info.commitment = commitment.name;
  return info;
}

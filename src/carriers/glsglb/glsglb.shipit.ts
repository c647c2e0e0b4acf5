import type { LabelFormat } from '../../documents/label.types.js';
import type { BookedLabel, BookRequest } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import { glsAddress, glsWeight, str } from './glsglb.parties.js';

/**
 * GLS ShipIT payloads: the `createParcels` request (`ShipmentRequestData`) of a booking and what its answer
 * (`CreateParcelsResponse`) and a `cancelParcelByID` answer hold. Pure. Field names: the ShipIT REST documentation
 * ("Processing shipments", request samples) and the ShipIT Farm API reference on the GLS developer portal.
 */

/** Where the ShipIT Farm REST paths sit below the base URL (the tracking API's host). */
export const SHIPIT_PATH = '/shipit-farm/v1/backend/rs';
/** ShipIT's media type, for requests and answers. */
export const SHIPIT_MEDIA_TYPE = 'application/glsVersion1+json';

/** `PrintingOptions.ReturnLabels.LabelFormat` for each of our formats. */
const LABEL_FORMAT: Record<LabelFormat, string> = { pdf: 'PDF', png: 'PNG', zpl: 'ZEBRA' };
/** And back: the formats GLS may send (`Document.LabelFormat`) that we keep as they are. */
const FORMAT_OF: Record<string, LabelFormat> = { PDF: 'pdf', PNG: 'png', ZEBRA: 'zpl' };

/** `TemplateSet`: NONE for PDF and PNG (GLS's own layout), a ZPL template for Zebra printers. */
export function templateSetOf(format: LabelFormat, settings: CarrierSettings): string {
  if (format !== 'zpl') return 'NONE';
  return settings.zpl_resolution === '300' ? 'ZPL_300' : 'ZPL_200';
}

/**
 * The `createParcels` body: one `ShipmentUnit` per parcel, our booking reference as the first shipment
 * reference and on every unit (GLS prints and keeps them), the merchant's reference second, the ParcelShop as
 * `ShopDelivery` when the booking goes to one.
 */
export function shipmentRequest(request: BookRequest, settings: CarrierSettings, format: LabelFormat): Record<string, unknown> {
  const recipient = request.recipient ?? {};
  const sender = request.sender ?? {};
  const references = [request.booking_reference, str(request.shipment_reference)].filter(Boolean);
  const shipment: Record<string, unknown> = {
    ShipmentReference: references,
    ShippingDate: request.date,
    Product: request.shipping_service,
    Consignee: { Category: str(recipient.company) ? 'BUSINESS' : 'PRIVATE', Address: glsAddress(recipient) },
    Shipper: { ContactID: String(settings.contact_id ?? ''), AlternativeShipperAddress: glsAddress(sender) },
    ShipmentUnit: request.parcels.map((parcel) => ({
      ShipmentUnitReference: [request.booking_reference],
      Weight: glsWeight(parcel.weight_grams ?? 0),
    })),
  };
  if (request.pudo_location && request.type_of_shipment === 'outbound') {
    shipment.Service = [{ ShopDelivery: { ServiceName: 'service_shopdelivery', ParcelShopID: request.pudo_location.pudo_location_id } }];
  }
  return {
    Shipment: shipment,
    PrintingOptions: { ReturnLabels: { TemplateSet: templateSetOf(format, settings), LabelFormat: LABEL_FORMAT[format] } },
  };
}

/** One parcel GLS created: its Track ID (for cancelling) and parcel number (for tracking). */
export interface GlsCreatedParcel {
  trackId: string;
  parcelNumber: string;
}

/** A label document GLS sent: its bytes and GLS's format name. */
export interface GlsDocument {
  bytes: Uint8Array;
  labelFormat: string;
}

export interface GlsCreatedShipment {
  parcels: GlsCreatedParcel[];
  documents: GlsDocument[];
  customerId: string | null;
  pickupLocation: string | null;
}

function object(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function many(value: unknown): Record<string, unknown>[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.map(object).filter((item): item is Record<string, unknown> => item !== null);
}

function decode(data: unknown): Uint8Array | null {
  const parts = Array.isArray(data) ? data : [data];
  if (parts.length === 0 || !parts.every((part) => typeof part === 'string' && /^[A-Za-z0-9+/=\s]+$/.test(part))) return null;
  const bytes = Buffer.concat(parts.map((part) => Buffer.from(part as string, 'base64')));
  return bytes.length > 0 ? new Uint8Array(bytes) : null;
}

/** A `CreateParcelsResponse`: the parcels and their documents; null when it is not one. */
export function readCreatedShipment(body: unknown): GlsCreatedShipment | null {
  const created = object(object(body)?.CreatedShipment);
  if (!created) return null;
  const parcels: GlsCreatedParcel[] = [];
  for (const entry of many(created.ParcelData)) {
    const trackId = str(entry.TrackID);
    const parcelNumber = str(entry.ParcelNumber);
    if (!trackId || !parcelNumber) return null;
    parcels.push({ trackId, parcelNumber });
  }
  const documents: GlsDocument[] = [];
  for (const entry of many(created.PrintData)) {
    const bytes = decode(entry.Data);
    if (!bytes) return null;
    documents.push({ bytes, labelFormat: str(entry.LabelFormat).toUpperCase() });
  }
  if (parcels.length === 0) return null;
  return { parcels, documents, customerId: str(created.CustomerID) || null, pickupLocation: str(created.PickupLocation) || null };
}

/** Thrown when GLS's documents cannot be kept as labels (none, or a format we did not ask for). */
export class GlsLabelError extends Error {}

/**
 * The documents as labels: one per parcel in GLS's parcel order when GLS sent one per parcel, else each as a
 * label of the whole shipment. Throws `GlsLabelError` without a document, or with one in a format not asked for.
 */
export function bookedLabels(created: GlsCreatedShipment, wanted: LabelFormat): BookedLabel[] {
  if (created.documents.length === 0) throw new GlsLabelError('GLS sent no label document');
  const perParcel = created.documents.length === created.parcels.length;
  return created.documents.map((document, index) => {
    const format = FORMAT_OF[document.labelFormat] ?? (document.labelFormat === '' ? wanted : undefined);
    if (format !== wanted) throw new GlsLabelError(`GLS sent a ${document.labelFormat || 'unnamed'} document where ${wanted} was asked`);
    const parcel = perParcel ? created.parcels[index] : undefined;
    return {
      kind: 'file',
      bytes: document.bytes,
      format,
      document_type: 'label',
      ...(parcel ? { parcel_index: index, tracking_number: parcel.parcelNumber } : {}),
    };
  });
}

/** The Track IDs a booking's `carrier_shipment_identifier` holds (one per parcel, comma-separated). */
export function trackIdsOf(identifier: string): string[] | null {
  const ids = identifier
    .split(',')
    .map((id) => id.trim().toUpperCase())
    .filter(Boolean);
  return ids.length > 0 && ids.every((id) => /^[A-Z0-9]{8}$/.test(id)) ? ids : null;
}

/** A `CancelParcelResponse`'s `Result` (`CANCELLED`, `CANCELLATION_PENDING`, `SCANNED`, …); null when it is not one. */
export function readCancelResult(body: unknown): string | null {
  const result = str(object(body)?.Result).toUpperCase();
  return result || null;
}

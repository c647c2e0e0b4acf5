import type { BookRequest } from '../booking.js';
import { isLocker, NEEDS_DROPOFF_POINT, ownParcel, PARCEL_TEMPLATES, targetPointOf } from './inpost.booking.js';
import { addressOf, shipxParty } from './inpost.parties.js';
import { listOf, objectOf, textOf } from './inpost.payload.js';

/**
 * The ShipX shipment, both ways: the body of `POST /v1/organizations/{organization_id}/shipments` in the
 * simplified mode (the service named at creation, so ShipX buys its offer by itself), and the Shipment
 * resource it answers (`id`, `status`, `tracking_number`, `parcels`, `offers`, `reference`). Pure.
 */

/** Statuses before the offer is bought: no tracking number and no label yet; cancellable while created or offers_prepared. */
export const NOT_YET_BOUGHT = ['created', 'offers_prepared', 'offer_selected'];
/** Statuses `DELETE /v1/shipments/{id}` accepts ("Shipment cancellation"). */
export const CANCELLABLE = ['created', 'offers_prepared'];

/** ShipX's `reference`: 3 to 100 characters. The merchant's reference first, then ours (which `findBooking` looks for). */
export function referenceOf(request: BookRequest): string {
  const own = (request.shipment_reference ?? '').replace(/\s+/g, ' ').trim();
  const room = 100 - request.booking_reference.length - 3;
  return own ? `${own.slice(0, room)} / ${request.booking_reference}` : request.booking_reference;
}

/** Millimetres, whole, at least 1 (ShipX's `dimensions` with `unit: mm`). */
function mm(cm: number): number {
  return Math.max(1, Math.round(cm * 10));
}

/** Kilograms to three decimals, at least 0.001 (ShipX's `weight` with `unit: kg`). */
function kg(grams: number): number {
  return Math.max(0.001, Math.round(grams) / 1000);
}

function nonStandard(dims: { length: number; width: number; height: number }): boolean {
  const sides = [dims.length, dims.width, dims.height];
  return Math.max(...sides) > 120 || sides.reduce((a, b) => a + b, 0) > 220;
}

function parcelsOf(request: BookRequest): Array<Record<string, unknown>> {
  const template = request.carrier_metadata.parcel_template;
  if (isLocker(request) && PARCEL_TEMPLATES.includes(template as never)) return [{ template }];
  const several = !ownParcel(request) && request.parcels.length > 1;
  return request.parcels.map((parcel, index) => {
    const dims = parcel.dimensions_cm as { length: number; width: number; height: number };
    return {
      // "When passing a collection of parcels, it is required to pass the id."
      ...(several ? { id: String(index + 1) } : {}),
      dimensions: { length: mm(dims.length), width: mm(dims.width), height: mm(dims.height), unit: 'mm' },
      weight: { amount: kg(parcel.weight_grams as number), unit: 'kg' },
      // InPost's courier "standard package": longest side at most 120 cm, sides together at most 220 cm.
      is_non_standard: !isLocker(request) && nonStandard(dims),
    };
  });
}

/** The create call's body for a request `checkInpostBooking` accepted. */
export function createShipmentBody(request: BookRequest): Record<string, unknown> {
  const locker = isLocker(request);
  const recipient = addressOf(request, request.recipient_field) ?? {};
  const sender = addressOf(request, request.sender_field);
  const custom: Record<string, unknown> = {};
  const point = targetPointOf(request);
  if (locker && point) custom.target_point = point;
  const method = request.carrier_metadata.sending_method;
  if (typeof method === 'string') {
    custom.sending_method = method;
    const dropoff = request.carrier_metadata.dropoff_point;
    if (NEEDS_DROPOFF_POINT.includes(method) && typeof dropoff === 'string') custom.dropoff_point = dropoff.trim().toUpperCase();
  }
  return {
    receiver: shipxParty(recipient, !locker),
    ...(sender ? { sender: shipxParty(sender, true) } : {}),
    parcels: parcelsOf(request),
    ...(Object.keys(custom).length > 0 ? { custom_attributes: custom } : {}),
    service: request.shipping_service,
    reference: referenceOf(request),
    ...(request.type_of_shipment === 'return' ? { is_return: true } : {}),
  };
}

/** What Waybill reads of a Shipment resource. */
export interface ShipxShipment {
  id: string;
  status: string;
  tracking_number: string | null;
  service: string | null;
  reference: string | null;
  parcels: Array<{ id: string | null; tracking_number: string | null }>;
  /** Offers ShipX could not buy, with its reasons (`offers[].unavailability_reasons`). */
  unavailable: string[];
  /** Whether any offer can still be bought (or was). */
  offerLeft: boolean;
}

/** A Shipment resource → what Waybill reads of it; null without an id and a status. */
export function readShipment(body: unknown): ShipxShipment | null {
  const shipment = objectOf(body);
  const rawId = shipment?.id;
  const id = typeof rawId === 'number' && Number.isFinite(rawId) ? String(rawId) : textOf(rawId);
  const status = textOf(shipment?.status);
  if (!shipment || !id || !status) return null;
  const offers = listOf(shipment.offers);
  const unavailable = offers
    .filter((offer) => textOf(offer.status) === 'unavailable')
    .flatMap((offer) => {
      const reasons = Array.isArray(offer.unavailability_reasons) ? offer.unavailability_reasons : [];
      const texts = reasons
        .map((r) => textOf(r) ?? textOf(objectOf(r)?.message) ?? textOf(objectOf(r)?.key))
        .filter((t): t is string => !!t);
      return texts.length > 0 ? texts : ['unavailable'];
    });
  return {
    id,
    status,
    tracking_number: textOf(shipment.tracking_number),
    service: textOf(shipment.service),
    reference: textOf(shipment.reference),
    parcels: listOf(shipment.parcels).map((parcel) => ({
      id: typeof parcel.id === 'number' ? String(parcel.id) : textOf(parcel.id),
      tracking_number: textOf(parcel.tracking_number),
    })),
    unavailable,
    offerLeft: offers.length === 0 || offers.some((offer) => textOf(offer.status) !== 'unavailable'),
  };
}

/** A page of `GET /v1/organizations/{id}/shipments` → its shipments and whether more pages follow; null when unreadable. */
export function readShipmentPage(body: unknown): { shipments: ShipxShipment[]; more: boolean } | null {
  const page = objectOf(body);
  if (!page || !Array.isArray(page.items)) return null;
  const shipments = page.items.map(readShipment).filter((s): s is ShipxShipment => s !== null);
  const count = typeof page.count === 'number' ? page.count : 0;
  const number = typeof page.page === 'number' ? page.page : 1;
  const perPage = typeof page.per_page === 'number' && page.per_page > 0 ? page.per_page : page.items.length;
  return { shipments, more: perPage > 0 && number * perPage < count };
}

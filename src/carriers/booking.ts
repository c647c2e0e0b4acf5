import type { PudoLocationRecord } from '../core/pudo-location.js';
import type { LabelFormat, LabelInput } from '../documents/label.types.js';
import type { CarrierError, CarrierSettings } from './carrier.js';

/** A field problem in the data a carrier needs, keyed by the merchant's field path. */
export interface CarrierFieldError {
  path: Array<string | number>;
  message: string;
}

/** What a carrier needs to book one parcel, read from the shipment. */
export interface BookRequest {
  shipment_uuid: string;
  shipment_id: string;
  type_of_shipment: 'outbound' | 'return';
  shipping_service: string | null;
  sender: Record<string, unknown> | null;
  recipient: Record<string, unknown> | null;
  /** Which of the shipment's address fields the sender and recipient come from, for error paths. */
  sender_field: string;
  recipient_field: string;
  weight_grams: number | null;
  dimensions_cm: { length: number; width: number; height: number } | null;
  shipment_reference: string | null;
  pudo_location: PudoLocationRecord | null;
  /** Carrier-specific options, already accepted by `checkBooking`. */
  carrier_metadata: Record<string, unknown>;
  /** Today's date for the label, YYYY-MM-DD. */
  date: string;
}

/**
 * A label the carrier provides: bytes it rendered, or the content we render for it (the sandbox), and
 * whether it is ready now or only after a delay (the booking answer is then HTTP 299).
 */
export type BookedLabel = (
  | { kind: 'file'; bytes: Uint8Array; format: LabelFormat }
  | { kind: 'render'; input: LabelInput; format: LabelFormat }
) & {
  /** Seconds until the carrier has the label; 0 or absent = ready now. */
  ready_after_seconds?: number;
};

export type BookResult =
  | {
      status: 'ok';
      tracking_number: string;
      carrier_shipment_identifier: string;
      shipping_service: string;
      labels: BookedLabel[];
      carrier_additional_info: Record<string, unknown>;
    }
  | (CarrierError & { field_errors?: CarrierFieldError[] });

/** The booking part of a carrier adapter, present when `capabilities.booking` is true. */
export interface BookingCapable {
  /**
   * Checks the shipment data and `carrier_metadata` before anything is recorded: missing addresses,
   * weight, unknown options. Returns every problem, none when the request can be booked.
   */
  checkBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[];
  /** Books the parcel. Failures are data; a non-retryable failure may carry field errors. */
  book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult>;
  /** Cancels a booking that could not be completed on our side; best effort, failures are data. */
  cancel(carrierShipmentIdentifier: string, settings: CarrierSettings): Promise<{ status: 'ok' } | CarrierError>;
}

/** The PUDO part of a carrier adapter, present when `capabilities.pudo` is true. */
export interface PudoCapable {
  /** Every location of the carrier, for the service's own indexed copy (refreshed when it changes). */
  pudoLocations(): PudoLocationRecord[];
}

export function canBook(adapter: object): adapter is BookingCapable {
  return typeof (adapter as Partial<BookingCapable>).book === 'function';
}

export function hasPudo(adapter: object): adapter is PudoCapable {
  return typeof (adapter as Partial<PudoCapable>).pudoLocations === 'function';
}

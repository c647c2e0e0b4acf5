import type { LabelFormat } from '../../documents/label.types.js';
import type { BookingError, BookRequest, BookResult } from '../booking.js';
import type { CarrierError, CarrierSettings } from '../carrier.js';
import { answeredStatus, type CarrierResponse, redact, unanswered } from '../sdk/http.js';
import type { CallContext } from '../sdk/http-carrier.js';
import { labelFormatOf } from './glsglb.booking.js';
import { describeIssue, describeRefusal, fieldErrorsOf, issueErrors, readValidation, refusalOf } from './glsglb.refusals.js';
import {
  bookedLabels,
  type GlsCreatedShipment,
  GlsLabelError,
  readCancelResult,
  readCreatedShipment,
  SHIPIT_PATH,
  shipmentRequest,
  trackIdsOf,
} from './glsglb.shipit.js';

/**
 * GLS booking calls through ShipIT (`createParcels`, `validateParcels`, `cancelParcelByID`), with the adapter's transport (`GlsApi`:
 * the tracking credential's token and limits). A `createParcels` call is sent once and never again by the
 * transport: an answer lost after sending is `outcome_unknown`. ShipIT offers no lookup of a parcel by our
 * reference before GLS's end-of-day run, so there is no `findBooking` (docs/carriers/glsglb.md). Failures are
 * data; nothing here throws.
 */

/** One call to ShipIT: a path below `SHIPIT_PATH` and a JSON body. */
export interface GlsCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** False for calls that must not be sent twice (create, cancel). */
  retry: boolean;
  maxBytes?: number;
  timeoutMs?: number;
}

/** What the adapter gives its booking calls: settings checked, and a call within the credential's limits. */
export interface GlsApi {
  now(): number;
  context(settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): CallContext | CarrierError;
  send(context: CallContext, call: GlsCall): Promise<CarrierResponse | CarrierError>;
}

/** Labels of up to ten parcels as base64 PDFs: more than tracking's 4 MiB. */
const LABEL_ANSWER_BYTES = 16 * 1_048_576;
/** Creating several parcels takes GLS a while; the booking's own deadline still applies. */
const CREATE_TIMEOUT_MS = 60_000;
/** Statuses of an answer that may come after GLS created the parcels (a gateway or server failing mid-way). */
const MAYBE_BOOKED = [500, 502, 504];
/** `CancelParcelResponse.Result` values that mean the parcel is (being) cancelled. */
const CANCELLED = new Set(['CANCELLED', 'CANCELLATION_PENDING']);

function isContext(value: CallContext | CarrierError): value is CallContext {
  return !('status' in value);
}

function snippet(response: CarrierResponse): string {
  const line = response.text().replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || '(empty body)';
}

export class GlsShipping {
  constructor(private readonly api: GlsApi) {}

  async book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const format = labelFormatOf(request, context.settings);
    const response = await this.api.send(context, {
      method: 'POST',
      path: `${SHIPIT_PATH}/shipments`,
      body: shipmentRequest(request, context.settings, format),
      retry: false,
      maxBytes: LABEL_ANSWER_BYTES,
      timeoutMs: CREATE_TIMEOUT_MS,
    });
    if ('retryable' in response) return this.notAnswered(response);
    if (response.status === 200 || response.status === 201) {
      const created = readCreatedShipment(response.json());
      if (!created) {
        return {
          status: 'error',
          retryable: true,
          outcome_unknown: true,
          message: this.say(
            context,
            `GLS answered the booking (HTTP ${response.status}) in a form Waybill cannot read: ${snippet(response)}`,
          ),
        };
      }
      return this.booked(created, request, context, format);
    }
    const refusal = refusalOf(response);
    if (response.status >= 400 && response.status < 500 && refusal) {
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `GLS refused the booking (HTTP ${response.status}): ${describeRefusal(refusal)}`),
        field_errors: fieldErrorsOf(refusal, request).map((e) => ({ ...e, message: this.say(context, e.message) })),
      };
    }
    return {
      status: 'error',
      retryable: false,
      message: this.say(context, `GLS did not book (HTTP ${response.status}): ${snippet(response)}`),
    };
  }

  /**
   * ShipIT's check of a shipment without creating it (`POST …/shipments/validate`, the `Shipment` of the booking):
   * GLS's issues on our fields. A read: nothing is created, so the transport may ask again.
   */
  async validate(
    request: BookRequest,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; warnings?: string[] } | BookingError> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const { Shipment } = shipmentRequest(request, context.settings, labelFormatOf(request, context.settings));
    const response = await this.api.send(context, {
      method: 'POST',
      path: `${SHIPIT_PATH}/shipments/validate`,
      body: { Shipment },
      retry: true,
    });
    if ('retryable' in response) return response;
    if (response.status === 200) {
      const validation = readValidation(response.json());
      if (!validation)
        return {
          status: 'error',
          retryable: true,
          message: this.say(context, `GLS's validation answer could not be read: ${snippet(response)}`),
        };
      if (validation.success) return { status: 'ok' };
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `GLS would refuse the booking: ${validation.issues.map(describeIssue).join('; ') || 'no reason given'}`),
        field_errors: issueErrors(validation.issues, request).map((e) => ({ ...e, message: this.say(context, e.message) })),
      };
    }
    const refusal = refusalOf(response);
    if (response.status >= 400 && response.status < 500 && refusal) {
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `GLS refused the shipment (HTTP ${response.status}): ${describeRefusal(refusal)}`),
        field_errors: fieldErrorsOf(refusal, request).map((e) => ({ ...e, message: this.say(context, e.message) })),
      };
    }
    return {
      status: 'error',
      retryable: response.status >= 500,
      message: this.say(context, `GLS's validation answer could not be read (HTTP ${response.status}): ${snippet(response)}`),
    };
  }

  /**
   * Cancels every parcel of a booking by its Track ID (`POST …/shipments/cancel/{TrackID}`). A parcel GLS has
   * scanned already (`SCANNED`) cannot be cancelled: a non-retryable error saying so.
   */
  async cancel(
    identifier: string,
    settings: CarrierSettings,
    options: { now?: Date; signal?: AbortSignal } = {},
  ): Promise<{ status: 'ok' } | BookingError> {
    const context = this.api.context(settings, { now: options.now ?? new Date(this.api.now()), signal: options.signal });
    if (!isContext(context)) return context;
    const ids = trackIdsOf(identifier);
    if (!ids) return { status: 'error', retryable: false, message: `"${identifier}" is not a list of GLS Track IDs.` };
    const refused: string[] = [];
    for (const id of ids) {
      const outcome = await this.cancelOne(context, id);
      if (outcome === 'ok') continue;
      if (outcome.retryable) return outcome;
      refused.push(outcome.message);
    }
    if (refused.length === 0) return { status: 'ok' };
    return { status: 'error', retryable: false, message: this.say(context, refused.join(' ')) };
  }

  private async cancelOne(context: CallContext, id: string): Promise<'ok' | CarrierError> {
    const response = await this.api.send(context, {
      method: 'POST',
      path: `${SHIPIT_PATH}/shipments/cancel/${encodeURIComponent(id)}`,
      retry: false,
    });
    if ('retryable' in response) return response;
    if (response.status === 200) {
      const result = readCancelResult(response.json());
      if (result && CANCELLED.has(result)) return 'ok';
      if (result === 'SCANNED')
        return { status: 'error', retryable: false, message: `GLS did not cancel ${id}: GLS has scanned the parcel already (SCANNED).` };
      if (result) return { status: 'error', retryable: false, message: `GLS did not cancel ${id}: ${result}.` };
      return {
        status: 'error',
        retryable: true,
        message: this.say(context, `GLS's cancel answer could not be read: ${snippet(response)}`),
      };
    }
    const refusal = refusalOf(response);
    if (response.status >= 400 && response.status < 500 && refusal) {
      return { status: 'error', retryable: false, message: this.say(context, `GLS refused to cancel ${id}: ${describeRefusal(refusal)}`) };
    }
    return {
      status: 'error',
      retryable: response.status >= 500,
      message: this.say(context, `GLS's cancel answer could not be read (HTTP ${response.status}): ${snippet(response)}`),
    };
  }

  /**
   * Parcels GLS created: their labels kept. Documents that cannot be kept leave the merchant nothing to print, so
   * the parcels are cancelled at GLS and the booking refused.
   */
  private async booked(created: GlsCreatedShipment, request: BookRequest, context: CallContext, format: LabelFormat): Promise<BookResult> {
    const identifier = created.parcels.map((p) => p.trackId).join(',');
    let labels: ReturnType<typeof bookedLabels>;
    try {
      labels = bookedLabels(created, format);
    } catch (error) {
      if (!(error instanceof GlsLabelError)) throw error;
      const cancelled = await this.cancel(identifier, context.settings, { now: context.now, signal: context.signal });
      return {
        status: 'error',
        retryable: false,
        message: this.say(
          context,
          `GLS created ${identifier} but its label could not be kept (${error.message}); ${
            cancelled.status === 'ok'
              ? 'the parcels were cancelled at GLS'
              : `cancelling them failed (${cancelled.message}): cancel them at GLS`
          }.`,
        ),
      };
    }
    return {
      status: 'ok',
      tracking_number: created.parcels[0].parcelNumber,
      carrier_shipment_identifier: identifier,
      shipping_service: request.shipping_service ?? '',
      labels,
      parcel_tracking_numbers: created.parcels.map((p) => p.parcelNumber),
      carrier_additional_info: {
        track_ids: created.parcels.map((p) => p.trackId),
        booking_reference: request.booking_reference,
        label_format: format,
        ...(created.customerId ? { gls_customer_id: created.customerId } : {}),
        ...(created.pickupLocation ? { gls_pickup_location: created.pickupLocation } : {}),
      },
    };
  }

  /** The transport's failure: a call that may have reached GLS without its answer is `outcome_unknown`. */
  private notAnswered(error: CarrierError): BookingError {
    if (unanswered(error) || MAYBE_BOOKED.includes(answeredStatus(error) ?? 0)) {
      return { ...error, retryable: true, outcome_unknown: true, message: `${error.message}; GLS may have created the parcels` };
    }
    return error;
  }

  private say(context: CallContext, message: string): string {
    return redact(message, context.secrets);
  }
}

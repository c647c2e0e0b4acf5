import type { LabelFormat } from '../../documents/label.types.js';
import type { BookedLabel, BookedShipment, BookingError, BookRequest, BookResult } from '../booking.js';
import type { CarrierError, CarrierSettings } from '../carrier.js';
import { answeredStatus, type CarrierResponse, redact, unanswered } from '../sdk/http.js';
import type { CallContext } from '../sdk/http-carrier.js';
import { labelFormatOf } from './fdxglb.booking.js';
import { describeErrors, fedexErrors, fieldErrorsOf } from './fdxglb.errors.js';
import {
  CANCEL_PATH,
  cancelRequest,
  type FedexDocument,
  type FedexShipResult,
  readCancelResponse,
  readShipResponse,
  readValidateResponse,
  SHIP_PATH,
  shipRequest,
  VALIDATE_PATH,
  validateRequest,
} from './fdxglb.ship.js';

/**
 * FedEx booking calls: Create Shipment, Validate Shipment and Cancel Shipment, through the adapter's transport (`FedexApi`: the Ship
 * project's token and limits). A ship call is sent once and never again by the transport (`retry: false`): an
 * answer lost after sending is `outcome_unknown`. FedEx offers no lookup of a shipment by our reference in the
 * Ship API, so the adapter has no `findBooking`: such a booking stays unknown until the merchant releases it.
 * Failures are data; nothing here throws.
 */

/** One call to FedEx: a path under the base URL and a JSON body. */
export interface FedexCall {
  method: 'POST' | 'PUT';
  path: string;
  body: unknown;
  /** False for calls that must not be sent twice (ship, cancel). */
  retry: boolean;
  maxBytes?: number;
  timeoutMs?: number;
}

/** What the adapter gives its booking and search calls: the Ship project's context, and a call within its limits. */
export interface FedexApi {
  now(): number;
  context(settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): CallContext | CarrierError;
  send(context: CallContext, call: FedexCall): Promise<CarrierResponse | CarrierError>;
}

/** Labels of up to 40 packages and an invoice as base64: far more than tracking's 4 MiB. */
const LABEL_ANSWER_BYTES = 32 * 1_048_576;
/** A ship call of many packages takes FedEx a while; the booking's own deadline still applies. */
const SHIP_TIMEOUT_MS = 60_000;
/** Statuses of an answer that may come after FedEx booked (a gateway or server failing mid-way). */
const MAYBE_BOOKED = [500, 502, 504];

const FORMATS: Record<string, LabelFormat> = { PDF: 'pdf', PNG: 'png', ZPLII: 'zpl', ZPL: 'zpl' };

function isContext(value: CallContext | CarrierError): value is CallContext {
  return !('status' in value);
}

export class FedexShipping {
  constructor(private readonly api: FedexApi) {}

  async book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const format = labelFormatOf(request, context.settings);
    const response = await this.api.send(context, {
      method: 'POST',
      path: SHIP_PATH,
      body: shipRequest(request, context.settings, format),
      retry: false,
      maxBytes: LABEL_ANSWER_BYTES,
      timeoutMs: SHIP_TIMEOUT_MS,
    });
    if ('retryable' in response) return this.notAnswered(response);
    const body = response.json();
    if (response.status === 200) {
      const result = readShipResponse(body);
      if (!result) {
        return {
          status: 'error',
          retryable: true,
          outcome_unknown: true,
          message: this.say(context, `FedEx answered the booking (HTTP 200) in a form Waybill cannot read: ${snippet(response)}`),
        };
      }
      return this.booked(result, request, context, format);
    }
    const errors = fedexErrors(body);
    if (response.status >= 400 && response.status < 500 && errors.length > 0) {
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `FedEx refused the booking (HTTP ${response.status}): ${describeErrors(errors)}`),
        field_errors: fieldErrorsOf(errors, request).map((e) => ({ ...e, message: this.say(context, e.message) })),
      };
    }
    return {
      status: 'error',
      retryable: false,
      message: this.say(context, `FedEx did not book (HTTP ${response.status}): ${snippet(response)}`),
    };
  }

  /**
   * Asks FedEx to check the booking without booking it (Validate Shipment): FedEx's refusals come back as field
   * errors, its warnings as warnings. FedEx validates one piece: a booking of several parcels is checked with its
   * first (the others' weights and sizes are checked by `checkFedexBooking`). A read: the transport may repeat it.
   */
  async validate(
    request: BookRequest,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; warnings?: string[] } | BookingError> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const response = await this.api.send(context, {
      method: 'POST',
      path: VALIDATE_PATH,
      body: validateRequest(request, context.settings, labelFormatOf(request, context.settings)),
      retry: true,
    });
    if ('retryable' in response) return response;
    const body = response.json();
    if (response.status === 200) {
      const warnings = readValidateResponse(body);
      if (warnings === null)
        return {
          status: 'error',
          retryable: true,
          message: this.say(context, `FedEx's validation answer could not be read: ${snippet(response)}`),
        };
      const several = request.parcels.length > 1 ? ['FedEx validates one piece: the shipment was checked with its first parcel.'] : [];
      return { status: 'ok', warnings: [...warnings, ...several].map((w) => this.say(context, w)) };
    }
    const errors = fedexErrors(body);
    if (response.status >= 400 && response.status < 500 && errors.length > 0) {
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `FedEx refused the shipment (HTTP ${response.status}): ${describeErrors(errors)}`),
        field_errors: fieldErrorsOf(errors, request).map((e) => ({ ...e, message: this.say(context, e.message) })),
      };
    }
    return {
      status: 'error',
      retryable: response.status >= 500,
      message: this.say(context, `FedEx's validation answer could not be read (HTTP ${response.status}): ${snippet(response)}`),
    };
  }

  async cancel(
    trackingNumber: string,
    settings: CarrierSettings,
    options: { now?: Date; signal?: AbortSignal } = {},
  ): Promise<{ status: 'ok' } | BookingError> {
    const context = this.api.context(settings, { now: options.now ?? new Date(this.api.now()), signal: options.signal });
    if (!isContext(context)) return context;
    const number = trackingNumber.replace(/\s+/g, '');
    if (!/^[0-9]{12,34}$/.test(number))
      return { status: 'error', retryable: false, message: `"${trackingNumber}" is not a FedEx tracking number.` };
    const account = String(context.settings.account_number ?? '');
    if (!/^[0-9]{9}$/.test(account))
      return {
        status: 'error',
        retryable: false,
        message: 'The FedEx configuration has no account number (settings.account_number) to cancel with.',
      };
    const response = await this.api.send(context, { method: 'PUT', path: CANCEL_PATH, body: cancelRequest(number, account), retry: false });
    if ('retryable' in response) return response;
    const body = response.json();
    if (response.status === 200) {
      const result = readCancelResponse(body);
      if (!result)
        return {
          status: 'error',
          retryable: true,
          message: this.say(context, `FedEx's cancel answer could not be read: ${snippet(response)}`),
        };
      if (result.cancelled) return { status: 'ok' };
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `FedEx did not cancel ${number}: ${result.message ?? 'no reason given'}`),
      };
    }
    const errors = fedexErrors(body);
    if (response.status >= 400 && response.status < 500 && errors.length > 0)
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `FedEx refused to cancel ${number}: ${describeErrors(errors)}`),
      };
    return {
      status: 'error',
      retryable: response.status >= 500,
      message: this.say(context, `FedEx's cancel answer could not be read (HTTP ${response.status}): ${snippet(response)}`),
    };
  }

  /**
   * A booking FedEx made: its labels kept as FedEx rendered them. A piece without a usable label leaves the
   * merchant nothing to print, so the shipment is cancelled at FedEx and the booking refused.
   */
  private async booked(result: FedexShipResult, request: BookRequest, context: CallContext, format: LabelFormat): Promise<BookResult> {
    const labels = bookedLabels(result);
    if (!('error' in labels)) return shipment(result, labels, request, format);
    const cancelled = await this.cancel(result.masterTrackingNumber, context.settings, { now: context.now, signal: context.signal });
    return {
      status: 'error',
      retryable: false,
      message: this.say(
        context,
        `FedEx booked ${result.masterTrackingNumber} but ${labels.error}; ${
          cancelled.status === 'ok'
            ? 'the shipment was cancelled at FedEx'
            : `cancelling it failed (${cancelled.message}): cancel it in FedEx Ship Manager`
        }.`,
      ),
    };
  }

  /** The transport's failure: a call that may have reached FedEx without its answer is `outcome_unknown`. */
  private notAnswered(error: CarrierError): BookingError {
    if (unanswered(error) || MAYBE_BOOKED.includes(answeredStatus(error) ?? 0)) {
      return { ...error, retryable: true, outcome_unknown: true, message: `${error.message}; FedEx may have booked the shipment` };
    }
    return error;
  }

  private say(context: CallContext, message: string): string {
    return redact(message, context.secrets);
  }
}

/** One label per piece in FedEx's order (the order of the parcels), then the commercial invoice; or what is missing. */
export function bookedLabels(result: FedexShipResult): BookedLabel[] | { error: string } {
  const labels: BookedLabel[] = [];
  for (const [index, piece] of result.pieces.entries()) {
    if (!piece.label) return { error: `its answer has no label for piece ${piece.trackingNumber}` };
    const format = FORMATS[piece.label.docType];
    if (!format) return { error: `it sent a ${piece.label.docType} label for piece ${piece.trackingNumber}, which Waybill does not keep` };
    labels.push({
      kind: 'file',
      bytes: piece.label.bytes,
      format,
      document_type: 'label',
      parcel_index: index,
      tracking_number: piece.trackingNumber,
    });
  }
  for (const doc of result.documents) {
    const format = FORMATS[doc.docType];
    if (format && isCustomsPaper(doc)) labels.push({ kind: 'file', bytes: doc.bytes, format, document_type: 'customs_declaration' });
  }
  return labels;
}

function isCustomsPaper(doc: FedexDocument): boolean {
  return ['COMMERCIAL_INVOICE', 'PROFORMA_INVOICE', 'USMCA_COMMERCIAL_INVOICE_CERTIFICATION_OF_ORIGIN', 'CERTIFICATE_OF_ORIGIN'].includes(
    doc.contentType,
  );
}

function shipment(result: FedexShipResult, labels: BookedLabel[], request: BookRequest, format: LabelFormat): BookedShipment {
  return {
    status: 'ok',
    tracking_number: result.masterTrackingNumber,
    carrier_shipment_identifier: result.masterTrackingNumber,
    shipping_service: request.shipping_service ?? result.serviceType ?? '',
    labels,
    parcel_tracking_numbers: result.pieces.map((piece) => piece.trackingNumber),
    carrier_additional_info: {
      master_tracking_number: result.masterTrackingNumber,
      booking_reference: request.booking_reference,
      label_format: format,
      ...(result.alerts.length > 0 ? { alerts: result.alerts } : {}),
    },
  };
}

function snippet(response: CarrierResponse): string {
  const line = response.text().replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || '(empty body)';
}

import type { LabelFormat } from '../../documents/label.types.js';
import type { BookedLabel, BookingError, BookRequest, BookResult } from '../booking.js';
import type { CarrierError, CarrierSettings } from '../carrier.js';
import { answeredStatus, type CarrierResponse, redact, unanswered } from '../sdk/http.js';
import type { CallContext } from '../sdk/http-carrier.js';
import { describe, errorEntries, fieldErrorsOf } from './uspsus.errors.js';
import { LABEL_ACCEPT, labelInfo, labelRequest, readMultipartAnswer, readVendorAnswer, type UspsLabel } from './uspsus.label.js';

/**
 * USPS booking calls: a label (`POST /labels/v3/label` or `/return-label`) and its cancellation or refund
 * (`DELETE /labels/v3/label/{trackingNumber}`), through the adapter's transport (`UspsApi`: the OAuth token and
 * the payment authorization token). A label call is sent once and never again by the transport (`retry:
 * false`): an answer lost after sending is `outcome_unknown`. USPS offers no lookup of a label by our
 * reference, so there is no `findBooking` (docs/carriers/uspsus.md). Failures are data; nothing here throws.
 */

/** One call to USPS: a path under the base URL, a query, a JSON body, and whether it spends postage. */
export interface UspsCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  accept?: string;
  /** Sends the payment authorization token (`X-Payment-Authorization-Token`): label and cancel calls. */
  payment: boolean;
  /** False for calls that must not be sent twice (labels, cancellations). */
  retry: boolean;
  maxBytes?: number;
  timeoutMs?: number;
}

/** What the adapter gives its booking calls: settings checked, and a call with USPS's tokens. */
export interface UspsApi {
  now(): number;
  /** How long a label call waits for USPS (the operator's `WAYBILL_CARRIER_USPSUS_TIMEOUT_SECONDS`, else 60 s). */
  labelTimeoutMs(): number;
  context(settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): CallContext | CarrierError;
  send(context: CallContext, call: UspsCall): Promise<CarrierResponse | CarrierError>;
}

/** A label answer with its image in base64: a PDF label is some 100 KiB, well inside 16 MiB. */
const LABEL_ANSWER_BYTES = 16 * 1_048_576;
/** Statuses of an answer that may come after USPS made the label (a gateway or server failing mid-way). */
const MAYBE_BOOKED = [500, 502, 504];

/** What each format's file starts with (or holds): a label that is not what was asked for is not kept. */
const LOOKS_LIKE: Readonly<Record<LabelFormat, (bytes: Uint8Array) => boolean>> = {
  pdf: (bytes) => Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-',
  png: (bytes) => Buffer.from(bytes.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  zpl: (bytes) => Buffer.from(bytes.subarray(0, 4096)).toString('latin1').includes('^XA'),
};

function isContext(value: CallContext | CarrierError): value is CallContext {
  return !('status' in value);
}

function header(response: CarrierResponse, name: string): string {
  const value = response.headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

function snippet(response: CarrierResponse): string {
  const line = response.text().replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || '(empty body)';
}

export class UspsShipping {
  constructor(private readonly api: UspsApi) {}

  async book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const isReturn = request.type_of_shipment === 'return';
    const { path, body, format } = labelRequest(request, context.settings);
    const response = await this.api.send(context, {
      method: 'POST',
      path,
      body,
      accept: LABEL_ACCEPT,
      payment: true,
      retry: false,
      maxBytes: LABEL_ANSWER_BYTES,
      timeoutMs: this.api.labelTimeoutMs(),
    });
    if ('retryable' in response) return this.notAnswered(response);
    if (response.status === 200 || response.status === 201) {
      const label = await this.read(response, isReturn);
      if (!label) {
        return {
          status: 'error',
          retryable: true,
          outcome_unknown: true,
          message: this.say(
            context,
            `USPS answered the label request (HTTP ${response.status}) in a form Waybill cannot read: ${snippet(response)}`,
          ),
        };
      }
      if (!LOOKS_LIKE[format](label.image)) return this.unusable(label, format, context);
      return this.booked(label, request, format);
    }
    const entries = errorEntries(response.json());
    if (response.status >= 400 && response.status < 500 && entries.length > 0) {
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `USPS refused the label (HTTP ${response.status}): ${describe(entries)}`),
        field_errors: fieldErrorsOf(entries, request).map((e) => ({ ...e, message: this.say(context, e.message) })),
      };
    }
    return {
      status: 'error',
      retryable: false,
      message: this.say(context, `USPS did not make the label (HTTP ${response.status}): ${snippet(response)}`),
    };
  }

  /**
   * Cancels a label, or asks for the refund of an unused one when USPS already has its shipping data (USPS
   * answers `CANCELED` or `DISPUTED`; both end the booking on our side).
   */
  async cancel(
    trackingNumber: string,
    settings: CarrierSettings,
    options: { now?: Date; signal?: AbortSignal } = {},
  ): Promise<{ status: 'ok' } | BookingError> {
    const context = this.api.context(settings, { now: options.now ?? new Date(this.api.now()), signal: options.signal });
    if (!isContext(context)) return context;
    const number = trackingNumber.replace(/\s+/g, '').toUpperCase();
    if (!/^[A-Z0-9]{10,34}$/.test(number))
      return { status: 'error', retryable: false, message: `"${trackingNumber}" is not a USPS tracking number.` };
    const response = await this.api.send(context, {
      method: 'DELETE',
      path: `/labels/v3/label/${encodeURIComponent(number)}`,
      payment: true,
      retry: false,
    });
    if ('retryable' in response) return response;
    const body = response.json() as { status?: unknown } | undefined;
    if (response.status === 200) {
      if (body?.status === 'CANCELED' || body?.status === 'DISPUTED') return { status: 'ok' };
      return {
        status: 'error',
        retryable: true,
        message: this.say(context, `USPS's cancel answer could not be read: ${snippet(response)}`),
      };
    }
    const entries = errorEntries(body);
    if (response.status >= 400 && response.status < 500 && entries.length > 0) {
      return { status: 'error', retryable: false, message: this.say(context, `USPS refused to cancel ${number}: ${describe(entries)}`) };
    }
    return {
      status: 'error',
      retryable: response.status >= 500,
      message: this.say(context, `USPS's cancel answer could not be read (HTTP ${response.status}): ${snippet(response)}`),
    };
  }

  /** The label of a 200: the JSON Waybill asks for, or USPS's default multipart answer. */
  private read(response: CarrierResponse, isReturn: boolean): Promise<UspsLabel | null> | UspsLabel | null {
    const type = header(response, 'content-type');
    if (/^multipart\/form-data/i.test(type)) return readMultipartAnswer(response.body, type, isReturn);
    return readVendorAnswer(response.json(), isReturn);
  }

  private booked(label: UspsLabel, request: BookRequest, format: LabelFormat): BookResult {
    const file: BookedLabel = {
      kind: 'file',
      bytes: label.image,
      format,
      document_type: 'label',
      parcel_index: 0,
      tracking_number: label.trackingNumber,
    };
    return {
      status: 'ok',
      tracking_number: label.trackingNumber,
      carrier_shipment_identifier: label.trackingNumber,
      shipping_service: request.shipping_service ?? '',
      labels: [file],
      parcel_tracking_numbers: [label.trackingNumber],
      carrier_additional_info: {
        booking_reference: request.booking_reference,
        label_format: format,
        ...labelInfo(label.metadata),
        ...(request.pudo_location ? { hold_for_pickup: { facility_id: request.pudo_location.pudo_location_id } } : {}),
      },
    };
  }

  /** A label that is not what was asked for leaves the merchant nothing to print: it is cancelled at USPS. */
  private async unusable(label: UspsLabel, format: LabelFormat, context: CallContext): Promise<BookResult> {
    const cancelled = await this.cancel(label.trackingNumber, context.settings, { now: context.now, signal: context.signal });
    return {
      status: 'error',
      retryable: false,
      message: this.say(
        context,
        `USPS made label ${label.trackingNumber} but its image is not a ${format.toUpperCase()} file; ${
          cancelled.status === 'ok' ? 'the label was cancelled at USPS' : `cancelling it failed (${cancelled.message}): cancel it at USPS`
        }.`,
      ),
    };
  }

  /** The transport's failure: a call that may have reached USPS without its answer is `outcome_unknown`. */
  private notAnswered(error: CarrierError): BookingError {
    if (unanswered(error) || MAYBE_BOOKED.includes(answeredStatus(error) ?? 0)) {
      return { ...error, retryable: true, outcome_unknown: true, message: `${error.message}; USPS may have made the label` };
    }
    return error;
  }

  private say(context: CallContext, message: string): string {
    return redact(message, context.secrets);
  }
}

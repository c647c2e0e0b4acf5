import type { LabelFormat } from '../../documents/label.types.js';
import type { BookedLabel, BookedShipment, BookingError, BookRequest, BookResult, FoundBooking } from '../booking.js';
import type { CarrierError, CarrierSettings } from '../carrier.js';
import { answeredStatus, type CarrierResponse, redact, unanswered } from '../sdk/http.js';
import type { CallContext } from '../sdk/http-carrier.js';
import { labelFormatOf, productOf } from './postnl.booking.js';
import { describeErrors, errorsOf, fieldErrorsOf, labelRequest, type PostnlLabelledShipment, readLabelAnswer } from './postnl.labelling.js';
import { readStatusAnswer, WITHDRAWABLE_STATUSES } from './postnl.status.js';

/**
 * PostNL booking calls, through the adapter's transport (`PostnlApi`: the `apikey` header and the credential's
 * limits). A booking is: one barcode per parcel from the Barcode API (`GET /shipment/v1_1/barcode`, a read that
 * reserves a number and costs nothing when unused), then one Labelling call that also confirms
 * (`POST /shipment/v2_2/label?confirm=true`), sent once and never again by the transport: an answer lost after
 * sending is `outcome_unknown`, and `findBooking` asks the Shippingstatus API for our booking reference and
 * renders the labels again without confirming (`confirm=false`). PostNL has no call to withdraw a confirmed
 * parcel: `cancel` checks that PostNL has not received it (docs/carriers/postnl.md). Nothing here throws.
 */

/** One call to PostNL: a path (with its query) under the base URL and a JSON body. */
export interface PostnlCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** False for the confirming label call, which must not be sent twice. */
  retry: boolean;
  maxBytes?: number;
  timeoutMs?: number;
}

/** What the adapter gives its booking calls: settings checked, and a call within the credential's limits. */
export interface PostnlApi {
  now(): number;
  /** How long the confirming label call waits for PostNL (the operator's `WAYBILL_CARRIER_POSTNL_TIMEOUT_SECONDS`). */
  labelTimeoutMs(): number;
  context(settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): CallContext | CarrierError;
  send(context: CallContext, call: PostnlCall): Promise<CarrierResponse | CarrierError>;
}

export const BARCODE_PATH = '/shipment/v1_1/barcode';
export const LABEL_PATH = '/shipment/v2_2/label';
/** Labels of up to ten parcels as base64 PDFs. */
const LABEL_ANSWER_BYTES = 16 * 1_048_576;
/** Statuses of an answer that may come after PostNL confirmed (a gateway or server failing mid-way). */
const MAYBE_BOOKED = [500, 502, 504];
/** Barcode type `3S`: PostNL's parcels in the Netherlands and Parcels EU (the Barcode API's `Type`). */
const BARCODE_TYPE = '3S';

function isContext(value: CallContext | CarrierError): value is CallContext {
  return !('status' in value);
}

function snippet(response: CarrierResponse): string {
  const line = response.text().replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || '(empty body)';
}

export class PostnlShipping {
  constructor(private readonly api: PostnlApi) {}

  async book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const barcodes: string[] = [];
    for (const _parcel of request.parcels) {
      const barcode = await this.barcode(context);
      if (typeof barcode !== 'string') return barcode;
      barcodes.push(barcode);
    }
    const format = labelFormatOf(request, context.settings);
    const response = await this.api.send(context, {
      method: 'POST',
      path: `${LABEL_PATH}?confirm=true`,
      body: labelRequest(request, context.settings, format, barcodes, context.now),
      retry: false,
      maxBytes: LABEL_ANSWER_BYTES,
      timeoutMs: this.api.labelTimeoutMs(),
    });
    if ('retryable' in response) return this.notAnswered(response);
    const body = response.json();
    const errors = errorsOf(body);
    if (response.status >= 400 && response.status < 500 && errors.length > 0) {
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `PostNL refused the booking (HTTP ${response.status}): ${describeErrors(errors)}`),
        field_errors: fieldErrorsOf(errors, request, barcodes).map((e) => ({ ...e, message: this.say(context, e.message) })),
      };
    }
    if (response.status !== 200) {
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `PostNL did not book (HTTP ${response.status}): ${snippet(response)}`),
      };
    }
    const shipments = readLabelAnswer(body);
    if (shipments && errors.length > 0) {
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `PostNL refused the booking: ${describeErrors(errors)}`),
        field_errors: fieldErrorsOf(errors, request, barcodes).map((e) => ({ ...e, message: this.say(context, e.message) })),
      };
    }
    const result = shipments ? this.shipment(shipments, barcodes, request, format, {}) : null;
    if (!result || 'error' in result) {
      // PostNL answered 200 but Waybill cannot hand over the labels: it may have confirmed, so the booking is
      // found again by its reference (and its labels rendered again) instead of being sent twice.
      return {
        status: 'error',
        retryable: true,
        outcome_unknown: true,
        message: this.say(
          context,
          `PostNL answered the booking (HTTP 200) in a form Waybill cannot read${result ? ` (${result.error})` : ''}: ${snippet(response)}`,
        ),
      };
    }
    return result;
  }

  /**
   * PostNL checks the booking without announcing it: the same label call with `confirm=false` (PostNL validates
   * it and renders labels that nobody receives), for barcodes reserved for it. A refusal is one as `book` maps it.
   */
  async validate(
    request: BookRequest,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; warnings?: string[] } | BookingError> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const barcodes: string[] = [];
    for (const _parcel of request.parcels) {
      const barcode = await this.barcode(context);
      if (typeof barcode !== 'string') return barcode;
      barcodes.push(barcode);
    }
    const format = labelFormatOf(request, context.settings);
    const response = await this.api.send(context, {
      method: 'POST',
      path: `${LABEL_PATH}?confirm=false`,
      body: labelRequest(request, context.settings, format, barcodes, context.now),
      retry: true,
      maxBytes: LABEL_ANSWER_BYTES,
      timeoutMs: this.api.labelTimeoutMs(),
    });
    if ('retryable' in response) return response;
    const body = response.json();
    const errors = errorsOf(body);
    const shipments = response.status === 200 ? readLabelAnswer(body) : null;
    if (errors.length > 0 && (shipments || (response.status >= 400 && response.status < 500))) {
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `PostNL refused the booking (HTTP ${response.status}): ${describeErrors(errors)}`),
        field_errors: fieldErrorsOf(errors, request, barcodes).map((e) => ({ ...e, message: this.say(context, e.message) })),
      };
    }
    if (!shipments) {
      return {
        status: 'error',
        retryable: response.status >= 500 || response.status === 200,
        message: this.say(context, `PostNL's check could not be read (HTTP ${response.status}): ${snippet(response)}`),
      };
    }
    const warnings = shipments.flatMap((s) => s.warnings).filter(Boolean);
    return { status: 'ok', ...(warnings.length > 0 ? { warnings } : {}) };
  }

  /**
   * PostNL has no call to withdraw a confirmed parcel. A label PostNL has not received (only its pre-announcement
   * is known, or nothing) is released here and left unused; one PostNL has scanned is refused with the reason.
   */
  async cancel(
    barcode: string,
    settings: CarrierSettings,
    options: { now?: Date; signal?: AbortSignal } = {},
  ): Promise<{ status: 'ok' } | BookingError> {
    const context = this.api.context(settings, { now: options.now ?? new Date(this.api.now()), signal: options.signal });
    if (!isContext(context)) return context;
    const id = barcode.trim().toUpperCase();
    if (!/^[0-9A-Z]{11,15}$/.test(id)) return { status: 'error', retryable: false, message: `"${barcode}" is not a PostNL barcode.` };
    const response = await this.api.send(context, {
      method: 'GET',
      path: `/shipment/v2/status/barcode/${encodeURIComponent(id)}?detail=false&language=EN`,
      retry: true,
    });
    if ('retryable' in response) return response;
    if (response.status === 404) return { status: 'ok' };
    if (response.status !== 200) {
      return {
        status: 'error',
        retryable: response.status >= 500,
        message: this.say(context, `PostNL's status of ${id} could not be read (HTTP ${response.status}): ${snippet(response)}`),
      };
    }
    const status = readStatusAnswer(response.json());
    if (status === null)
      return {
        status: 'error',
        retryable: true,
        message: this.say(context, `PostNL's status of ${id} could not be read: ${snippet(response)}`),
      };
    // A multi-collo shipment answers for all its parcels: one PostNL has received is enough to refuse.
    const current = status.find((s) => s.statusCode !== null && !WITHDRAWABLE_STATUSES.has(s.statusCode));
    if (!current) return { status: 'ok' };
    return {
      status: 'error',
      retryable: false,
      message: this.say(
        context,
        `PostNL already has parcel ${current.barcode} (status ${current.statusCode}${current.description ? `, ${current.description}` : ''}); PostNL has no call to withdraw a parcel it has received.`,
      ),
    };
  }

  /**
   * A booking whose answer was lost, by our booking reference (`Reference`, Get Status by Reference). Found: its
   * labels are rendered again for the same barcodes without confirming. PostNL lists a confirmed parcel within
   * minutes; until then it is `not_found`.
   */
  async findBooking(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<FoundBooking> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const query = new URLSearchParams({
      customerCode: String(context.settings.customer_code ?? '').toUpperCase(),
      customerNumber: String(context.settings.customer_number ?? ''),
      detail: 'false',
      language: 'EN',
    });
    const response = await this.api.send(context, {
      method: 'GET',
      path: `/shipment/v2/status/reference/${encodeURIComponent(request.booking_reference)}?${query}`,
      retry: true,
    });
    if ('retryable' in response) return response;
    if (response.status === 404) return { status: 'not_found' };
    if (response.status !== 200) {
      return {
        status: 'error',
        retryable: true,
        message: this.say(context, `PostNL did not look the booking up (HTTP ${response.status}): ${snippet(response)}`),
      };
    }
    const found = readStatusAnswer(response.json());
    if (found === null)
      return {
        status: 'error',
        retryable: true,
        message: this.say(context, `PostNL's status answer could not be read: ${snippet(response)}`),
      };
    if (found.length === 0) return { status: 'not_found' };
    const ordered = [...found].sort((a, b) => (a.counter ?? 0) - (b.counter ?? 0));
    const main = ordered[0].mainBarcode ?? ordered[0].barcode;
    const barcodes = [main, ...ordered.map((s) => s.barcode).filter((b) => b !== main)];
    if (barcodes.length !== request.parcels.length) {
      return {
        status: 'error',
        retryable: true,
        message: `PostNL lists ${barcodes.length} of the booking's ${request.parcels.length} parcels so far; asked again later.`,
      };
    }
    const format = labelFormatOf(request, context.settings);
    const labelled = await this.api.send(context, {
      method: 'POST',
      path: `${LABEL_PATH}?confirm=false`,
      body: labelRequest(request, context.settings, format, barcodes, context.now),
      retry: true,
      maxBytes: LABEL_ANSWER_BYTES,
      timeoutMs: this.api.labelTimeoutMs(),
    });
    if ('retryable' in labelled) return labelled;
    const shipments = labelled.status === 200 ? readLabelAnswer(labelled.json()) : null;
    const result = shipments ? this.shipment(shipments, barcodes, request, format, { recovered: true }) : null;
    if (!result || 'error' in result) {
      return {
        status: 'error',
        retryable: true,
        message: this.say(
          context,
          `PostNL has booking ${main} but its labels could not be rendered again (HTTP ${labelled.status})${result ? `: ${result.error}` : ''}`,
        ),
      };
    }
    return { status: 'found', result };
  }

  /** One barcode from the Barcode API (a read: the transport may retry it). */
  private async barcode(context: CallContext): Promise<string | BookingError> {
    const query = new URLSearchParams({
      CustomerCode: String(context.settings.customer_code ?? '').toUpperCase(),
      CustomerNumber: String(context.settings.customer_number ?? ''),
      Type: BARCODE_TYPE,
      ...(typeof context.settings.barcode_serie === 'string' ? { Serie: context.settings.barcode_serie } : {}),
    });
    const response = await this.api.send(context, { method: 'GET', path: `${BARCODE_PATH}?${query}`, retry: true });
    if ('retryable' in response) return response;
    const body = response.json();
    const barcode = response.status === 200 ? (body as { Barcode?: unknown } | undefined)?.Barcode : undefined;
    if (typeof barcode === 'string' && /^[0-9A-Z]{11,15}$/.test(barcode)) return barcode;
    const errors = errorsOf(body);
    return {
      status: 'error',
      retryable: response.status >= 500,
      message: this.say(
        context,
        `PostNL gave no barcode (HTTP ${response.status}): ${errors.length > 0 ? describeErrors(errors) : snippet(response)}; nothing was booked.`,
      ),
    };
  }

  /** The booked shipment: a label per parcel in the order of `barcodes`, customs papers after them. */
  private shipment(
    shipments: readonly PostnlLabelledShipment[],
    barcodes: readonly string[],
    request: BookRequest,
    format: LabelFormat,
    extra: Record<string, unknown>,
  ): BookedShipment | { error: string } {
    const labels: BookedLabel[] = [];
    const papers: BookedLabel[] = [];
    for (const [index, barcode] of barcodes.entries()) {
      const shipment = shipments.find((s) => s.barcode === barcode);
      const label = shipment?.labels.find((l) => l.labelType.toLowerCase() === 'label' && l.format !== null);
      if (!shipment || !label) return { error: `no label for parcel ${barcode}` };
      labels.push({
        kind: 'file',
        bytes: label.bytes,
        format: label.format as LabelFormat,
        document_type: 'label',
        parcel_index: index,
        tracking_number: barcode,
      });
      for (const paper of shipment.labels) {
        if (paper === label || paper.format !== 'pdf') continue;
        papers.push({ kind: 'file', bytes: paper.bytes, format: 'pdf', document_type: 'customs_declaration', parcel_index: index });
      }
    }
    const warnings = shipments.flatMap((s) => s.warnings).filter(Boolean);
    return {
      status: 'ok',
      tracking_number: barcodes[0],
      carrier_shipment_identifier: barcodes[0],
      shipping_service: productOf(request)?.code ?? request.shipping_service ?? '',
      labels: [...labels, ...papers],
      parcel_tracking_numbers: [...barcodes],
      carrier_additional_info: {
        main_barcode: barcodes[0],
        booking_reference: request.booking_reference,
        label_format: format,
        ...(warnings.length > 0 ? { warnings } : {}),
        ...extra,
      },
    };
  }

  /** The transport's failure: a call that may have reached PostNL without its answer is `outcome_unknown`. */
  private notAnswered(error: CarrierError): BookingError {
    if (unanswered(error) || MAYBE_BOOKED.includes(answeredStatus(error) ?? 0)) {
      return { ...error, retryable: true, outcome_unknown: true, message: `${error.message}; PostNL may have booked the shipment` };
    }
    return error;
  }

  private say(context: CallContext, message: string): string {
    return redact(message, context.secrets);
  }
}

import type { BookedShipment, BookingError, BookRequest, BookResult, FoundBooking } from '../booking.js';
import type { CarrierError, CarrierSettings } from '../carrier.js';
import { answeredStatus, type CarrierResponse, redact, unanswered } from '../sdk/http.js';
import type { CallContext } from '../sdk/http-carrier.js';
import { labelFormatOf, labelTypeOf, organizationOf, targetPointOf } from './inpost.booking.js';
import { describeField, fieldErrorsOf, flattenDetails } from './inpost.errors.js';
import { errorText } from './inpost.mapper.js';
import { objectOf, textOf } from './inpost.payload.js';
import { CANCELLABLE, createShipmentBody, NOT_YET_BOUGHT, readShipment, readShipmentPage, type ShipxShipment } from './inpost.shipment.js';

/**
 * InPost booking calls through ShipX, with the adapter's transport (`InpostApi`: the token and the credential's
 * limits). A shipment is created once in the simplified mode (`POST /v1/organizations/{id}/shipments` with its
 * service): ShipX then prepares the offers and buys the one of that service by itself, asynchronously (status
 * `created` → `offers_prepared` → `confirmed`). The booking reads the shipment (`GET /v1/shipments/{id}`) until
 * it is confirmed, then downloads its label (`GET /v1/shipments/{id}/label`). The create call is never sent
 * twice: a create without an answer, a shipment not confirmed within the booking's time, or a label that could
 * not be read is `outcome_unknown`, and `findBooking` finds the shipment by its reference later. Failures are
 * data; nothing here throws.
 */

export interface InpostCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and query under the base URL. */
  path: string;
  body?: unknown;
  /** False for calls that must not be sent twice (create, cancel). */
  retry: boolean;
  maxBytes?: number;
  accept?: string;
}

/** What the adapter gives its booking calls: settings checked, and a call with the token within the credential's limits. */
export interface InpostApi {
  now(): number;
  context(settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): CallContext | CarrierError;
  send(context: CallContext, call: InpostCall): Promise<CarrierResponse | CarrierError>;
}

/** How long a booking waits for ShipX to buy the offer (within the booking's own deadline). */
const CONFIRM_WAIT_MS = 20_000;
/** The first wait before the shipment is read again, then each wait a little longer, up to the last. */
const FIRST_POLL_MS = 300;
const LONGEST_POLL_MS = 2_000;
/** A label of many parcels is one file; PDF labels of ten parcels stay well below this. */
const LABEL_BYTES = 16 * 1_048_576;
/** Statuses of an answer that may come after ShipX created the shipment (a gateway or server failing mid-way). */
const MAYBE_CREATED = [500, 502, 504];
/** How long a lookup waits for ShipX to buy the offer of a shipment it found (the service asks within 15 s). */
const LOOKUP_WAIT_MS = 8_000;
/** Shipment pages read while looking for a lost booking, of 100 each. */
const LOOKUP_PAGES = 20;

/**
 * The services a booking's shipment may carry in ShipX: a locker shipment to a ParcelPoint is changed to
 * `inpost_locker_customer_service_point` ("Shipment sizes and services").
 */
function servicesOf(request: BookRequest): string {
  const service = request.shipping_service ?? '';
  return service === 'inpost_locker_standard' ? `${service},inpost_locker_customer_service_point` : service;
}

function isContext(value: CallContext | CarrierError): value is CallContext {
  return !('status' in value);
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function snippet(response: CarrierResponse): string {
  const line = response.text().replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || '(empty body)';
}

/** ShipX's error key and message, with the refused attributes when it lists them. */
function refusalText(response: CarrierResponse): string {
  const body = response.json();
  const details = flattenDetails(objectOf(body)?.details).map(describeField);
  const main = errorText(body) || snippet(response);
  return details.length > 0 ? `${main} (${details.join('; ')})` : main;
}

type Label = { bytes: Uint8Array; format: 'pdf' | 'zpl' };

export class InpostShipping {
  constructor(private readonly api: InpostApi) {}

  async book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const organization = organizationOf(context.settings);
    if (!organization) return { status: 'error', retryable: false, message: 'The InPost configuration has no organization_id.' };
    const response = await this.api.send(context, {
      method: 'POST',
      path: `/v1/organizations/${organization}/shipments`,
      body: createShipmentBody(request),
      retry: false,
    });
    if ('retryable' in response) return this.notAnswered(response);
    if (response.status === 200 || response.status === 201) {
      const shipment = readShipment(response.json());
      if (!shipment)
        return {
          status: 'error',
          retryable: true,
          outcome_unknown: true,
          message: this.say(
            context,
            `InPost answered the booking (HTTP ${response.status}) in a form Waybill cannot read: ${snippet(response)}`,
          ),
        };
      return this.complete(shipment, request, context);
    }
    const body = response.json();
    const key = textOf(objectOf(body)?.error);
    if (response.status === 400 && key === 'validation_failed') {
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `InPost refused the booking (HTTP 400): ${refusalText(response)}`),
        field_errors: fieldErrorsOf(objectOf(body)?.details, request).map((e) => ({ ...e, message: this.say(context, e.message) })),
      };
    }
    const why = response.status === 401 || response.status === 403 ? ' (check settings.api_token and settings.organization_id)' : '';
    return {
      status: 'error',
      retryable: false,
      message: this.say(context, `InPost did not book (HTTP ${response.status}): ${key ? refusalText(response) : snippet(response)}${why}`),
    };
  }

  async cancel(
    shipmentId: string,
    settings: CarrierSettings,
    options: { now?: Date; signal?: AbortSignal } = {},
  ): Promise<{ status: 'ok' } | BookingError> {
    const context = this.api.context(settings, { now: options.now ?? new Date(this.api.now()), signal: options.signal });
    if (!isContext(context)) return context;
    const id = shipmentId.trim();
    if (!/^[0-9]{1,15}$/.test(id)) return { status: 'error', retryable: false, message: `"${shipmentId}" is not a ShipX shipment id.` };
    const response = await this.api.send(context, { method: 'DELETE', path: `/v1/shipments/${id}`, retry: false });
    if ('retryable' in response) return response;
    if (response.status === 204 || response.status === 200) return { status: 'ok' };
    const key = textOf(objectOf(response.json())?.error);
    if (response.status === 400 && key === 'invalid_action') {
      const status = await this.statusOf(context, id);
      return {
        status: 'error',
        retryable: false,
        message: this.say(
          context,
          `InPost cancels a shipment only before it is bought (status ${CANCELLABLE.join(' or ')})${
            status ? `; shipment ${id} is ${status}` : ''
          }. A bought label is cancelled in InPost's Parcel Manager. InPost said: ${refusalText(response)}`,
        ),
      };
    }
    if (response.status === 404) return { status: 'error', retryable: false, message: `InPost does not know shipment ${id}.` };
    return {
      status: 'error',
      retryable: false,
      message: this.say(
        context,
        `InPost did not cancel shipment ${id} (HTTP ${response.status}): ${key ? refusalText(response) : snippet(response)}`,
      ),
    };
  }

  /**
   * A booking whose answer was lost, by its reference. ShipX's shipment search documents no filter by
   * reference: the organization's shipments of the service created since the day before the booking are read
   * (newest pages first as ShipX lists them, 100 a page) and matched on their `reference`, which carries ours.
   */
  async findBooking(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<FoundBooking> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const organization = organizationOf(context.settings);
    if (!organization) return { status: 'error', retryable: false, message: 'The InPost configuration has no organization_id.' };
    const day = Date.parse(`${request.date}T00:00:00Z`);
    const since = new Date((Number.isNaN(day) ? options.now.getTime() : day) - 86_400_000).toISOString().slice(0, 10);
    const matches: ShipxShipment[] = [];
    for (let page = 1; page <= LOOKUP_PAGES; page++) {
      const query = new URLSearchParams({
        created_at_gteq: since,
        service: servicesOf(request),
        page: String(page),
        per_page: '100',
      });
      const response = await this.api.send(context, {
        method: 'GET',
        path: `/v1/organizations/${organization}/shipments?${query}`,
        retry: true,
      });
      if ('retryable' in response) return { ...response, retryable: true };
      const read = response.status === 200 ? readShipmentPage(response.json()) : null;
      if (!read)
        return {
          status: 'error',
          retryable: true,
          message: this.say(context, `InPost's shipment list could not be read (HTTP ${response.status}): ${snippet(response)}`),
        };
      matches.push(...read.shipments.filter((s) => s.reference?.includes(request.booking_reference)));
      if (!read.more) break;
      if (page === LOOKUP_PAGES)
        return {
          status: 'error',
          retryable: false,
          message: 'Too many InPost shipments since the booking to look it up: check the Parcel Manager.',
        };
    }
    const listed = matches.find((s) => s.status !== 'canceled');
    if (!listed) return { status: 'not_found' };
    const shipment = await this.whenBought(listed, context, LOOKUP_WAIT_MS);
    if ('pending' in shipment)
      return {
        status: 'error',
        retryable: true,
        message: `InPost has created shipment ${listed.id} but not bought it yet: ${shipment.pending}`,
      };
    if (shipment.status === 'canceled') return { status: 'not_found' };
    if (!shipment.offerLeft)
      return {
        status: 'error',
        retryable: false,
        message: `InPost could not buy the service for shipment ${shipment.id}: ${shipment.unavailable.join('; ')}.`,
      };
    const label = await this.label(context, shipment.id, request);
    if ('message' in label) return { status: 'error', retryable: true, message: label.message };
    return { status: 'found', result: this.booked(shipment, label, request, context, { recovered: true }) };
  }

  /** Waits for ShipX to buy the offer, then downloads the label. */
  private async complete(created: ShipxShipment, request: BookRequest, context: CallContext): Promise<BookResult> {
    const shipment = await this.whenBought(created, context, CONFIRM_WAIT_MS);
    if ('pending' in shipment) return this.pending(created, context, shipment.pending);
    if (!shipment.offerLeft) return this.unavailable(shipment, context);
    if (shipment.status === 'canceled')
      return { status: 'error', retryable: false, message: `InPost cancelled shipment ${shipment.id} before it was bought.` };
    const label = await this.label(context, shipment.id, request);
    if ('message' in label) return this.pending(shipment, context, label.message);
    return this.booked(shipment, label, request, context, {});
  }

  /**
   * Reads the shipment until ShipX has bought its offer (or could not, or it was cancelled), for at most `waitMs`
   * and within the call's deadline; `pending` says why it is not known yet.
   */
  private async whenBought(first: ShipxShipment, context: CallContext, waitMs: number): Promise<ShipxShipment | { pending: string }> {
    let shipment = first;
    const until = this.api.now() + waitMs;
    let wait = FIRST_POLL_MS;
    while (
      (NOT_YET_BOUGHT.includes(shipment.status) || !shipment.tracking_number) &&
      shipment.status !== 'canceled' &&
      shipment.offerLeft
    ) {
      if (this.api.now() + wait > until || context.signal?.aborted) return { pending: `still ${shipment.status}` };
      await pause(wait, context.signal);
      if (context.signal?.aborted) return { pending: `still ${shipment.status}` };
      const read = await this.read(context, shipment.id);
      if ('message' in read) return { pending: read.message };
      shipment = read;
      wait = Math.min(wait * 2, LONGEST_POLL_MS);
    }
    return shipment;
  }

  /** ShipX could buy no offer of the service: the shipment is cancelled (still allowed then) and the booking refused. */
  private async unavailable(shipment: ShipxShipment, context: CallContext): Promise<BookResult> {
    const cancelled = CANCELLABLE.includes(shipment.status) ? await this.cancel(shipment.id, context.settings, context) : null;
    return {
      status: 'error',
      retryable: false,
      message: this.say(
        context,
        `InPost could not buy the service for shipment ${shipment.id}: ${shipment.unavailable.join('; ')}${
          cancelled?.status === 'ok' ? ' (the shipment was cancelled)' : ''
        }.`,
      ),
    };
  }

  /** A shipment created but not finished within the booking: Waybill looks it up again (`findBooking`). */
  private pending(shipment: ShipxShipment, context: CallContext, why: string): BookingError {
    return {
      status: 'error',
      retryable: true,
      outcome_unknown: true,
      message: this.say(context, `InPost created shipment ${shipment.id} (${shipment.status}) but its label could not be had yet: ${why}`),
    };
  }

  private async read(context: CallContext, id: string): Promise<ShipxShipment | CarrierError> {
    const response = await this.api.send(context, { method: 'GET', path: `/v1/shipments/${id}`, retry: true });
    if ('retryable' in response) return response;
    const shipment = response.status === 200 ? readShipment(response.json()) : null;
    return shipment ?? { status: 'error', retryable: true, message: `shipment ${id} could not be read (HTTP ${response.status})` };
  }

  private async statusOf(context: CallContext, id: string): Promise<string | null> {
    const read = await this.read(context, id);
    return 'message' in read ? null : read.status;
  }

  /** The shipment's label: one file for all its parcels ("Shipment label download"). */
  private async label(context: CallContext, id: string, request: BookRequest): Promise<Label | CarrierError> {
    const format = labelFormatOf(request, context.settings);
    const query = new URLSearchParams({ format: format === 'zpl' ? 'Zpl' : 'Pdf', type: labelTypeOf(request, context.settings) });
    const response = await this.api.send(context, {
      method: 'GET',
      path: `/v1/shipments/${id}/label?${query}`,
      retry: true,
      maxBytes: LABEL_BYTES,
      accept: format === 'zpl' ? '*/*' : 'application/pdf',
    });
    if ('retryable' in response) return response;
    if (response.status !== 200)
      return {
        status: 'error',
        retryable: true,
        message: `InPost did not give the label (HTTP ${response.status}): ${refusalText(response)}`,
      };
    const bytes = new Uint8Array(response.body);
    const head = response.body.subarray(0, 1024).toString('latin1');
    const readable = format === 'pdf' ? head.startsWith('%PDF-') : response.body.toString('latin1').includes('^XA');
    if (!readable)
      return {
        status: 'error',
        retryable: true,
        message: `InPost's label is not a ${format.toUpperCase()} file (${snippet(response).slice(0, 60)})`,
      };
    return { bytes, format };
  }

  private booked(
    shipment: ShipxShipment,
    label: Label,
    request: BookRequest,
    context: CallContext,
    extra: Record<string, unknown>,
  ): BookedShipment {
    const parcelNumbers = shipment.parcels.map((p) => p.tracking_number).filter((n): n is string => n !== null);
    const trackingNumber = shipment.tracking_number ?? parcelNumbers[0] ?? '';
    const point = targetPointOf(request);
    return {
      status: 'ok',
      tracking_number: trackingNumber,
      carrier_shipment_identifier: shipment.id,
      shipping_service: shipment.service ?? request.shipping_service ?? '',
      labels: [{ kind: 'file', bytes: label.bytes, format: label.format, document_type: 'label' }],
      ...(parcelNumbers.length > 1 ? { parcel_tracking_numbers: parcelNumbers } : {}),
      carrier_additional_info: {
        shipx_shipment_id: shipment.id,
        shipx_status: shipment.status,
        booking_reference: request.booking_reference,
        reference: shipment.reference,
        label_format: label.format,
        label_type: labelTypeOf(request, context.settings),
        ...(point ? { target_point: point } : {}),
        ...(parcelNumbers.length > 1 ? { parcel_tracking_numbers: parcelNumbers } : {}),
        ...extra,
      },
    };
  }

  /** The transport's failure: a create that may have reached ShipX without its answer is `outcome_unknown`. */
  private notAnswered(error: CarrierError): BookingError {
    if (unanswered(error) || MAYBE_CREATED.includes(answeredStatus(error) ?? 0)) {
      return { ...error, retryable: true, outcome_unknown: true, message: `${error.message}; InPost may have created the shipment` };
    }
    const status = answeredStatus(error);
    if (status === 401 || status === 403)
      return { ...error, message: `${error.message} (check settings.api_token and settings.organization_id)` };
    return error;
  }

  private say(context: CallContext, message: string): string {
    return redact(message, context.secrets);
  }
}

import type { LabelFormat } from '../../documents/label.types.js';
import type { BookedShipment, BookingError, BookRequest, BookResult, FoundBooking } from '../booking.js';
import type { CarrierError, CarrierSettings } from '../carrier.js';
import { answeredStatus, type CarrierResponse, redact, unanswered } from '../sdk/http.js';
import type { CallContext } from '../sdk/http-carrier.js';
import { labelFormatOf } from './upsglb.booking.js';
import { fieldErrorsOf } from './upsglb.errors.js';
import { bookedLabels } from './upsglb.labels.js';
import { describeMessages, errorsOf } from './upsglb.mapper.js';
import type { UpsMessage } from './upsglb.payload.js';
import {
  RECOVERY_VERSION,
  readRecovery,
  readVoid,
  recoveryByReference,
  recoveryByTrackingNumber,
  saysNotFound,
} from './upsglb.recovery.js';
import { readShipResponse, SHIP_VERSION, shipRequest, type UpsPackageResult, type UpsShipResult } from './upsglb.ship.js';

/**
 * UPS booking calls: Ship, Void and Label Recovery, through the adapter's transport (`UpsApi`: the
 * credential's token and limits). A ship call is sent once and never again by the transport (`retry:
 * false`): an answer lost after sending is `outcome_unknown`, and `findBooking` asks Label Recovery for the
 * booking reference. Failures are data; nothing here throws.
 */

/** One call to UPS: a path under the base URL and a JSON body. */
export interface UpsCall {
  method: 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  /** False for calls that must not be sent twice (ship, void). */
  retry: boolean;
  maxBytes?: number;
  timeoutMs?: number;
}

/** What the adapter gives its booking calls: settings checked, and a call within the credential's limits. */
export interface UpsApi {
  now(): number;
  context(settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): CallContext | CarrierError;
  send(context: CallContext, call: UpsCall): Promise<CarrierResponse | CarrierError>;
}

/** Labels of up to 20 packages as base64 GIFs: far more than tracking's 4 MiB. */
const LABEL_ANSWER_BYTES = 32 * 1_048_576;
/** A ship call of many packages takes UPS a while; the booking's own deadline still applies. */
const SHIP_TIMEOUT_MS = 60_000;
/** Statuses of an answer that may come after UPS booked (a gateway or server failing mid-way). */
const MAYBE_BOOKED = [500, 502, 504];

function isContext(value: CallContext | CarrierError): value is CallContext {
  return !('status' in value);
}

export class UpsShipping {
  constructor(private readonly api: UpsApi) {}

  async book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const format = labelFormatOf(request, context.settings);
    const response = await this.api.send(context, {
      method: 'POST',
      path: `/api/shipments/${SHIP_VERSION}/ship`,
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
          message: this.say(context, `UPS answered the booking (HTTP 200) in a form Waybill cannot read: ${snippet(response)}`),
        };
      }
      return this.booked(result, request, context, format);
    }
    const errors = errorsOf(body);
    if (response.status >= 400 && response.status < 500 && errors.length > 0) {
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `UPS refused the booking (HTTP ${response.status}): ${describeMessages(errors)}`),
        field_errors: fieldErrorsOf(errors, request).map((e) => ({ ...e, message: this.say(context, e.message) })),
      };
    }
    return {
      status: 'error',
      retryable: false,
      message: this.say(context, `UPS did not book (HTTP ${response.status}): ${snippet(response)}`),
    };
  }

  async cancel(
    shipmentId: string,
    settings: CarrierSettings,
    options: { now?: Date; signal?: AbortSignal } = {},
  ): Promise<{ status: 'ok' } | BookingError> {
    const context = this.api.context(settings, { now: options.now ?? new Date(this.api.now()), signal: options.signal });
    if (!isContext(context)) return context;
    const id = shipmentId.trim().toUpperCase();
    if (!/^[A-Z0-9]{18}$/.test(id)) return { status: 'error', retryable: false, message: `"${shipmentId}" is not a UPS shipment number.` };
    const response = await this.api.send(context, {
      method: 'DELETE',
      path: `/api/shipments/${SHIP_VERSION}/void/cancel/${id}`,
      retry: false,
    });
    if ('retryable' in response) return response;
    const body = response.json();
    if (response.status === 200) {
      const result = readVoid(body);
      if (!result)
        return {
          status: 'error',
          retryable: true,
          message: this.say(context, `UPS's void answer could not be read: ${snippet(response)}`),
        };
      if (result.voided) return { status: 'ok' };
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `UPS did not void ${id}: ${result.description ?? 'no reason given'}`),
      };
    }
    const errors = errorsOf(body);
    if (response.status >= 400 && response.status < 500 && errors.length > 0) {
      return { status: 'error', retryable: false, message: this.say(context, `UPS refused to void ${id}: ${describeMessages(errors)}`) };
    }
    return {
      status: 'error',
      retryable: response.status >= 500,
      message: this.say(context, `UPS's void answer could not be read (HTTP ${response.status}): ${snippet(response)}`),
    };
  }

  async findBooking(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<FoundBooking> {
    const context = this.api.context(settings, options);
    if (!isContext(context)) return context;
    const account = String(context.settings.account_number ?? '');
    if (!/^[A-Za-z0-9]{6}$/.test(account)) {
      return {
        status: 'error',
        retryable: false,
        message: 'The UPS configuration has no account number (settings.account_number) to look the booking up with.',
      };
    }
    const format = labelFormatOf(request, context.settings);
    const byReference = await this.recover(context, recoveryByReference(request.booking_reference, account, format));
    if (byReference.status !== 'ok') return byReference;
    const found = byReference.recovered;
    const packages = new Map(found.packages.map((pkg) => [pkg.trackingNumber, pkg]));
    // By reference UPS may list the packages carrying it instead of their labels: each is asked by number.
    for (const candidate of found.candidates) {
      if (packages.has(candidate)) continue;
      const byNumber = await this.recover(context, recoveryByTrackingNumber(candidate, format));
      if (byNumber.status === 'not_found') continue;
      if (byNumber.status !== 'ok') return byNumber;
      for (const pkg of byNumber.recovered.packages) packages.set(pkg.trackingNumber, pkg);
      found.shipmentId ??= byNumber.recovered.shipmentId;
    }
    if (packages.size === 0) return { status: 'not_found' };
    const list = [...packages.values()];
    const shipmentId = found.shipmentId ?? list[0].trackingNumber;
    // UPS's order, the lead package (the shipment's number) first as in a ship answer.
    list.sort((a, b) => Number(b.trackingNumber === shipmentId) - Number(a.trackingNumber === shipmentId));
    const result = await this.shipment(
      { shipmentId, packages: list, forms: [], charges: null, negotiatedCharges: null, billingWeight: null, alerts: [] },
      request,
      format,
      { recovered: true },
    );
    if ('error' in result)
      return {
        status: 'error',
        retryable: false,
        message: this.say(context, `UPS's label for ${shipmentId} could not be converted: ${result.error}`),
      };
    return { status: 'found', result };
  }

  /** One Label Recovery call: the labels or candidates found, not found, or why UPS could not say. */
  private async recover(
    context: CallContext,
    body: unknown,
  ): Promise<{ status: 'ok'; recovered: NonNullable<ReturnType<typeof readRecovery>> } | { status: 'not_found' } | CarrierError> {
    const response = await this.api.send(context, {
      method: 'POST',
      path: `/api/labels/${RECOVERY_VERSION}/recovery`,
      body,
      retry: true,
      maxBytes: LABEL_ANSWER_BYTES,
    });
    if ('retryable' in response) return response;
    const json = response.json();
    if (response.status === 200) {
      const recovered = readRecovery(json);
      return recovered
        ? { status: 'ok', recovered }
        : {
            status: 'error',
            retryable: true,
            message: this.say(context, `UPS's label recovery answer could not be read: ${snippet(response)}`),
          };
    }
    const errors = errorsOf(json);
    if ((response.status === 400 || response.status === 404) && errors.length > 0 && saysNotFound(errors)) return { status: 'not_found' };
    // Any other refusal is no answer to "was it booked?": the lookup is asked again later.
    return {
      status: 'error',
      retryable: true,
      message: this.say(
        context,
        `UPS did not look the booking up (HTTP ${response.status}): ${errors.length > 0 ? describeMessages(errors) : snippet(response)}`,
      ),
    };
  }

  /**
   * A booking UPS made: its labels converted. A label that cannot be converted leaves the merchant nothing to
   * print, so the shipment is voided at UPS and the booking refused.
   */
  private async booked(result: UpsShipResult, request: BookRequest, context: CallContext, format: LabelFormat): Promise<BookResult> {
    const shipment = await this.shipment(result, request, format, {});
    if (!('error' in shipment)) return shipment;
    const voided = await this.cancel(result.shipmentId, context.settings, { now: context.now, signal: context.signal });
    return {
      status: 'error',
      retryable: false,
      message: this.say(
        context,
        `UPS booked ${result.shipmentId} but its label could not be converted (${shipment.error}); ${
          voided.status === 'ok' ? 'the shipment was voided at UPS' : `voiding it failed (${voided.message}): void it in UPS's portal`
        }.`,
      ),
    };
  }

  private async shipment(
    result: UpsShipResult,
    request: BookRequest,
    format: LabelFormat,
    extra: Record<string, unknown>,
  ): Promise<BookedShipment | { error: string }> {
    let labels: BookedShipment['labels'];
    try {
      labels = await bookedLabels(result.packages, result.forms, format);
    } catch (error) {
      return { error: (error as Error).message };
    }
    const packages: UpsPackageResult[] = result.packages;
    return {
      status: 'ok',
      tracking_number: packages[0].trackingNumber,
      carrier_shipment_identifier: result.shipmentId,
      shipping_service: request.shipping_service ?? '',
      labels,
      parcel_tracking_numbers: packages.map((pkg) => pkg.trackingNumber),
      carrier_additional_info: {
        shipment_identification_number: result.shipmentId,
        booking_reference: request.booking_reference,
        label_format: format,
        ...(result.charges ? { total_charges: { amount: Number(result.charges.amount), currency: result.charges.currency } } : {}),
        ...(result.negotiatedCharges
          ? { negotiated_charges: { amount: Number(result.negotiatedCharges.amount), currency: result.negotiatedCharges.currency } }
          : {}),
        ...(result.billingWeight ? { billing_weight: result.billingWeight } : {}),
        ...(result.alerts.length > 0 ? { alerts: result.alerts.map(alertText) } : {}),
        ...extra,
      },
    };
  }

  /** The transport's failure: a call that may have reached UPS without its answer is `outcome_unknown`. */
  private notAnswered(error: CarrierError): BookingError {
    if (unanswered(error) || MAYBE_BOOKED.includes(answeredStatus(error) ?? 0)) {
      return { ...error, retryable: true, outcome_unknown: true, message: `${error.message}; UPS may have booked the shipment` };
    }
    return error;
  }

  private say(context: CallContext, message: string): string {
    return redact(message, context.secrets);
  }
}

function alertText(alert: UpsMessage): string {
  return [alert.code, alert.message].filter(Boolean).join(': ');
}

function snippet(response: CarrierResponse): string {
  const line = response.text().replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || '(empty body)';
}

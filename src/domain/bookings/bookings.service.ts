import { randomUUID } from 'node:crypto';
import { type BookingCapable, type BookingError, type BookRequest, canBook } from '../../carriers/booking.js';
import type { CarrierAdapter } from '../../carriers/carrier.js';
import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Clock } from '../../clock.js';
import type { CarrierWait } from '../../core/carrier-wait.js';
import type { PudoLocation } from '../../core/pudo-location.js';
import { RETURN_STATUS } from '../../core/return-status.js';
import { SHIPMENT_STATUS } from '../../core/shipment-status.js';
import type { BookingRow } from '../../db/repositories/bookings.repository.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { Caller } from '../auth.service.js';
import type { CarrierConfigsService } from '../carrier-configs.service.js';
import { DomainError, FeatureNotEnabledError, FieldErrorCollector, ValidationError } from '../errors.js';
import type { PudoService } from '../pudo/pudo.service.js';
import { findShipment, type ShipmentIdentifier } from '../shipments/shipment-identifier.js';
import type { BookingCompletion, BookingInProgress, BookingView } from './booking-completion.js';
import { bookingReference, bookRequestFor } from './booking-request.js';

/** Kept between the end of a booking call and the end of its reservation's lease. */
const LEASE_MARGIN_MS = 5_000;
/** How long a booking request waits for the carrier to look up a booking whose answer was lost. */
const LOOKUP_TIMEOUT_MS = 15_000;
/** When the job asks the carrier again about a booking whose answer was lost: "not found" is an answer by then. */
export const RECONCILE_AFTER_MS = 60_000;

export interface BookingInput extends ShipmentIdentifier {
  carrier_reference?: string;
  pudo_location_uuid?: string;
  carrier_metadata?: Record<string, unknown>;
}

/** The carrier could not be reached; nothing was booked and the request may be retried. */
export class CarrierUnavailableError extends DomainError {
  constructor(message: string) {
    super('unavailable', message);
  }
}

/** A booking checked and reserved, about to be sent to the carrier. */
interface Prepared extends BookingInProgress {
  adapter: CarrierAdapter & BookingCapable;
  request: BookRequest;
  /** Chosen before the request is built: the booking reference the carrier stores is made from it. */
  bookingUuid: string;
}

/** A booking made: its labels ready, or one the carrier delivers later (rendered by a job, announced when ready). */
export type BookingOutcome = { kind: 'booked'; booking: BookingView } | { kind: 'label_pending'; booking: BookingView };

/**
 * POST /v5/booking/ as a workflow that undoes itself: record the booking (which reserves the shipment),
 * ask the carrier, then store what it returned — or remove the record if the carrier refused or failed,
 * so nothing half-booked remains.
 */
export class BookingsService {
  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly carrierConfigs: CarrierConfigsService,
    private readonly pudo: PudoService,
    private readonly completion: BookingCompletion,
    private readonly clock: Clock,
    /** A booking left half-done by a crash is given up after this long, so the shipment can be booked again. */
    private readonly staleBookingMs: number,
  ) {}

  /**
   * Books the shipment with its carrier. The booking call may take what `wait` leaves less the time kept to ask
   * the carrier whether it booked when the answer is lost; past it the call counts as such an answer.
   */
  async book(caller: Caller, input: BookingInput, wait: CarrierWait): Promise<BookingOutcome> {
    if (!caller.features.has('booking')) throw new FeatureNotEnabledError('booking');
    const prepared = await this.prepare(caller, input, wait);
    const { adapter, settings, request } = prepared;

    // Within the request's wait, and within the reservation's lease: past the lease, a second request would take
    // the reservation as left by a crash and could book the shipment while this call still waits.
    const withinLease = Math.max(1_000, this.staleBookingMs - wait.lookupMs - LEASE_MARGIN_MS);
    const result = await adapter.book(request, settings, { now: this.clock.now(), signal: wait.signal(withinLease, wait.lookupMs) });
    if (result.status === 'error' && result.outcome_unknown) return this.answerLost(prepared, result.message, wait);
    if (result.status === 'error') {
      await this.repos.bookings.delete(prepared.booking.id);
      if (result.retryable)
        throw new CarrierUnavailableError(`The carrier did not answer (${result.message}); nothing was booked. Try again.`);
      throw new ValidationError(carrierErrors(result).result());
    }
    // A booking that cannot be finished is voided with what the request may still wait.
    const done = await this.completion.finish({ ...prepared, voidSignal: () => wait.signal(Infinity) }, result);
    return { kind: done.pending ? 'label_pending' : 'booked', booking: done.booking };
  }

  /**
   * The booking call was sent and no answer came: the carrier may have booked. Booking again could book
   * twice, so the carrier is asked first (`findBooking`). Only a booking found now is trusted; a carrier that
   * has not found it yet may still be writing it, so the reservation stays (`unknown`) and a job asks again
   * a minute later, when "not found" is an answer. Without a lookup the reservation stays until the merchant
   * releases it (POST /v5/booking/cancel/).
   */
  private async answerLost(prepared: Prepared, message: string, wait: CarrierWait): Promise<BookingOutcome> {
    const { adapter, settings, request, booking } = prepared;
    if (adapter.findBooking) {
      const found = await adapter
        .findBooking(request, settings, { now: this.clock.now(), signal: wait.signal(LOOKUP_TIMEOUT_MS) })
        .catch((error: Error) => ({ status: 'error' as const, retryable: true, message: error.message }));
      if (found.status === 'found') {
        const done = await this.completion.finish({ ...prepared, voidSignal: () => wait.signal(Infinity) }, found.result);
        return { kind: done.pending ? 'label_pending' : 'booked', booking: done.booking };
      }
    }
    await this.markUnknown(booking, request, adapter);
    const error = new CarrierUnavailableError(
      adapter.findBooking
        ? `The carrier did not answer (${message}) and may have booked the shipment. Waybill asks the carrier again within ` +
            'a minute: if it booked, the booking and its labels appear on the shipment (webhook booking.created); if not, the ' +
            'shipment can be booked again. Until then it stays reserved.'
        : `The carrier did not answer (${message}) and may have booked the shipment; this carrier cannot be asked. Check the ` +
            "carrier's portal, then release the reservation with POST /v5/booking/cancel/ to book again.",
    );
    error.retryAfterSeconds = Math.ceil(RECONCILE_AFTER_MS / 1000);
    throw error;
  }

  /** Checks everything and reserves the shipment by recording the booking; throws field errors otherwise. */
  private async prepare(caller: Caller, input: BookingInput, wait: CarrierWait): Promise<Prepared> {
    const checked = await this.check(caller, input);
    const booking = await this.reserve(caller, checked, checked.carrierReference, checked.carrierId, wait);
    return { ...checked, booking };
  }

  /**
   * POST /v5/booking/validate/: every check of a booking, and the carrier's own where it offers one (DHL's
   * validate mode), without booking or reserving anything.
   */
  async validate(
    caller: Caller,
    input: BookingInput,
    wait: CarrierWait,
  ): Promise<{ valid: true; carrier_checked: boolean; warnings: string[] }> {
    if (!caller.features.has('booking')) throw new FeatureNotEnabledError('booking');
    const { adapter, settings, request } = await this.check(caller, input);
    if (!adapter.validateBooking) return { valid: true, carrier_checked: false, warnings: [] };
    const result = await adapter.validateBooking(request, settings, { now: this.clock.now(), signal: wait.signal(LOOKUP_TIMEOUT_MS) });
    if (result.status === 'ok') return { valid: true, carrier_checked: true, warnings: result.warnings ?? [] };
    if (result.retryable) throw new CarrierUnavailableError(`The carrier did not answer (${result.message}). Try again.`);
    throw new ValidationError(carrierErrors(result).result());
  }

  /** Checks everything a booking needs; throws field errors otherwise. */
  private async check(
    caller: Caller,
    input: BookingInput,
  ): Promise<Omit<Prepared, 'booking'> & { carrierReference: string; carrierId: string }> {
    const errors = new FieldErrorCollector();
    const shipment = await findShipment(this.repos, caller.accountId, input).catch((error) => {
      if (error instanceof DomainError && error.code === 'not_found')
        throw ValidationError.at([input.shipment_uuid ? 'shipment_uuid' : 'shipment_id'], 'No shipment matches the identifier.');
      throw error;
    });
    const isReturn = shipment.shipment_type === 'return';
    const closed: string[] = [SHIPMENT_STATUS.delivered, SHIPMENT_STATUS.expired, SHIPMENT_STATUS.inactive];
    if (closed.includes(shipment.status))
      errors.add(['shipment_uuid'], `The shipment is ${shipment.status}; only open shipments can be booked.`);

    const requested = input.carrier_reference;
    if (requested !== undefined && shipment.carrier_reference && requested !== shipment.carrier_reference) {
      errors.add(
        ['carrier_reference'],
        `The shipment is set up for carrier_reference "${shipment.carrier_reference}"; book with that one or change the shipment first.`,
      );
    }
    const reference = requested ?? shipment.carrier_reference;
    const config = reference ? await this.carrierConfigs.resolve(caller.accountId, reference) : undefined;
    const adapter = config ? this.carriers.get(config.carrier_id) : undefined;
    if (!reference) errors.add(['carrier_reference'], 'The shipment has no carrier_reference; give one.');
    else if (!config) errors.add(['carrier_reference'], `carrier_reference "${reference}" is not defined in this account.`);
    else if (!adapter || !canBook(adapter) || !adapter.capabilities.booking)
      errors.add(['carrier_reference'], 'This carrier cannot book shipments.');
    else if (isReturn ? config.booking_return !== 1 : config.booking_outbound !== 1) {
      errors.add(
        ['carrier_reference'],
        `carrier_reference "${reference}" is not enabled for ${isReturn ? 'return' : 'outbound'} bookings.`,
      );
    }
    if (isReturn) {
      const ticket = await this.repos.returns.findByShipment(shipment.id);
      if (ticket && ticket.status !== RETURN_STATUS.approved) {
        errors.add(['shipment_uuid'], `The return must be approved before its label is booked (return_status: ${ticket.status}).`);
      }
    }
    let pudo: PudoLocation | null = null;
    if (input.pudo_location_uuid && config) {
      pudo = await this.pudo.find(config.carrier_id, input.pudo_location_uuid);
      if (!pudo) errors.add(['pudo_location_uuid'], 'No pick-up/drop-off location of this carrier has this uuid.');
    }
    errors.throwIfAny();

    const bookable = adapter as CarrierAdapter & BookingCapable;
    const settings = config!.settings;
    const bookingUuid = randomUUID();
    const { parcels: _parcels, ...carrierMetadata } = input.carrier_metadata ?? {};
    const request = bookRequestFor(shipment, {
      pudo,
      carrierMetadata,
      rawParcels: input.carrier_metadata?.parcels,
      now: this.clock.now(),
      bookingUuid,
      errors,
    });
    const maxParcels = bookable.maxParcels ?? 1;
    if (request.parcels.length > maxParcels)
      errors.add(['carrier_metadata', 'parcels'], `This carrier books at most ${maxParcels} parcel${maxParcels === 1 ? '' : 's'} at once.`);
    for (const fieldError of bookable.checkBooking(request, settings)) errors.add(fieldError.path, fieldError.message);
    errors.throwIfAny();

    return {
      shipment,
      adapter: bookable,
      settings,
      request,
      pudo,
      bookingUuid,
      carrierReference: config!.carrier_reference,
      carrierId: config!.carrier_id,
    };
  }

  private async reserve(
    caller: Caller,
    progress: Omit<Prepared, 'booking'>,
    carrierReference: string,
    carrierId: string,
    wait: CarrierWait,
  ): Promise<BookingRow> {
    const { shipment, pudo, request } = progress;
    const now = this.clock.now();
    const row = {
      account_id: caller.accountId,
      booking_uuid: progress.bookingUuid,
      shipment_row_id: shipment.id,
      carrier_reference: carrierReference,
      carrier_id: carrierId,
      status: 'booking',
      type_of_shipment: request.type_of_shipment,
      pudo_location_uuid: pudo?.pudo_location_uuid ?? null,
      carrier_additional_info: '{}',
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    const reserved = await this.repos.bookings.insertIfNone(row);
    if (reserved) return reserved;
    const existing = await this.repos.bookings.findByShipment(shipment.id);
    const age = existing ? now.getTime() - new Date(existing.created_at).getTime() : 0;
    if (existing && existing.status === 'booking' && age > this.staleBookingMs) {
      // Its process is gone, perhaps in the middle of the carrier's call: book again only if the carrier says it did not book.
      if (await this.settleStale(existing, progress, wait)) {
        const retried = await this.repos.bookings.insertIfNone(row);
        if (retried) return retried;
      }
      return this.reserve(caller, progress, carrierReference, carrierId, wait);
    }
    if (existing?.status === 'unknown') {
      const error = ValidationError.at(
        ['shipment_uuid'],
        progress.adapter.findBooking
          ? 'An earlier booking of this shipment got no answer from the carrier; Waybill is asking the carrier whether it booked.'
          : 'An earlier booking of this shipment got no answer from the carrier, which may have booked it; release it with ' +
              'POST /v5/booking/cancel/ to book again.',
      );
      if (progress.adapter.findBooking) error.retryAfterSeconds = Math.ceil(RECONCILE_AFTER_MS / 1000);
      throw error;
    }
    if (existing?.status === 'booking') {
      // Passing: it completes, fails, or (its process gone) goes stale, so the same request may succeed later.
      const error = ValidationError.at(['shipment_uuid'], 'The shipment is being booked right now.');
      error.retryAfterSeconds = Math.max(1, Math.ceil((this.staleBookingMs - age) / 1000));
      throw error;
    }
    throw ValidationError.at(['shipment_uuid'], 'The shipment is already booked.');
  }

  /**
   * A reservation whose process died: released when the carrier says it did not book (`true`); completed
   * when it did; kept as `unknown` when the carrier cannot say (no lookup, or the lookup failed).
   */
  private async settleStale(stale: BookingRow, progress: Omit<Prepared, 'booking'>, wait: CarrierWait): Promise<boolean> {
    const { adapter, settings } = progress;
    const request = { ...progress.request, booking_reference: bookingReference(stale.booking_uuid) };
    const found = adapter.findBooking
      ? await adapter
          .findBooking(request, settings, { now: this.clock.now(), signal: wait.signal(LOOKUP_TIMEOUT_MS) })
          .catch((error: Error) => ({ status: 'error' as const, retryable: true, message: error.message }))
      : null;
    if (found?.status === 'not_found') {
      await this.repos.bookings.delete(stale.id);
      return true;
    }
    if (found?.status === 'found') {
      await this.completion.finish({ ...progress, booking: stale, voidSignal: () => wait.signal(Infinity) }, found.result);
      return false;
    }
    await this.markUnknown(stale, request, adapter);
    return false;
  }

  /** The carrier may have booked: the reservation stays, and a job asks the carrier (when it can be asked). */
  private markUnknown(booking: BookingRow, request: BookRequest, adapter: BookingCapable): Promise<void> {
    const now = this.clock.now();
    return this.repos.transaction(async (repos) => {
      await repos.bookings.update(booking.id, {
        status: 'unknown',
        carrier_additional_info: JSON.stringify({ booking_reference: request.booking_reference }),
        updated_at: now.toISOString(),
      });
      if (!adapter.findBooking) return;
      await repos.jobs.enqueue(
        'booking.reconcile',
        { booking_row_id: booking.id, request },
        { now: now.toISOString(), accountId: booking.account_id, runAt: new Date(now.getTime() + RECONCILE_AFTER_MS).toISOString() },
      );
    });
  }
}

/** A carrier's refusal as field errors: its own, mapped to our fields, or its message on `carrier_reference`. */
function carrierErrors(result: BookingError): FieldErrorCollector {
  const errors = new FieldErrorCollector();
  for (const fieldError of result.field_errors ?? []) errors.add(fieldError.path, fieldError.message);
  if (errors.empty) errors.add(['carrier_reference'], `The carrier refused the booking: ${result.message}`);
  return errors;
}

import { canBook } from '../../carriers/booking.js';
import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Clock } from '../../clock.js';
import type { CarrierWait } from '../../core/carrier-wait.js';
import type { BookingRow } from '../../db/repositories/bookings.repository.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { FileStore } from '../../documents/file-store.js';
import type { Caller } from '../auth.service.js';
import type { CarrierConfigsService } from '../carrier-configs.service.js';
import { DomainError, FeatureNotEnabledError, ValidationError } from '../errors.js';
import type { ReturnsService } from '../returns/returns.service.js';
import { findShipment, type ShipmentIdentifier } from '../shipments/shipment-identifier.js';
import type { EventSink } from '../webhooks/webhook-outbox.js';
import { bookingView } from './booking.presenter.js';

export interface CancelBookingInput extends ShipmentIdentifier {
  booking_uuid?: string;
}

/** The longest a cancellation waits for the carrier, within what the request may wait. */
const CANCEL_TIMEOUT_MS = 30_000;

/** The cancelled booking as POST /v5/booking/cancel/ answers it: status `cancelled`, no documents. */
export type CancelledBooking = ReturnType<typeof bookingView<never>>;

/** The carrier could not be reached to void the booking; nothing changed, the request may be retried. */
export class CancelUnavailableError extends DomainError {
  constructor(message: string) {
    super('unavailable', message);
  }
}

/**
 * POST /v5/booking/cancel/: voids a booking at the carrier, then frees the shipment to be booked again —
 * its labels removed (a voided label must not be printed), its tracking number cleared, a return's ticket
 * back to `approved` — and announces `booking.cancelled`. A booking whose carrier never answered
 * (`unknown`) is released without asking the carrier. Cancelling again answers the same cancelled booking.
 */
export class BookingCancellations {
  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly carrierConfigs: CarrierConfigsService,
    private readonly files: FileStore,
    private readonly returns: ReturnsService,
    private readonly events: EventSink,
    private readonly clock: Clock,
  ) {}

  async cancel(caller: Caller, input: CancelBookingInput, wait: CarrierWait): Promise<CancelledBooking> {
    if (!caller.features.has('booking')) throw new FeatureNotEnabledError('booking');
    const { booking, shipment, field } = await this.locate(caller, input);
    if (!booking) return this.cancelledBefore(caller, input, shipment, field);
    if (booking.status === 'booking') {
      const error = ValidationError.at([field], 'The shipment is being booked right now; cancel it when the booking is done.');
      error.retryAfterSeconds = 5;
      throw error;
    }
    if (booking.status === 'booked') await this.voidAtCarrier(booking, field, wait);
    const now = this.clock.now().toISOString();
    const cancelled = { ...booking, status: 'cancelled', updated_at: now };
    const view = bookingView<never>(cancelled, shipment, [], null);
    const documents = await this.repos.documents.listForBooking(booking.id);
    const archived = await this.repos.transaction(async (repos) => {
      if (!(await repos.bookings.archive(cancelled, booking.status, booking.status === 'booked' ? 'voided' : 'released', now)))
        return false;
      if (booking.status === 'booked' && shipment.tracking_number === booking.tracking_number) {
        await repos.shipments.update(shipment.id, {
          tracking_number: null,
          tracking_started_at: null,
          next_poll_at: null,
          push_subscribed_until: null,
          push_retry_at: null,
          updated_at: now,
          ...(booking.pudo_location_uuid ? { collection_point: null } : {}),
        });
      }
      if (shipment.shipment_type === 'return') await this.returns.releaseBooking(repos, shipment, now);
      await this.events.emit(repos, {
        accountId: booking.account_id,
        type: 'booking.cancelled',
        shipmentRowId: shipment.id,
        refs: { cancelled_booking: view },
      });
      return true;
    });
    // A cancellation that ran at the same time archived it first (or a lost answer's booking was settled): answer what it left.
    if (!archived) return this.cancel(caller, { booking_uuid: booking.booking_uuid }, wait);
    // The rows went with the booking; their bytes are removed after the commit (left behind, they are only unused).
    for (const document of documents) if (document.file_key) await this.files.delete(document.file_key).catch(() => false);
    return view;
  }

  private async locate(
    caller: Caller,
    input: CancelBookingInput,
  ): Promise<{ booking: BookingRow | undefined; shipment: ShipmentRow; field: string }> {
    if (input.booking_uuid) {
      const booking = await this.repos.bookings.findByUuid(caller.accountId, input.booking_uuid);
      const shipmentRowId =
        booking?.shipment_row_id ?? (await this.repos.bookings.findCancelled(caller.accountId, input.booking_uuid))?.shipment_row_id;
      const shipment = shipmentRowId !== undefined ? await this.repos.shipments.findById(shipmentRowId) : undefined;
      if (!shipment) throw ValidationError.at(['booking_uuid'], 'No booking of this account has this booking_uuid.');
      // The shipment named beside the booking must be the booking's: cancelling another shipment's booking is refused.
      for (const [field, named, own] of [
        ['shipment_uuid', input.shipment_uuid?.toLowerCase(), shipment.shipment_uuid],
        ['shipment_id', input.shipment_id, shipment.shipment_id],
      ] as const) {
        if (named !== undefined && named !== own) throw ValidationError.at([field], `booking_uuid and ${field} name different shipments.`);
      }
      return { booking, shipment, field: 'booking_uuid' };
    }
    const field = input.shipment_uuid ? 'shipment_uuid' : 'shipment_id';
    const shipment = await findShipment(this.repos, caller.accountId, input).catch((error) => {
      if (error instanceof DomainError && error.code === 'not_found')
        throw ValidationError.at([field], 'No shipment matches the identifier.');
      throw error;
    });
    return { booking: await this.repos.bookings.findByShipment(shipment.id), shipment, field };
  }

  /** A cancellation asked again answers what the first one did (by shipment: its latest); a shipment never booked is an error. */
  private async cancelledBefore(
    caller: Caller,
    input: CancelBookingInput,
    shipment: ShipmentRow,
    field: string,
  ): Promise<CancelledBooking> {
    const archived = input.booking_uuid
      ? await this.repos.bookings.findCancelled(caller.accountId, input.booking_uuid)
      : await this.repos.bookings.latestCancelledOf(shipment.id);
    if (archived) return bookingView<never>(JSON.parse(archived.booking) as BookingRow, shipment, [], null);
    throw ValidationError.at([field], 'The shipment has no booking to cancel.');
  }

  private async voidAtCarrier(booking: BookingRow, field: string, wait: CarrierWait): Promise<void> {
    const config = await this.carrierConfigs.resolve(booking.account_id, booking.carrier_reference);
    const adapter = config ? this.carriers.get(config.carrier_id) : undefined;
    if (!config || !adapter || !canBook(adapter))
      throw ValidationError.at(
        [field],
        `carrier_reference "${booking.carrier_reference}" is no longer configured; the carrier cannot be asked to void the booking.`,
      );
    const result = await adapter.cancel(booking.carrier_shipment_identifier ?? '', config.settings, {
      now: this.clock.now(),
      signal: wait.signal(CANCEL_TIMEOUT_MS),
    });
    if (result.status === 'ok') return;
    if (result.retryable)
      throw new CancelUnavailableError(`The carrier did not answer (${result.message}); nothing was cancelled. Try again.`);
    throw ValidationError.at([field], `The carrier refused to cancel the booking: ${result.message}`);
  }
}

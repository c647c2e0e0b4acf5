import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { type BookedLabel, type BookingCapable, type BookResult, canBook } from '../../carriers/booking.js';
import type { CarrierAdapter } from '../../carriers/carrier.js';
import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Clock } from '../../clock.js';
import type { PudoLocation } from '../../core/pudo-location.js';
import { RETURN_STATUS } from '../../core/return-status.js';
import { SHIPMENT_STATUS } from '../../core/shipment-status.js';
import type { BookingRow } from '../../db/repositories/bookings.repository.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { FileStore } from '../../documents/file-store.js';
import { LABEL_CONTENT_TYPES } from '../../documents/label.types.js';
import type { LabelRenderer } from '../../documents/label-renderer.service.js';
import type { Caller } from '../auth.service.js';
import type { CarrierConfigsService } from '../carrier-configs.service.js';
import type { DocumentsService } from '../documents/documents.service.js';
import { DomainError, FeatureNotEnabledError, FieldErrorCollector, ValidationError } from '../errors.js';
import type { PudoService } from '../pudo/pudo.service.js';
import type { ReturnsService } from '../returns/returns.service.js';
import { findShipment, type ShipmentIdentifier } from '../shipments/shipment-identifier.js';
import type { EventSink } from '../webhooks/webhook-outbox.js';
import { bookingView } from './booking.presenter.js';
import { bookRequestFor } from './booking-request.js';

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

/** The booking as POST /v5/booking/ answers it: its documents with their content. */
type BookingView = ReturnType<typeof bookingView<Awaited<ReturnType<DocumentsService['withContent']>>>>;

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
    private readonly documents: DocumentsService,
    private readonly labels: LabelRenderer,
    private readonly files: FileStore,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** Records bookings of return shipments on their tickets. */
    private readonly returns: ReturnsService,
    /** Where bookings are announced (webhooks). */
    private readonly events: EventSink,
    /** A booking left half-done by a crash is given up after this long, so the shipment can be booked again. */
    private readonly staleBookingMs: number,
  ) {}

  async book(caller: Caller, input: BookingInput): Promise<BookingOutcome> {
    if (!caller.features.has('booking')) throw new FeatureNotEnabledError('booking');
    const prepared = await this.prepare(caller, input);
    const { shipment, adapter, settings, request, pudo } = prepared;

    const result = await adapter.book(request, settings, { now: this.clock.now() });
    if (result.status === 'error') {
      await this.repos.bookings.delete(prepared.booking.id);
      if (result.retryable)
        throw new CarrierUnavailableError(`The carrier did not answer (${result.message}); nothing was booked. Try again.`);
      const errors = new FieldErrorCollector();
      for (const fieldError of result.field_errors ?? []) errors.add(fieldError.path, fieldError.message);
      if (errors.empty) errors.add(['carrier_reference'], `The carrier refused the booking: ${result.message}`);
      throw new ValidationError(errors.result());
    }

    let documents: Awaited<ReturnType<BookingsService['storeLabels']>>;
    try {
      documents = await this.storeLabels(caller, shipment, prepared.booking, result.labels);
    } catch (error) {
      await this.undo(prepared.booking, adapter, result.carrier_shipment_identifier, settings);
      throw error;
    }
    const now = this.clock.now().toISOString();
    const booking = await this.complete(prepared, result, documents, pudo, now).catch(async (error) => {
      await this.undo(prepared.booking, adapter, result.carrier_shipment_identifier, settings);
      throw error;
    });
    const views = await Promise.all(documents.map((doc) => this.documents.withContent(doc.stored!)));
    const pending = documents.some((doc) => doc.pendingJob);
    return { kind: pending ? 'label_pending' : 'booked', booking: bookingView(booking, shipment, views, pudo) };
  }

  /** Stores what the carrier returned, the shipment's new tracking data, the documents and their jobs, in one transaction. */
  private complete(
    prepared: Awaited<ReturnType<BookingsService['prepare']>>,
    result: Extract<BookResult, { status: 'ok' }>,
    documents: Awaited<ReturnType<BookingsService['storeLabels']>>,
    pudo: PudoLocation | null,
    now: string,
  ): Promise<BookingRow> {
    const { shipment } = prepared;
    const accountId = shipment.account_id;
    return this.repos.transaction(async (repos) => {
      const booked = await repos.bookings.update(prepared.booking.id, {
        status: 'booked',
        shipping_service: result.shipping_service,
        carrier_shipment_identifier: result.carrier_shipment_identifier,
        tracking_number: result.tracking_number,
        carrier_additional_info: JSON.stringify(result.carrier_additional_info),
        updated_at: now,
      });
      await repos.shipments.update(shipment.id, {
        tracking_number: result.tracking_number,
        carrier_reference: booked.carrier_reference,
        carrier_id: booked.carrier_id,
        tracking_started_at: now,
        next_poll_at: now,
        last_tracking_update_at: now,
        poll_failures: 0,
        push_subscribed_until: null,
        push_retry_at: null,
        updated_at: now,
        ...(pudo ? { collection_point: JSON.stringify(collectionPoint(pudo, now)) } : {}),
      });
      for (const doc of documents) {
        const row = await repos.documents.insert(doc.row);
        doc.stored = row;
        if (doc.pendingJob) {
          await repos.jobs.enqueue(
            'label.render',
            { document_row_id: row.id, ...doc.pendingJob.payload },
            { now, accountId, runAt: doc.pendingJob.runAt },
          );
        }
      }
      if (shipment.shipment_type === 'return') await this.returns.recordBooking(repos, shipment, booked.booking_uuid, now);
      await this.events.emit(repos, {
        accountId,
        type: 'booking.created',
        shipmentRowId: shipment.id,
        refs: { booking_row_id: booked.id },
      });
      return booked;
    });
  }

  /** Checks everything and reserves the shipment by recording the booking; throws field errors otherwise. */
  private async prepare(caller: Caller, input: BookingInput) {
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

    const booking = await this.reserve(
      caller,
      shipment,
      bookingUuid,
      config!.carrier_reference,
      config!.carrier_id,
      request.type_of_shipment,
      pudo,
    );
    return { shipment, adapter: bookable, settings, request, pudo, booking };
  }

  private async reserve(
    caller: Caller,
    shipment: ShipmentRow,
    bookingUuid: string,
    carrierReference: string,
    carrierId: string,
    type: string,
    pudo: PudoLocation | null,
  ): Promise<BookingRow> {
    const now = this.clock.now();
    const row = {
      account_id: caller.accountId,
      booking_uuid: bookingUuid,
      shipment_row_id: shipment.id,
      carrier_reference: carrierReference,
      carrier_id: carrierId,
      status: 'booking',
      type_of_shipment: type,
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
      await this.repos.bookings.delete(existing.id);
      const retried = await this.repos.bookings.insertIfNone(row);
      if (retried) return retried;
    }
    if (existing?.status === 'booking') {
      // Passing: it completes, fails, or (its process gone) goes stale, so the same request may succeed later.
      const error = ValidationError.at(['shipment_uuid'], 'The shipment is being booked right now.');
      error.retryAfterSeconds = Math.max(1, Math.ceil((this.staleBookingMs - age) / 1000));
      throw error;
    }
    throw ValidationError.at(['shipment_uuid'], 'The shipment is already booked.');
  }

  /** Renders or stores each label now, or prepares the job that fetches a late one. */
  private async storeLabels(caller: Caller, shipment: ShipmentRow, booking: BookingRow, labels: BookedLabel[]) {
    const now = this.clock.now();
    return Promise.all(
      labels.map(async (label, index) => {
        const documentUuid = randomUUID();
        const late = (label.ready_after_seconds ?? 0) > 0;
        let fileKey: string | null = null;
        if (!late) {
          const bytes = label.kind === 'file' ? label.bytes : (await this.labels.render(label.input, label.format)).bytes;
          fileKey = `documents/${documentUuid}.${label.format}`;
          await this.files.put(fileKey, bytes, LABEL_CONTENT_TYPES[label.format]);
        }
        return {
          row: {
            account_id: caller.accountId,
            document_uuid: documentUuid,
            shipment_row_id: shipment.id,
            booking_row_id: booking.id,
            document_id: `label-${shipment.shipment_id}-${index + 1}`,
            name: `Shipping label ${shipment.shipment_id}`,
            type: 'label',
            file_format: label.format,
            content_type: LABEL_CONTENT_TYPES[label.format],
            file_key: fileKey,
            status: late ? 'pending' : 'ready',
            additional_info: '{}',
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
          },
          pendingJob: late
            ? {
                runAt: new Date(now.getTime() + (label.ready_after_seconds ?? 0) * 1000).toISOString(),
                payload: label.kind === 'render' ? { render: label.input, format: label.format } : { format: label.format },
              }
            : null,
          stored: null as null | Awaited<ReturnType<Repositories['documents']['insert']>>,
        };
      }),
    );
  }

  private async undo(
    booking: BookingRow,
    adapter: BookingCapable,
    carrierShipmentIdentifier: string,
    settings: Record<string, unknown>,
  ): Promise<void> {
    const cancelled = await adapter.cancel(carrierShipmentIdentifier, settings);
    if (cancelled.status === 'error')
      this.log.error({ booking_uuid: booking.booking_uuid, error: cancelled.message }, 'cancelling an unfinished booking failed');
    await this.repos.bookings.delete(booking.id);
  }
}

function collectionPoint(pudo: PudoLocation, now: string) {
  const { company: _c, ...address } = pudo.address as unknown as Record<string, unknown>;
  return {
    uuid: pudo.pudo_location_uuid,
    collection_point_identifier: pudo.pudo_location_id,
    address,
    status: 'active',
    lat: pudo.lat,
    lng: pudo.lng,
    operating_hours_calc: pudo.operating_hours_calc,
    additional_info: pudo.additional_info,
    updated_date: now,
  };
}

import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { BookedLabel, BookedShipment, BookingCapable } from '../../carriers/booking.js';
import type { CarrierSettings } from '../../carriers/carrier.js';
import type { Clock } from '../../clock.js';
import type { PudoLocation } from '../../core/pudo-location.js';
import type { BookingRow } from '../../db/repositories/bookings.repository.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { FileStore } from '../../documents/file-store.js';
import { LABEL_CONTENT_TYPES } from '../../documents/label.types.js';
import type { LabelRenderer } from '../../documents/label-renderer.service.js';
import type { DocumentsService } from '../documents/documents.service.js';
import type { ReturnsService } from '../returns/returns.service.js';
import { forgetCarrierOfRecord } from '../shipments/carrier-of-record.js';
import { withDetectionNote } from '../shipments/tracking-detection.js';
import type { TrackingStops } from '../shipments/tracking-stops.js';
import type { EventSink } from '../webhooks/webhook-outbox.js';
import { bookingView } from './booking.presenter.js';

/** A booking recorded (the shipment reserved) whose carrier has booked: what is needed to store the result. */
export interface BookingInProgress {
  booking: BookingRow;
  shipment: ShipmentRow;
  adapter: BookingCapable;
  settings: CarrierSettings;
  pudo: PudoLocation | null;
  /**
   * The deadline of the void that undoes a booking which could not be finished, made when the void starts: a
   * request's gives it what the request may still wait on the carrier; without one, VOID_TIMEOUT_MS.
   */
  voidSignal?: () => AbortSignal;
}

/** The longest a void of an unfinished booking waits for the carrier outside a request (the reconcile job). */
const VOID_TIMEOUT_MS = 30_000;

/** The booking as POST /v5/booking/ answers it: its documents with their content. */
export type BookingView = ReturnType<typeof bookingView<Awaited<ReturnType<DocumentsService['withContent']>>>>;

type PreparedDocument = Awaited<ReturnType<BookingCompletion['storeLabels']>>[number];

/**
 * Stores what a carrier booked: the label files, then in one transaction the booking, the shipment's new
 * tracking data, the documents (and the jobs of labels that come later) and the webhook event. If storing
 * fails, the carrier's booking is voided and the reservation removed, so nothing half-booked remains.
 * Used by the booking request and by the job that finds a booking whose answer was lost.
 */
export class BookingCompletion {
  constructor(
    private readonly repos: Repositories,
    private readonly documents: DocumentsService,
    private readonly labels: LabelRenderer,
    private readonly files: FileStore,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly returns: ReturnsService,
    private readonly events: EventSink,
    /** Told when a booking replaces the number or carrier an aggregator followed, in the same transaction. */
    private readonly stops: TrackingStops,
  ) {}

  async finish(progress: BookingInProgress, result: BookedShipment): Promise<{ booking: BookingView; pending: boolean }> {
    const { shipment, pudo } = progress;
    let documents: PreparedDocument[];
    try {
      documents = await this.storeLabels(shipment, progress.booking, result.labels);
    } catch (error) {
      await this.undo(progress, result.carrier_shipment_identifier);
      throw error;
    }
    const now = this.clock.now().toISOString();
    const booking = await this.complete(progress, result, documents, now).catch(async (error) => {
      await this.undo(progress, result.carrier_shipment_identifier);
      throw error;
    });
    const views = await Promise.all(documents.map((doc) => this.documents.withContent(doc.stored!)));
    return { booking: bookingView(booking, shipment, views, pudo), pending: documents.some((doc) => doc.pendingJob) };
  }

  private complete(progress: BookingInProgress, result: BookedShipment, documents: PreparedDocument[], now: string): Promise<BookingRow> {
    const { shipment, pudo } = progress;
    const accountId = shipment.account_id;
    const info = {
      ...result.carrier_additional_info,
      ...(result.parcel_tracking_numbers && result.parcel_tracking_numbers.length > 1
        ? { parcel_tracking_numbers: result.parcel_tracking_numbers }
        : {}),
    };
    return this.repos.transaction(async (repos) => {
      // As it is now: the shipment may have been tracked with another number while the carrier booked.
      const current = (await repos.shipments.lock(shipment.id)) ?? shipment;
      const booked = await repos.bookings.update(progress.booking.id, {
        status: 'booked',
        shipping_service: result.shipping_service,
        carrier_shipment_identifier: result.carrier_shipment_identifier,
        tracking_number: result.tracking_number,
        carrier_additional_info: JSON.stringify(info),
        updated_at: now,
      });
      const trackingChanged = result.tracking_number !== current.tracking_number || booked.carrier_reference !== current.carrier_reference;
      const body = JSON.parse(current.body) as Record<string, unknown>;
      if (trackingChanged) {
        // As a new number given by update: an aggregator's courier belonged to the old number, whose tracking ends.
        forgetCarrierOfRecord(body);
        if (current.next_poll_at !== null) await this.stops.queue(repos, current, now);
      }
      // The booked number is tracked with the booking's carrier: no note of detection explains it any more.
      const custom = withDetectionNote(body.additional_info as Record<string, unknown> | undefined, null, undefined);
      if (Object.keys(custom).length > 0) body.additional_info = custom;
      else delete body.additional_info;
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
        body: JSON.stringify(body),
        ...(trackingChanged ? { tracking_digest: null, tracking_fingerprint: null } : {}),
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

  /** Renders or stores each document now, or prepares the job that fetches a late one. */
  private storeLabels(shipment: ShipmentRow, booking: BookingRow, labels: BookedLabel[]) {
    const now = this.clock.now();
    const parcels = new Set(labels.filter((l) => (l.document_type ?? 'label') === 'label').map((l) => l.parcel_index ?? 0)).size;
    const counts = { label: 0, customs_declaration: 0 };
    return Promise.all(
      labels.map(async (label) => {
        const type = label.document_type ?? 'label';
        const number = ++counts[type];
        const documentUuid = randomUUID();
        const late = (label.ready_after_seconds ?? 0) > 0;
        let fileKey: string | null = null;
        if (!late) {
          const bytes = label.kind === 'file' ? label.bytes : (await this.labels.render(label.input, label.format)).bytes;
          fileKey = `documents/${documentUuid}.${label.format}`;
          await this.files.put(fileKey, bytes, LABEL_CONTENT_TYPES[label.format]);
        }
        const parcel = label.parcel_index !== undefined && parcels > 1 ? ` (parcel ${label.parcel_index + 1} of ${parcels})` : '';
        const additional: Record<string, unknown> = {};
        if (label.parcel_index !== undefined && parcels > 1) additional.parcel_index = label.parcel_index;
        if (label.tracking_number) additional.tracking_number = label.tracking_number;
        return {
          row: {
            account_id: shipment.account_id,
            document_uuid: documentUuid,
            shipment_row_id: shipment.id,
            booking_row_id: booking.id,
            document_id: `${type === 'label' ? 'label' : 'customs'}-${shipment.shipment_id}-${number}`,
            name: `${type === 'label' ? 'Shipping label' : 'Customs declaration'} ${shipment.shipment_id}${type === 'label' ? parcel : ''}`,
            type,
            file_format: label.format,
            content_type: LABEL_CONTENT_TYPES[label.format],
            file_key: fileKey,
            status: late ? 'pending' : 'ready',
            additional_info: JSON.stringify(additional),
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

  /** Voids what the carrier booked and frees the shipment; best effort at the carrier. */
  async undo(progress: BookingInProgress, carrierShipmentIdentifier: string): Promise<void> {
    const { booking, adapter, settings } = progress;
    const signal = progress.voidSignal?.() ?? AbortSignal.timeout(VOID_TIMEOUT_MS);
    const cancelled = await adapter.cancel(carrierShipmentIdentifier, settings, { now: this.clock.now(), signal });
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

import type { EventRefs } from '../../core/webhook-types.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { WebhookEventRow } from '../../db/repositories/webhooks.repository.js';
import { bookingView } from '../bookings/booking.presenter.js';
import type { DocumentsService } from '../documents/documents.service.js';
import type { PudoService } from '../pudo/pudo.service.js';
import { fullTicketView } from '../returns/return.presenter.js';
import { shipmentObject } from '../shipments/rendered-shipment.js';
import type { ShapeVersion } from '../shipments/shipment.presenter.js';
import type { ShipmentReader } from '../shipments/shipment.reader.js';

/**
 * The body of a webhook: `{type, event_id, timestamp, sequence, data, …}` with the shipment in the
 * endpoint's format, plus the return ticket, booking or document the event is about.
 */
export class WebhookPayloads {
  constructor(
    private readonly repos: Repositories,
    private readonly reader: ShipmentReader,
    private readonly documents: DocumentsService,
    private readonly pudo: PudoService,
  ) {}

  async render(event: WebhookEventRow, format: ShapeVersion): Promise<string> {
    const shipment = event.shipment_row_id !== null ? await this.repos.webhooks.shipmentById(event.shipment_row_id) : undefined;
    const refs = JSON.parse(event.refs) as EventRefs;
    const body: Record<string, unknown> = {
      type: event.type,
      event_id: event.event_id,
      timestamp: event.created_at,
      sequence: event.sequence,
      data: shipment ? shipmentObject(await this.reader.render(shipment, format)) : null,
    };
    if (refs.return_ticket) body.return_ticket = refs.return_ticket;
    else if (refs.return_row_id !== undefined && shipment) {
      const ticket = await this.repos.webhooks.returnById(refs.return_row_id);
      if (ticket) body.return_ticket = fullTicketView(ticket, shipment.shipment_uuid);
    }
    if (refs.cancelled_booking) body.booking = refs.cancelled_booking;
    if (refs.booking_row_id !== undefined && shipment) {
      const booking = await this.repos.bookings.findById(refs.booking_row_id);
      if (booking) {
        const documents = await this.repos.documents.listForShipments([shipment.id]);
        const pudo = booking.pudo_location_uuid ? await this.pudo.find(booking.carrier_id, booking.pudo_location_uuid) : null;
        body.booking = bookingView(
          booking,
          shipment,
          documents.filter((d) => d.booking_row_id === booking.id).map((d) => this.documents.withUrl(d)),
          pudo,
        );
      }
    }
    if (refs.notification) body.notification = refs.notification;
    if (refs.document_row_id !== undefined) {
      const document = await this.repos.documents.findById(refs.document_row_id);
      if (document) body.document = this.documents.withUrl(document);
    }
    return JSON.stringify(body);
  }
}

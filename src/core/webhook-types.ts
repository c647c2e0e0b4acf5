/** The kinds of webhook events, and what each says. */
export const WEBHOOK_EVENT_TYPES = [
  'shipment.created',
  'shipment.updated',
  'shipment.delivered',
  'return.created',
  'return.updated',
  'booking.created',
  'booking.cancelled',
  'document.ready',
  'notification.sent',
  'notification.failed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Related records an event carries beside the shipment, by their row ids. */
export interface EventRefs {
  return_row_id?: number;
  booking_row_id?: number;
  document_row_id?: number;
  /** The return ticket as it was when the event happened (its state is what the event is about). */
  return_ticket?: Record<string, unknown>;
  /** A cancelled booking as it was answered (its row is archived). */
  cancelled_booking?: Record<string, unknown>;
  /** A consumer notification as it stood when it was sent or given up. */
  notification?: Record<string, unknown>;
}

/** A domain event as services announce it, inside the transaction of the change. */
export interface DomainEvent {
  accountId: number;
  type: WebhookEventType;
  shipmentRowId: number;
  refs?: EventRefs;
}

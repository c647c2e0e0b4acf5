import type { NotificationRow } from '../../db/repositories/notifications.repository.js';

/** A log entry as the API shows it: what was (or was not) sent, to whom, and why not. */
export function notificationView(row: NotificationRow, shipmentUuid: string) {
  return {
    notification_uuid: row.notification_uuid,
    shipment_uuid: shipmentUuid,
    trigger: row.trigger,
    channel: row.channel,
    recipient: row.recipient,
    language: row.language,
    status: row.status,
    reason: row.reason,
    message_id: row.channel === 'email' ? row.message_id : null,
    provider_message_id: row.provider_id,
    attempts: Number(row.attempts),
    event_date: row.event_at,
    created_date: row.created_at,
    updated_date: row.updated_at,
    sent_date: row.sent_at,
  };
}

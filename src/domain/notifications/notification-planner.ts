import { randomUUID } from 'node:crypto';
import type { Channel, Trigger } from '../../core/notification-triggers.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import { languageSourcesOfShipment, resolveLanguage } from '../../i18n/languages.js';
import type { NotificationSettingsService } from './notification-settings.js';
import { toE164 } from './sms/phone.js';

/** Tries of one message: the first, then after 1 min, 5 min, 25 min, 2 h, 10 h (temporary failures only). */
export const NOTIFICATION_MAX_ATTEMPTS = 6;

/** The domain at the end of a Message-ID: the sender's, or ours. */
function messageIdDomain(from: string | null): string {
  const match = from?.match(/@([A-Za-z0-9.-]+)>?\s*$/);
  return match ? match[1].toLowerCase() : 'waybill.invalid';
}

/**
 * Decides, in the transaction of a change, which messages it causes: one per channel the merchant turned on
 * for the trigger and per recipient on the shipment's notification lists. Each is written to the log with its
 * send job, under a key (shipment, trigger, channel, recipient) that lets it exist once, whatever repeats the
 * change. A change whose event is older than the account's limit, or a recipient who unsubscribed, is logged as
 * suppressed and sends nothing.
 */
export class NotificationPlanner {
  constructor(
    private readonly settings: NotificationSettingsService,
    private readonly senderAddress: string | null,
  ) {}

  async plan(
    repos: Repositories,
    shipment: ShipmentRow,
    trigger: Trigger,
    now: string,
    options: { eventAt?: string | null } = {},
  ): Promise<number> {
    const body = JSON.parse(shipment.body) as ShipmentBody;
    // Most changes on a poll's hot path are of shipments nobody subscribed to: no settings read for them.
    if (!body.notification_email?.length && !body.notification_phone?.length) return 0;
    const settings = await this.settings.of(shipment.account_id, repos);
    const channels = this.settings.channelsFor(settings, trigger);
    if (channels.length === 0) return 0;
    const recipients = recipientsOf(body, channels);
    if (recipients.length === 0) return 0;

    const eventAt = options.eventAt !== undefined ? options.eventAt : ((await repos.events.latestWithPhase(shipment.id))?.time_utc ?? null);
    const stale =
      eventAt !== null && Date.parse(now) - Date.parse(eventAt) > settings.max_event_age_hours * 3_600_000 ? 'event_too_old' : null;
    // A return shipment's consumer is its sender.
    const consumer = shipment.shipment_type === 'return' ? 'sender' : 'recipient';
    const language = resolveLanguage({ ...languageSourcesOfShipment(body, consumer), accountDefault: settings.default_language });
    const domain = messageIdDomain(settings.email.sender_email ?? this.senderAddress);
    const rows = [];
    for (const { channel, recipient } of recipients) {
      const suppressed = stale ?? (await repos.notifications.suppression(shipment.account_id, channel, recipient, shipment.id));
      const uuid = randomUUID();
      rows.push({
        notification_uuid: uuid,
        account_id: shipment.account_id,
        shipment_row_id: shipment.id,
        trigger,
        channel,
        recipient,
        language,
        status: suppressed ? 'suppressed' : 'queued',
        reason: suppressed,
        message_id: `<${uuid}@${domain}>`,
        event_at: eventAt,
        created_at: now,
        updated_at: now,
      });
    }
    const added = await repos.notifications.insertNew(rows);
    for (const row of added) {
      if (row.status !== 'queued') continue;
      await repos.jobs.enqueue(
        'notification.send',
        { notification_id: Number(row.id) },
        { now, accountId: shipment.account_id, maxAttempts: NOTIFICATION_MAX_ATTEMPTS },
      );
    }
    return added.length;
  }
}

interface ShipmentBody {
  notification_email?: string[];
  notification_phone?: string[];
}

/** The shipment's subscribers on the given channels, each once (addresses compared without case). */
function recipientsOf(body: ShipmentBody, channels: readonly Channel[]): Array<{ channel: Channel; recipient: string }> {
  const out: Array<{ channel: Channel; recipient: string }> = [];
  const seen = new Set<string>();
  const add = (channel: Channel, recipient: string | null) => {
    if (!recipient || seen.has(`${channel}:${recipient}`)) return;
    seen.add(`${channel}:${recipient}`);
    out.push({ channel, recipient });
  };
  if (channels.includes('email')) for (const email of body.notification_email ?? []) add('email', email.trim().toLowerCase());
  if (channels.includes('sms')) for (const phone of body.notification_phone ?? []) add('sms', toE164(phone));
  return out;
}

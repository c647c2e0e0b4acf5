import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import type { NotificationRow } from '../db/repositories/notifications.repository.js';
import type { ShipmentRow } from '../db/repositories/shipments.repository.js';
import type { Mailer } from '../domain/notifications/email/mailer.js';
import type { MessageComposer } from '../domain/notifications/message-composer.js';
import { notificationView } from '../domain/notifications/notification.presenter.js';
import { NOTIFICATION_MAX_ATTEMPTS } from '../domain/notifications/notification-planner.js';
import type { NotificationSettings, NotificationSettingsService } from '../domain/notifications/notification-settings.js';
import { quietHoursEnd, timeZoneOfCountry } from '../domain/notifications/quiet-hours.js';
import type { SmsProvider } from '../domain/notifications/sms/sms-provider.js';
import { TemplateRenderError } from '../domain/notifications/template-engine.js';
import type { EventSink } from '../domain/webhooks/webhook-outbox.js';
import { GroupedWrites } from './grouped-writes.js';
import { exponentialBackoff, type JobHandler, type JobOutcome, type JobRun } from './job-handler.js';

/** Where a message's outcome goes: sent or failed, with its reason. */
type Outcome = { status: 'sent'; providerId: string | null } | { status: 'failed' | 'suppressed'; reason: string };

/**
 * Sends one consumer notification: composes it from the shipment as it is now, checks consent, the
 * per-recipient limit and (SMS) quiet hours, hands it to SMTP or the SMS provider, and records the outcome
 * with a `notification.sent` or `notification.failed` webhook in one transaction. A crash after the hand-over
 * and before the record sends it again (at least once), with the same Message-ID.
 */
export class NotificationSendJob implements JobHandler<'notification.send'> {
  readonly kind = 'notification.send';
  readonly maxAttempts = NOTIFICATION_MAX_ATTEMPTS;
  readonly backoffMs = exponentialBackoff(60_000, 36_000_000);
  /** Outcomes of sends that finish together are recorded in one transaction. */
  private readonly outcomes: GroupedWrites;

  constructor(
    private readonly repos: Repositories,
    private readonly settings: NotificationSettingsService,
    private readonly composer: MessageComposer,
    private readonly mailer: Mailer | null,
    private readonly defaultFrom: string | null,
    private readonly smsProviders: (id: string) => SmsProvider | undefined,
    private readonly events: EventSink,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly recipientLimitPerHour: number,
    private readonly publicUrl: string,
  ) {
    this.outcomes = new GroupedWrites(repos);
  }

  async run(job: JobRun<{ notification_id: number }>): Promise<JobOutcome> {
    const row = await this.repos.notifications.find(job.payload.notification_id);
    if (row?.status !== 'queued') return { result: 'done' };
    const shipment = await this.repos.shipments.findById(row.shipment_row_id);
    if (!shipment) return { result: 'done' };
    const suppressed = await this.repos.notifications.suppression(row.account_id, row.channel, row.recipient, row.shipment_row_id);
    if (suppressed) return this.finish(row, shipment, { status: 'suppressed', reason: suppressed }, job.attempt);

    const now = this.clock.now();
    if (row.channel === 'sms') {
      const quietUntil = quietHoursEnd(now, await this.zoneOf(shipment));
      if (quietUntil) return { result: 'defer', delayMs: Math.max(1_000, quietUntil.getTime() - now.getTime()) };
    }
    const since = new Date(now.getTime() - 3_600_000).toISOString();
    const slot = { id: Number(row.id), account_id: Number(row.account_id), recipient: row.recipient };
    if (!(await this.repos.notifications.takeSendSlot(slot, since, this.recipientLimitPerHour, now.toISOString()))) {
      return { result: 'defer', delayMs: 15 * 60_000 };
    }
    const settings = await this.settings.ofRecent(row.account_id);
    try {
      return row.channel === 'sms'
        ? await this.sendSms(row, shipment, settings, job.attempt)
        : await this.sendEmail(row, shipment, settings, job.attempt);
    } catch (error) {
      // Not sent: the slot is given back, and the job runs again, unless the merchant's template cannot be rendered
      // with this shipment's values, which no later attempt changes.
      await this.repos.notifications.update(row.id, { sent_at: null });
      if (error instanceof TemplateRenderError) {
        return this.finish(
          row,
          shipment,
          { status: 'failed', reason: `template_not_rendered: ${error.field}: ${error.message}` },
          job.attempt,
        );
      }
      throw error;
    }
  }

  private async sendEmail(row: NotificationRow, shipment: ShipmentRow, settings: NotificationSettings, attempt: number) {
    if (!this.mailer || !this.defaultFrom) return this.finish(row, shipment, { status: 'failed', reason: 'smtp_not_configured' }, attempt);
    const email = await this.composer.email(this.repos, row, shipment);
    const from = settings.email.sender_email
      ? { name: settings.email.sender_name ?? '', address: settings.email.sender_email }
      : settings.email.sender_name
        ? { name: settings.email.sender_name, address: addressOf(this.defaultFrom) }
        : null;
    const outcome = await this.mailer.send({
      from: from ? formatAddress(from) : this.defaultFrom,
      replyTo: settings.email.reply_to,
      to: row.recipient,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: row.message_id,
      language: row.language,
      unsubscribeUrl: email.unsubscribeUrl,
    });
    if (outcome.status === 'accepted')
      return this.finish(row, shipment, { status: 'sent', providerId: outcome.response.slice(0, 200) }, attempt);
    return this.failure(row, shipment, outcome.permanent, outcome.message, attempt);
  }

  private async sendSms(row: NotificationRow, shipment: ShipmentRow, settings: NotificationSettings, attempt: number) {
    const provider = settings.sms.provider ? this.smsProviders(settings.sms.provider) : undefined;
    if (!provider) return this.finish(row, shipment, { status: 'failed', reason: 'sms_provider_not_configured' }, attempt);
    const body = await this.composer.sms(this.repos, row, shipment);
    const account = await this.repos.accounts.findById(row.account_id);
    const statusCallbackUrl = account ? `${this.publicUrl}/notifications/sms/${provider.id}/${account.account_uuid}/status` : undefined;
    const outcome = await provider.send(
      { to: row.recipient, body, reference: row.notification_uuid, statusCallbackUrl },
      settings.sms.settings,
      AbortSignal.timeout(30_000),
    );
    if (outcome.status === 'accepted')
      return this.finish(row, shipment, { status: 'sent', providerId: outcome.providerMessageId }, attempt);
    const retry = outcome.retryAfterSeconds !== undefined ? outcome.retryAfterSeconds * 1000 : undefined;
    return this.failure(row, shipment, outcome.permanent, `${outcome.code}: ${outcome.message}`, attempt, retry);
  }

  private async failure(
    row: NotificationRow,
    shipment: ShipmentRow,
    permanent: boolean,
    message: string,
    attempt: number,
    delayMs?: number,
  ) {
    if (permanent || attempt >= this.maxAttempts) return this.finish(row, shipment, { status: 'failed', reason: message }, attempt);
    await this.repos.notifications.update(row.id, {
      attempts: attempt,
      reason: message,
      sent_at: null,
      updated_at: this.clock.now().toISOString(),
    });
    this.log.warn({ notification: row.notification_uuid, attempt, error: message }, 'notification not sent; will try again');
    return { result: 'retry' as const, error: message, delayMs };
  }

  /** Records the outcome and announces it, in one transaction (shared with other sends' outcomes). */
  private async finish(row: NotificationRow, shipment: ShipmentRow, outcome: Outcome, attempt: number): Promise<JobOutcome> {
    const now = this.clock.now().toISOString();
    const changes =
      outcome.status === 'sent'
        ? { status: 'sent', reason: null, provider_id: outcome.providerId, sent_at: now, attempts: attempt, updated_at: now }
        : { status: outcome.status, reason: outcome.reason.slice(0, 500), sent_at: null, attempts: attempt, updated_at: now };
    await this.outcomes.commit(async (repos) => {
      await repos.notifications.update(row.id, changes);
      if (outcome.status === 'suppressed') return;
      await this.events.emit(repos, {
        accountId: row.account_id,
        type: outcome.status === 'sent' ? 'notification.sent' : 'notification.failed',
        shipmentRowId: shipment.id,
        refs: { notification: notificationView({ ...row, ...changes }, shipment.shipment_uuid) },
      });
    });
    return { result: 'done' };
  }

  /** The recipient's time zone: their country's when it has one, else the latest event's. */
  private async zoneOf(shipment: ShipmentRow): Promise<string | null> {
    const body = JSON.parse(shipment.body) as { recipient_address?: { country_code?: string; state_or_province?: string } | null };
    const address = body.recipient_address;
    const zone = timeZoneOfCountry(address?.country_code ?? null, address?.state_or_province ?? null);
    if (zone) return zone;
    return (await this.repos.events.latestWithPhase(shipment.id))?.timezone ?? null;
  }
}

function addressOf(from: string): string {
  const match = /<([^>]+)>\s*$/.exec(from);
  return match ? match[1] : from.trim();
}

function formatAddress(from: { name: string; address: string }): string {
  if (!from.name) return from.address;
  return `"${from.name.replace(/["\\\r\n]/g, '')}" <${from.address}>`;
}

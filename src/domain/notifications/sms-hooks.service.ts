import type { Clock } from '../../clock.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { EventSink } from '../webhooks/webhook-outbox.js';
import { notificationView } from './notification.presenter.js';
import type { NotificationSettingsService } from './notification-settings.js';
import type { NotificationsService } from './notifications.service.js';
import { toE164 } from './sms/phone.js';
import type { InboundRequest, SmsProvider } from './sms/sms-provider.js';

/**
 * What an SMS provider posts back for an account: replies (STOP stops every message from the account to that
 * number, START lifts it) and delivery reports (a permanent failure after the hand-over marks the message
 * failed). Each request must carry the provider's signature, made with the account's own credentials.
 */
export class SmsHooksService {
  constructor(
    private readonly repos: Repositories,
    private readonly settings: NotificationSettingsService,
    private readonly notifications: NotificationsService,
    private readonly providers: (id: string) => SmsProvider | undefined,
    private readonly events: EventSink,
    private readonly clock: Clock,
  ) {}

  /** Handles one request; false when it is not the provider's (unknown account, provider or signature). */
  async receive(kind: 'inbound' | 'status', providerId: string, accountUuid: string, request: InboundRequest): Promise<boolean> {
    const account = await this.repos.accounts.findByUuid(accountUuid);
    const provider = this.providers(providerId);
    if (!account || !provider) return false;
    const settings = await this.settings.of(account.id);
    if (settings.sms.provider !== providerId || !provider.verifyInbound(request, settings.sms.settings)) return false;
    if (kind === 'inbound') {
      const message = provider.parseInbound(request.params);
      const from = toE164(message.from) ?? message.from;
      if (message.kind === 'opt_out') await this.notifications.optOut(account.id, 'sms', from, 'opted_out');
      if (message.kind === 'opt_in') await this.notifications.optIn(account.id, 'sms', from);
      return true;
    }
    const report = provider.parseDeliveryReport(request.params);
    if (report?.state !== 'failed') return true;
    const row = await this.repos.notifications.findByProviderId('sms', report.providerMessageId);
    if (!row || Number(row.account_id) !== account.id || row.status === 'failed') return true;
    const now = this.clock.now().toISOString();
    const reason = `${report.code ?? 'undelivered'}: ${report.message ?? 'The provider could not deliver the message'}`.slice(0, 500);
    await this.repos.transaction(async (repos) => {
      await repos.notifications.update(row.id, { status: 'failed', reason, updated_at: now });
      const after = await repos.notifications.find(row.id);
      const shipment = await repos.shipments.findById(row.shipment_row_id);
      if (after && shipment) {
        await this.events.emit(repos, {
          accountId: account.id,
          type: 'notification.failed',
          shipmentRowId: shipment.id,
          refs: { notification: notificationView(after, shipment.shipment_uuid) },
        });
      }
    });
    if (report.permanent) await this.notifications.optOut(account.id, 'sms', row.recipient, 'bounced');
    return true;
  }
}

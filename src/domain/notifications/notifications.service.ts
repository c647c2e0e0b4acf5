import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { type Channel, isReturnTrigger, type Trigger } from '../../core/notification-triggers.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { NotificationRow } from '../../db/repositories/notifications.repository.js';
import { type ShipmentRow, storedShipment } from '../../db/repositories/shipments.repository.js';
import type { Language } from '../../i18n/languages.js';
import { FieldErrorCollector, ValidationError } from '../errors.js';
import { findShipment, type ShipmentIdentifier } from '../shipments/shipment-identifier.js';
import { composeEmail, type MessageComposer, moneyText } from './message-composer.js';
import { type MessageTemplate, templateFor } from './message-templates.js';
import { notificationView } from './notification.presenter.js';
import { checkTemplate, renderTemplate, TEMPLATE_VARIABLES, TemplateRenderError } from './template-engine.js';
import { verifyUnsubscribeToken } from './unsubscribe-token.js';

const VARIABLE_NAMES = Object.entries(TEMPLATE_VARIABLES).flatMap(([root, keys]) =>
  keys === null ? [root] : keys.map((key) => `${root}.${key}`),
);

/** Merchants' templates and log, and consumers' unsubscribes. */
export class NotificationsService {
  constructor(
    private readonly repos: Repositories,
    private readonly composer: MessageComposer,
    private readonly clock: Clock,
  ) {}

  async template(accountId: number, trigger: Trigger, channel: Channel, language: Language) {
    const template = await templateFor(this.repos, accountId, trigger, channel, language);
    return {
      trigger,
      channel,
      language,
      subject: template.subject,
      body: template.body,
      custom: template.custom,
      variables: VARIABLE_NAMES,
    };
  }

  /** Saves a template after checking it: a syntax error or an unknown variable is a 4030 naming the field and line. */
  async putTemplate(
    accountId: number,
    trigger: Trigger,
    channel: Channel,
    language: Language,
    input: { subject?: string | null; body: string },
  ) {
    checkOrThrow(channel, input);
    await this.repos.notifications.putTemplate({
      account_id: accountId,
      trigger,
      channel,
      language,
      subject: channel === 'email' ? (input.subject ?? null) : null,
      body: input.body,
      updated_at: this.clock.now().toISOString(),
    });
    this.composer.templates.drop(`${accountId}:`);
    return this.template(accountId, trigger, channel, language);
  }

  /** Goes back to the default template. */
  async deleteTemplate(accountId: number, trigger: Trigger, channel: Channel, language: Language) {
    await this.repos.notifications.deleteTemplate(accountId, trigger, channel, language);
    this.composer.templates.drop(`${accountId}:`);
    return this.template(accountId, trigger, channel, language);
  }

  /**
   * Renders a template (the one given, else the saved one, else the default) for a shipment of the account,
   * or for a sample shipment when none is named. Nothing is sent or stored.
   */
  async preview(
    accountId: number,
    trigger: Trigger,
    channel: Channel,
    language: Language,
    input: { shipment_uuid?: string; subject?: string | null; body?: string },
  ) {
    const saved = await templateFor(this.repos, accountId, trigger, channel, language);
    const template: MessageTemplate =
      input.body !== undefined || input.subject !== undefined
        ? { subject: input.subject !== undefined ? input.subject : saved.subject, body: input.body ?? saved.body, custom: true }
        : saved;
    checkOrThrow(channel, { subject: template.subject, body: template.body });
    const shipment = input.shipment_uuid
      ? await this.repos.shipments.findByUuid(accountId, input.shipment_uuid)
      : await this.sample(accountId);
    if (!shipment) throw ValidationError.at(['shipment_uuid'], 'No shipment of this account has this uuid.');
    const variables = await this.composer.variables(this.repos, shipment, trigger, language, randomUUID());
    if (!input.shipment_uuid) {
      // A return's sample links to the page a return of the account would have (none while its portal is off).
      const statusUrl =
        variables.return.status_url ??
        (isReturnTrigger(trigger) ? await this.composer.returnStatusUrl(this.repos, accountId, SAMPLE_RETURN_UUID) : null);
      Object.assign(variables, sampleValues(variables, trigger, language, statusUrl));
    }
    try {
      if (channel === 'sms') {
        return { subject: null, text: renderTemplate(template.body, variables as unknown as Record<string, unknown>).trim(), html: null };
      }
      const email = await composeEmail(template, variables, language);
      return { subject: email.subject, text: email.text, html: email.html };
    } catch (error) {
      // With this shipment's values the template reaches a limit the check's values did not: the merchant's to mend.
      if (error instanceof TemplateRenderError) throw ValidationError.at([error.field], error.message);
      throw error;
    }
  }

  /** The account's log, newest first; of one shipment when it is named (by shipment_uuid, shipment_id or both). */
  async log(accountId: number, query: ShipmentIdentifier & { before?: number; limit?: number }) {
    const named = query.shipment_uuid !== undefined || query.shipment_id !== undefined;
    const shipment = named ? await findShipment(this.repos, accountId, query) : undefined;
    const limit = query.limit ?? 50;
    const rows = await this.repos.notifications.list(accountId, { shipmentRowId: shipment?.id, beforeId: query.before, limit: limit + 1 });
    const page = rows.slice(0, limit);
    return {
      data: page.map((row) => notificationView(row, row.shipment_uuid)),
      next: rows.length > limit ? Number(page[page.length - 1].id) : null,
    };
  }

  /** The message an unsubscribe token names, with its merchant's name; null when the token is not valid. */
  async unsubscribeTarget(token: string, key: Buffer): Promise<{ row: NotificationRow; merchant: string } | null> {
    const uuid = verifyUnsubscribeToken(token, key);
    if (!uuid) return null;
    const row = await this.repos.notifications.findByUuidAnyAccount(uuid);
    if (!row) return null;
    const account = await this.repos.accounts.findById(row.account_id);
    return { row, merchant: account?.name ?? '' };
  }

  /** Stops messages to the recipient: for the message's shipment, or for every shipment of its merchant. */
  async unsubscribe(row: NotificationRow, scope: 'shipment' | 'merchant'): Promise<void> {
    await this.repos.notifications.suppress({
      account_id: row.account_id,
      channel: row.channel,
      recipient: row.recipient,
      shipment_row_id: scope === 'merchant' ? 0 : Number(row.shipment_row_id),
      reason: 'unsubscribed',
      created_at: this.clock.now().toISOString(),
    });
  }

  /** A recipient's reply STOP (or a hard bounce): nothing more to them from the account. */
  async optOut(accountId: number, channel: Channel, recipient: string, reason: 'opted_out' | 'bounced'): Promise<void> {
    await this.repos.notifications.suppress({
      account_id: accountId,
      channel,
      recipient,
      shipment_row_id: 0,
      reason,
      created_at: this.clock.now().toISOString(),
    });
  }

  /** A reply START: the recipient's account-wide opt-out is lifted. */
  async optIn(accountId: number, channel: Channel, recipient: string): Promise<void> {
    await this.repos.notifications.unsuppress(accountId, channel, recipient, 0, 'opted_out');
  }

  /** The newest shipment of the account, for previews without one (any shipment shows the layout). */
  private async sample(accountId: number): Promise<ShipmentRow | undefined> {
    return (await this.repos.shipments.list(accountId, {}, 1, null))[0] ?? placeholderShipment(accountId);
  }
}

function checkOrThrow(channel: Channel, input: { subject?: string | null; body: string }): void {
  const errors = new FieldErrorCollector();
  if (channel === 'email' && input.subject) {
    for (const problem of checkTemplate(input.subject)) errors.add(['subject'], `Line ${problem.line}: ${problem.message}`);
  }
  for (const problem of checkTemplate(input.body)) errors.add(['body'], `Line ${problem.line}: ${problem.message}`);
  if (channel === 'sms' && input.subject) errors.add(['subject'], 'SMS have no subject.');
  errors.throwIfAny();
}

/** The return of previews without a shipment. */
const SAMPLE_RETURN_UUID = '00000000-0000-4000-8000-000000000000';

/** Sample values for what a preview without a shipment lacks. */
function sampleValues(
  variables: Awaited<ReturnType<MessageComposer['variables']>>,
  trigger: Trigger,
  language: Language,
  statusUrl: string | null,
) {
  return {
    shipment: {
      ...variables.shipment,
      tracking_number: variables.shipment.tracking_number ?? '00340434161234567890',
      carrier: variables.shipment.carrier ?? 'DHL',
    },
    recipient: { name: variables.recipient.name ?? 'Alex Example' },
    pickup:
      variables.pickup.name || trigger !== 'available_for_pickup'
        ? variables.pickup
        : {
            name: 'Kiosk am Markt',
            address: 'Marktplatz 1, 10115 Berlin',
            opening_hours: ['Monday: 09:00–18:00', 'Saturday: 09:00–13:00'],
          },
    return: {
      return_id: variables.return.return_id ?? 'R-1001',
      reject_reason: variables.return.reject_reason ?? 'Item used',
      status_url: statusUrl,
      // The approval's sample shows the label's paragraph, as a return with a booked label gets it.
      label_available: variables.return.label_available || trigger === 'return_approved',
      refunded_amount: variables.return.refunded_amount ?? moneyText('45.50', 'EUR', language),
    },
  };
}

/** A shipment that exists only to fill a preview of an account without any. */
function placeholderShipment(accountId: number): ShipmentRow {
  const now = new Date(0).toISOString();
  return storedShipment(
    {
      account_id: accountId,
      shipment_uuid: '00000000-0000-4000-8000-000000000000',
      shipment_id: 'ORDER-1001',
      status: 'active',
      phase_key: 'in_transit',
      source: 'api',
      tracking_page_reference: 'preview',
      body: '{}',
      created_at: now,
      updated_at: now,
    },
    0,
  );
}

import type { CarrierRegistry } from '../../carriers/registry.js';
import { isReturnTrigger, type Trigger } from '../../core/notification-triggers.js';
import type { PudoLocation, PudoLocationRecord } from '../../core/pudo-location.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { NotificationRow } from '../../db/repositories/notifications.repository.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import { isLanguage, type Language, LOCALES } from '../../i18n/languages.js';
import { formatMessage } from '../../i18n/messages.js';
import { shownExpectedDelivery } from '../delivery/expected-delivery.js';
import { returnStatusUrl } from '../returns/portal-links.js';
import { detailsOf } from '../returns/return.presenter.js';
import { shownCarrier } from '../shipments/carrier-of-record.js';
import { renderEmailHtml } from './email/email-layout.js';
import { type MessageTemplate, templateFor } from './message-templates.js';
import { ShortCache } from './short-cache.js';
import { renderTemplate } from './template-engine.js';
import { unsubscribeToken } from './unsubscribe-token.js';

/** What a template can read: the values of TEMPLATE_VARIABLES for one message. */
export interface MessageVariables {
  merchant: { name: string };
  shipment: {
    tracking_number: string | null;
    carrier: string | null;
    tracking_url: string;
    shipment_id: string;
    order_number: string | null;
    status: string;
    expected_delivery: string | null;
    /** Waybill's predicted window and its likely day (docs/delivery-intelligence.md), in the consumer's language. */
    predicted_delivery: string | null;
    predicted_delivery_likely: string | null;
  };
  recipient: { name: string | null };
  pickup: { name: string | null; address: string | null; opening_hours: string[] };
  return: {
    return_id: string | null;
    reject_reason: string | null;
    /** The return's page in the returns portal (signed link); null when the account's portal is off. */
    status_url: string | null;
    /** Whether the return shipment has a booked label (or QR code), which its status page offers. */
    label_available: boolean;
    /** The refund recorded on the return, as money in the consumer's language ("45,50 €"); null before one. */
    refunded_amount: string | null;
  };
  unsubscribe_url: string;
  trigger: string;
  language: string;
}

export interface ComposedEmail {
  subject: string;
  text: string;
  html: string;
  unsubscribeUrl: string;
}

/** Finds a pick-up point by carrier and uuid (the PUDO service). */
export type PudoFinder = (carrierId: string, uuid: string) => Promise<PudoLocation | PudoLocationRecord | null>;

/** The message a notification sends, composed when it is sent (from the shipment as it is then). */
export class MessageComposer {
  /** Templates and merchant names as senders read them (see ShortCache); template changes drop them. */
  readonly templates = new ShortCache<MessageTemplate>();
  private readonly merchantNames = new ShortCache<string>(60_000);

  constructor(
    private readonly carriers: CarrierRegistry,
    private readonly findPudo: PudoFinder,
    private readonly publicUrl: string,
    private readonly urlKey: Buffer,
  ) {}

  unsubscribeUrl(notificationUuid: string): string {
    return `${this.publicUrl}/notifications/unsubscribe/${unsubscribeToken(notificationUuid, this.urlKey)}`;
  }

  async variables(repos: Repositories, shipment: ShipmentRow, trigger: Trigger, language: Language, notificationUuid: string) {
    const body = JSON.parse(shipment.body) as Record<string, unknown>;
    const prediction = body.delivery_prediction as { from: string; to: string; likely: string } | undefined;
    const merchant = await this.merchantNames.get(
      `${shipment.account_id}:`,
      async () => (await repos.accounts.findById(shipment.account_id))?.name ?? '',
    );
    const order = shipment.order_row_id ? await repos.orders.findById(shipment.order_row_id) : undefined;
    const ticket = isReturnTrigger(trigger) ? await repos.returns.findByShipment(shipment.id) : undefined;
    const details = ticket ? detailsOf(ticket) : null;
    // The consumer: a parcel's recipient, or the sender of a return shipment.
    const address = (
      shipment.shipment_type === 'return'
        ? (body.sender_address ?? body.from_address ?? null)
        : (body.recipient_address ?? body.to_address ?? null)
    ) as Record<string, unknown> | null;
    const name = [address?.first_name, address?.last_name].filter((part) => typeof part === 'string' && part !== '').join(' ');
    const variables: MessageVariables = {
      merchant: { name: merchant },
      shipment: {
        tracking_number: shipment.tracking_number,
        // The courier an aggregator names, as the tracking page shows it (carrier-of-record.ts).
        carrier: shownCarrier(shipment.carrier_id, body, (id) => (id ? (this.carriers.get(id)?.record ?? null) : null))?.name ?? null,
        tracking_url: `${this.publicUrl}/t/${shipment.tracking_page_reference}?lang=${language}`,
        shipment_id: shipment.shipment_id,
        order_number: order?.order_id ?? null,
        status: shipment.status,
        expected_delivery: expectedText(shownExpectedDelivery(body, shipment.phase_key), language),
        predicted_delivery: expectedText(prediction, language),
        predicted_delivery_likely: prediction?.likely ? expectedText({ from: prediction.likely }, language) : null,
      },
      recipient: { name: name || null },
      pickup:
        trigger === 'available_for_pickup'
          ? await this.pickupOf(repos, shipment, language)
          : { name: null, address: null, opening_hours: [] },
      return: {
        return_id: ticket?.return_id ?? null,
        reject_reason: details?.reject_reason ?? null,
        status_url: ticket ? await this.returnStatusUrl(repos, shipment.account_id, ticket.return_uuid) : null,
        label_available: ticket ? (await repos.bookings.findByShipment(shipment.id))?.status === 'booked' : false,
        refunded_amount: moneyText(details?.refunded_amount ?? null, currencyOf(body), language),
      },
      unsubscribe_url: this.unsubscribeUrl(notificationUuid),
      trigger,
      language,
    };
    return variables;
  }

  /**
   * The signed link to a return's page in the account's returns portal, or null when the account's portal is
   * off (never turned on, or turned off since): messages do not send consumers to a portal the merchant closed.
   */
  async returnStatusUrl(repos: Repositories, accountId: number, returnUuid: string): Promise<string | null> {
    const row = await repos.returnPolicies.of(accountId);
    if (!row || (JSON.parse(row.policy) as { enabled?: boolean }).enabled !== true) return null;
    return returnStatusUrl(this.publicUrl, row.portal_reference, returnUuid, this.urlKey);
  }

  /** The e-mail of a notification, with the merchant's template when there is one (or `template`, for previews). */
  async email(repos: Repositories, row: NotificationRow, shipment: ShipmentRow, template?: MessageTemplate): Promise<ComposedEmail> {
    const language = languageOf(row.language);
    const trigger = row.trigger as Trigger;
    const variables = await this.variables(repos, shipment, trigger, language, row.notification_uuid);
    const chosen = template ?? (await templateFor(repos, row.account_id, trigger, 'email', language, this.templates));
    return composeEmail(chosen, variables, language);
  }

  async sms(repos: Repositories, row: NotificationRow, shipment: ShipmentRow, template?: MessageTemplate): Promise<string> {
    const language = languageOf(row.language);
    const trigger = row.trigger as Trigger;
    const variables = await this.variables(repos, shipment, trigger, language, row.notification_uuid);
    const chosen = template ?? (await templateFor(repos, row.account_id, trigger, 'sms', language, this.templates));
    return renderTemplate(chosen.body, variables as unknown as Record<string, unknown>).trim();
  }

  private async pickupOf(repos: Repositories, shipment: ShipmentRow, language: Language): Promise<MessageVariables['pickup']> {
    const none = { name: null, address: null, opening_hours: [] };
    const booking = await repos.bookings.findByShipment(shipment.id);
    if (booking?.pudo_location_uuid) {
      const location = await this.findPudo(booking.carrier_id, booking.pudo_location_uuid).catch(() => null);
      if (location) {
        return {
          name: location.address.address_name,
          address: location.address.full,
          opening_hours: openingHoursLines(location.opening_hours, language),
        };
      }
    }
    // Without a booked point, where the carrier says the parcel waits.
    const latest = await repos.events.latestWithPhase(shipment.id);
    const place = latest?.location ? (JSON.parse(latest.location) as Record<string, unknown>) : null;
    const text = [place?.name, place?.address, place?.city ?? place?.location].filter((p) => typeof p === 'string' && p !== '');
    return text.length > 0 ? { name: String(text[0]), address: text.slice(1).join(', ') || null, opening_hours: [] } : none;
  }
}

export function languageOf(text: string): Language {
  return isLanguage(text) ? text : 'en';
}

/** Subject, plain text and HTML of an e-mail from its template and values. */
export async function composeEmail(template: MessageTemplate, variables: MessageVariables, language: Language): Promise<ComposedEmail> {
  const values = variables as unknown as Record<string, unknown>;
  const subject = renderTemplate(template.subject ?? '', values, 'subject')
    .replace(/\s+/g, ' ')
    .trim();
  const bodyText = renderTemplate(template.body, values).trim();
  const paragraphs = bodyText
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const args = {
    merchant: variables.merchant.name,
    trackingNumber: variables.shipment.tracking_number ?? '',
    carrier: variables.shipment.carrier ?? '',
    url: variables.shipment.tracking_url,
    expected: variables.shipment.expected_delivery ?? '',
    pickupName: variables.pickup.name ?? '',
    returnId: variables.return.return_id ?? '',
    rejectReason: variables.return.reject_reason ?? '',
  };
  const label = (key: string) => formatMessage(language, `notification.common.${key}`, args);
  const labels = {
    track_button: label('track_button'),
    tracking_number: label('tracking_number'),
    carrier: label('carrier'),
    expected_delivery: label('expected_delivery'),
    pickup_point: label('pickup_point'),
    opening_hours: label('opening_hours'),
    unsubscribe: label('unsubscribe'),
  };
  const footer = label('footer');
  const heading = formatMessage(language, `notification.${variables.trigger}.heading`, args);
  // A return's message leads to the return's page in the portal, when the account has one on.
  const statusUrl = variables.return.status_url;
  const button = statusUrl
    ? { url: statusUrl, label: label('return_button') }
    : { url: variables.shipment.tracking_url, label: labels.track_button };
  const html = await renderEmailHtml({
    subject,
    preview: paragraphs[0] ?? subject,
    heading,
    paragraphs,
    footer,
    labels,
    button,
    merchant: variables.merchant,
    shipment: variables.shipment,
    pickup: variables.pickup,
    unsubscribe_url: variables.unsubscribe_url,
  });
  const lines = [heading, '', ...paragraphs.flatMap((p) => [p, '']), `${button.label}: ${button.url}`];
  if (variables.shipment.tracking_number) lines.push(`${labels.tracking_number}: ${variables.shipment.tracking_number}`);
  if (variables.shipment.carrier) lines.push(`${labels.carrier}: ${variables.shipment.carrier}`);
  if (variables.shipment.expected_delivery) lines.push(`${labels.expected_delivery}: ${variables.shipment.expected_delivery}`);
  if (variables.pickup.name) {
    lines.push('', `${labels.pickup_point}:`, variables.pickup.name);
    if (variables.pickup.address) lines.push(variables.pickup.address);
    if (variables.pickup.opening_hours.length > 0) lines.push('', `${labels.opening_hours}:`, ...variables.pickup.opening_hours);
  }
  lines.push('', '--', footer, `${labels.unsubscribe}: ${variables.unsubscribe_url}`);
  return { subject, text: `${lines.join('\n')}\n`, html, unsubscribeUrl: variables.unsubscribe_url };
}

/** The currency of a shipment's line items (one per shipment), if they name one. */
function currencyOf(body: Record<string, unknown>): string | null {
  const items = Array.isArray(body.line_items) ? (body.line_items as Array<{ currency_code?: unknown }>) : [];
  const code = items.find((item) => typeof item.currency_code === 'string')?.currency_code;
  return typeof code === 'string' ? code : null;
}

/** An amount ("45.50") as money in the consumer's language, with its currency when known. */
export function moneyText(amount: string | null, currency: string | null, language: Language): string | null {
  if (amount === null) return null;
  const value = Number(amount);
  if (!Number.isFinite(value)) return amount;
  try {
    return new Intl.NumberFormat(LOCALES[language], {
      ...(currency ? { style: 'currency', currency } : {}),
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(value);
  } catch {
    return amount;
  }
}

/** The expected delivery window in the consumer's language: a day, or a day and times, or two days. */
export function expectedText(value: unknown, language: Language): string | null {
  const window = value as { from?: string | null; to?: string | null } | null | undefined;
  const from = window?.from ?? null;
  const to = window?.to ?? null;
  if (!from && !to) return null;
  const locale = LOCALES[language];
  const format = (text: string) => {
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
    const date = new Date(dateOnly ? `${text}T12:00:00Z` : text);
    if (Number.isNaN(date.getTime())) return text;
    const options: Intl.DateTimeFormatOptions = dateOnly
      ? { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }
      : { weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', timeZone: offsetZone(text) };
    return new Intl.DateTimeFormat(locale, options).format(date);
  };
  if (from && to && from !== to) {
    if (from.slice(0, 10) === to.slice(0, 10) && from.includes('T') && to.includes('T')) {
      const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: offsetZone(to) }).format(new Date(to));
      return `${format(from)} – ${time}`;
    }
    return `${format(from)} – ${format(to)}`;
  }
  return format((from ?? to) as string);
}

/** A fixed-offset zone for a time written with its offset, so it is shown as the carrier gave it. */
function offsetZone(text: string): string {
  const match = /([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (!match || (match[2] === '00' && match[3] === '00')) return 'UTC';
  if (match[3] !== '00') return 'UTC';
  // Etc/GMT zones have the sign inverted.
  return `Etc/GMT${match[1] === '+' ? '-' : '+'}${Number(match[2])}`;
}

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Opening hours as lines, one per day in week order: "Monday: 09:00–12:00, 14:00–18:00". */
function openingHoursLines(hours: ReadonlyArray<{ day_of_week: string; open_hour: string; close_hour: string }>, language: Language) {
  const names = new Intl.DateTimeFormat(LOCALES[language], { weekday: 'long', timeZone: 'UTC' });
  const lines: string[] = [];
  for (const [i, day] of DAYS.entries()) {
    const spans = hours.filter((h) => h.day_of_week === day).map((h) => `${h.open_hour}–${h.close_hour}`);
    // 2024-01-01 is a Monday.
    if (spans.length > 0) lines.push(`${names.format(new Date(Date.UTC(2024, 0, 1 + i)))}: ${spans.join(', ')}`);
  }
  return lines;
}

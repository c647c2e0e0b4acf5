import type { Channel, Trigger } from '../../core/notification-triggers.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { Language } from '../../i18n/languages.js';
import { formatMessage } from '../../i18n/messages.js';
import type { ShortCache } from './short-cache.js';

/** A message's text as a Liquid template: the subject (e-mail only) and the body. */
export interface MessageTemplate {
  subject: string | null;
  body: string;
  /** True when it is the merchant's own, false when it is ours. */
  custom: boolean;
}

/**
 * Our messages, written as Liquid templates: each language's ICU message with its arguments turned into
 * the Liquid variables that hold them, so a merchant edits the very text a consumer would get.
 */
const AS_VARIABLES: Record<string, string> = {
  merchant: '{{ merchant.name }}',
  trackingNumber: '{{ shipment.tracking_number }}',
  carrier: '{{ shipment.carrier }}',
  url: '{{ shipment.tracking_url }}',
  expected: '{{ shipment.expected_delivery }}',
  pickupName: '{{ pickup.name }}',
  returnId: '{{ return.return_id }}',
  rejectReason: '{{ return.reject_reason }}',
};

export function defaultTemplate(trigger: Trigger, channel: Channel, language: Language): MessageTemplate {
  if (channel === 'sms')
    return { subject: null, body: formatMessage(language, `notification.${trigger}.sms`, AS_VARIABLES), custom: false };
  return {
    subject: formatMessage(language, `notification.${trigger}.subject`, AS_VARIABLES),
    body: formatMessage(language, `notification.${trigger}.body`, AS_VARIABLES),
    custom: false,
  };
}

/** The template a message uses: the merchant's for its trigger, channel and language, else ours. */
export async function templateFor(
  repos: Repositories,
  accountId: number,
  trigger: Trigger,
  channel: Channel,
  language: Language,
  cache?: ShortCache<MessageTemplate>,
): Promise<MessageTemplate> {
  if (cache)
    return cache.get(`${accountId}:${trigger}:${channel}:${language}`, () => templateFor(repos, accountId, trigger, channel, language));
  const own = await repos.notifications.template(accountId, trigger, channel, language);
  if (!own) return defaultTemplate(trigger, channel, language);
  const fallback = defaultTemplate(trigger, channel, language);
  return { subject: channel === 'email' ? (own.subject ?? fallback.subject) : null, body: own.body, custom: true };
}

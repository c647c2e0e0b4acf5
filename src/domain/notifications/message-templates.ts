import { type Channel, isReturnTrigger, type Trigger } from '../../core/notification-triggers.js';
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

/** A return's messages link to its page in the returns portal, or to the return parcel's tracking page without one. */
const AS_RETURN_VARIABLES: Record<string, string> = {
  ...AS_VARIABLES,
  url: '{{ return.status_url | default: shipment.tracking_url }}',
};

/** The condition of a return's label being there to fetch: booked, and a status page to fetch it from. */
const LABEL_READY = 'return.label_available and return.status_url';

export function defaultTemplate(trigger: Trigger, channel: Channel, language: Language): MessageTemplate {
  const variables = isReturnTrigger(trigger) ? AS_RETURN_VARIABLES : AS_VARIABLES;
  const text = (part: string) => formatMessage(language, `notification.${trigger}.${part}`, variables);
  if (channel === 'sms') {
    // An approved return whose label is ready says where to get it.
    const body =
      trigger === 'return_approved' ? `{% if ${LABEL_READY} %}${text('sms_label')}{% else %}${text('sms')}{% endif %}` : text('sms');
    return { subject: null, body, custom: false };
  }
  let body = text('body');
  if (trigger === 'return_approved') body += `{% if ${LABEL_READY} %}\n\n${text('label')}{% endif %}`;
  if (trigger === 'refund_issued') body += `{% if return.refunded_amount %}\n\n${text('amount')} {{ return.refunded_amount }}{% endif %}`;
  return { subject: text('subject'), body, custom: false };
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

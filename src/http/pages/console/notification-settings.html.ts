import { CHANNELS, type Channel, TRIGGERS, type Trigger } from '../../../core/notification-triggers.js';
import { LANGUAGES, type Language } from '../../../i18n/languages.js';
import { html, type SafeHtml } from '../html.js';
import { pill } from './console-format.js';
import { type ConsoleSession, csrfField, noticeBox, renderConsolePage } from './console-layout.js';

/** What each trigger means to a merchant, in the words the console uses. */
export const TRIGGER_LABELS: Record<Trigger, string> = {
  info_received: 'Shipment announced',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  available_for_pickup: 'Ready for pick-up',
  failed_attempt: 'Delivery attempt failed',
  exception: 'Delivery problem',
  delivered: 'Delivered',
  return_to_sender: 'Returning to sender',
  return_requested: 'Return requested',
  return_approved: 'Return approved',
  return_rejected: 'Return rejected',
  return_received: 'Return received',
  refund_issued: 'Refund issued',
};

export const CHANNEL_LABELS: Record<Channel, string> = { email: 'E-mail', sms: 'SMS' };

export const LANGUAGE_LABELS: Record<Language, string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  nl: 'Dutch',
  es: 'Spanish',
  it: 'Italian',
};

/** Messages by form field name (the `name` and `id` of the input they belong to). */
export type FormProblems = Readonly<Record<string, readonly string[]>>;

/** The id of the message shown under a field, for `aria-describedby`. */
function problemId(field: string): string {
  return `${field}-problem`;
}

/** The attributes that tie an input to its messages: invalid, and described by them. */
export function invalidAttributes(field: string, problems: FormProblems): SafeHtml {
  return problems[field]?.length ? html` aria-invalid="true" aria-describedby="${problemId(field)}"` : html``;
}

/** A field's messages, right under it (what the summary at the top of the form also lists). */
export function fieldProblems(field: string, problems: FormProblems): SafeHtml {
  const messages = problems[field];
  if (!messages?.length) return html``;
  return html`<p class="notice" id="${problemId(field)}">${messages.map((message, i) => html`${i > 0 ? html`<br>` : ''}${message}`)}</p>`;
}

/** The settings form's values: as stored, or as sent back when they were not accepted. */
export interface SettingsFormValues {
  email_enabled: boolean;
  email_triggers: readonly string[];
  sender_name: string;
  sender_email: string;
  reply_to: string;
  sms_enabled: boolean;
  sms_triggers: readonly string[];
  sms_provider: '' | 'twilio';
  twilio_account_sid: string;
  twilio_from: string;
  twilio_messaging_service_sid: string;
  default_language: string;
  max_event_age_hours: string;
}

function textField(
  name: keyof SettingsFormValues,
  label: string,
  values: SettingsFormValues,
  problems: FormProblems,
  extra: { type?: string; maxlength: number; hint?: string; autocomplete?: string },
): SafeHtml {
  const hintId = `${name}-hint`;
  return html`<div class="field"><label for="${name}">${label}</label>
${extra.hint ? html`<p class="muted" id="${hintId}">${extra.hint}</p>` : ''}<input id="${name}" name="${name}" type="${extra.type ?? 'text'}" maxlength="${extra.maxlength}" value="${String(values[name])}" autocomplete="${extra.autocomplete ?? 'off'}" spellcheck="false"${invalidAttributes(name, problems)}${
    extra.hint && !problems[name]?.length ? html` aria-describedby="${hintId}"` : ''
  }>
${fieldProblems(name, problems)}</div>`;
}

function checkbox(id: string, name: string, value: string, checked: boolean, label: string, problems: FormProblems): SafeHtml {
  return html`<input type="checkbox" id="${id}" name="${name}" value="${value}"${checked ? html` checked` : ''}${invalidAttributes(name, problems)}><label class="visually-hidden" for="${id}">${label}</label>`;
}

function channelsCard(values: SettingsFormValues, emailAvailable: boolean, problems: FormProblems): SafeHtml {
  return html`<section class="card" aria-labelledby="channels-heading">
<h2 id="channels-heading">Channels and triggers</h2>
<p class="muted">Messages go to the e-mail address and phone number given with each shipment, for the changes ticked below.</p>
${emailAvailable ? '' : noticeBox('info', 'E-mail is not available yet: the operator of this service has not set up an SMTP server.')}
<div class="table-wrap"><table>
<caption class="visually-hidden">Which channels send messages, and for which changes</caption>
<thead><tr><th scope="col">Send a message when</th>${CHANNELS.map((channel) => html`<th scope="col">${CHANNEL_LABELS[channel]}</th>`)}</tr></thead>
<tbody>
<tr><th scope="row">Channel on</th>
<td>${checkbox('email_enabled', 'email_enabled', 'on', values.email_enabled, 'Send e-mail', problems)}${fieldProblems('email_enabled', problems)}</td>
<td>${checkbox('sms_enabled', 'sms_enabled', 'on', values.sms_enabled, 'Send SMS', problems)}${fieldProblems('sms_enabled', problems)}</td></tr>
${TRIGGERS.map(
  (trigger) => html`<tr><th scope="row">${TRIGGER_LABELS[trigger]}</th>
<td>${checkbox(`email_trigger_${trigger}`, 'email_triggers', trigger, values.email_triggers.includes(trigger), `E-mail when: ${TRIGGER_LABELS[trigger]}`, problems)}</td>
<td>${checkbox(`sms_trigger_${trigger}`, 'sms_triggers', trigger, values.sms_triggers.includes(trigger), `SMS when: ${TRIGGER_LABELS[trigger]}`, problems)}</td></tr>
`,
)}</tbody></table></div>
${fieldProblems('email_triggers', problems)}${fieldProblems('sms_triggers', problems)}
</section>`;
}

function emailCard(values: SettingsFormValues, problems: FormProblems): SafeHtml {
  return html`<section class="card" aria-labelledby="sender-heading">
<h2 id="sender-heading">E-mail sender</h2>
${textField('sender_name', 'Sender name', values, problems, { maxlength: 100, hint: "Shown as the sender; the service's own sender when empty." })}
${textField('sender_email', 'Sender e-mail', values, problems, { type: 'email', maxlength: 254, hint: "The service's own sending address when empty." })}
${textField('reply_to', 'Reply-to address', values, problems, { type: 'email', maxlength: 254, hint: 'Where replies go; none when empty.' })}
</section>`;
}

function smsCard(values: SettingsFormValues, authTokenSet: boolean, problems: FormProblems): SafeHtml {
  return html`<section class="card" aria-labelledby="sms-heading">
<h2 id="sms-heading">SMS provider</h2>
<div class="field"><label for="sms_provider">Provider</label>
<select id="sms_provider" name="sms_provider"${invalidAttributes('sms_provider', problems)}>
<option value=""${values.sms_provider === '' ? html` selected` : ''}>None</option>
<option value="twilio"${values.sms_provider === 'twilio' ? html` selected` : ''}>Twilio</option>
</select>
${fieldProblems('sms_provider', problems)}</div>
${textField('twilio_account_sid', 'Twilio account SID', values, problems, { maxlength: 100, hint: 'AC followed by 32 hexadecimal digits.' })}
<div class="field"><label for="twilio_auth_token">Twilio auth token</label>
<p class="muted" id="twilio_auth_token-hint">${authTokenSet ? pill('set', 'ok') : pill('not set')} ${
    authTokenSet ? 'Leave empty to keep the saved token; type a new one to replace it.' : 'Type the token to save it.'
  }</p>
<input id="twilio_auth_token" name="twilio_auth_token" type="password" maxlength="200" value="" autocomplete="off" spellcheck="false"${
    problems.twilio_auth_token?.length ? invalidAttributes('twilio_auth_token', problems) : html` aria-describedby="twilio_auth_token-hint"`
  }>
${fieldProblems('twilio_auth_token', problems)}</div>
${textField('twilio_from', 'Sender number', values, problems, {
  type: 'tel',
  maxlength: 20,
  hint: 'In international form, such as +14155550100. Not needed with a messaging service.',
})}
${textField('twilio_messaging_service_sid', 'Messaging service SID', values, problems, {
  maxlength: 100,
  hint: 'MG followed by 32 hexadecimal digits; when set, Twilio picks the sender.',
})}
</section>`;
}

function generalCard(values: SettingsFormValues, problems: FormProblems): SafeHtml {
  return html`<section class="card" aria-labelledby="general-heading">
<h2 id="general-heading">Language and timing</h2>
<div class="field"><label for="default_language">Default language</label>
<p class="muted" id="default_language-hint">Used when neither the shipment, its order nor the recipient's country says which language to write in.</p>
<select id="default_language" name="default_language"${
    problems.default_language?.length ? invalidAttributes('default_language', problems) : html` aria-describedby="default_language-hint"`
  }>${LANGUAGES.map(
    (language) =>
      html`<option value="${language}"${language === values.default_language ? html` selected` : ''}>${LANGUAGE_LABELS[language]}</option>`,
  )}</select>
${fieldProblems('default_language', problems)}</div>
${textField('max_event_age_hours', 'Oldest change to tell about (hours)', values, problems, {
  type: 'number',
  maxlength: 3,
  hint: 'Changes that happened longer ago than this (late tracking history) send nothing. From 1 to 720.',
})}
</section>`;
}

/** The notification settings: channels and triggers, the e-mail sender, the SMS provider, language and timing. */
export function renderNotificationSettings(input: {
  session: ConsoleSession;
  values: SettingsFormValues;
  emailAvailable: boolean;
  authTokenSet: boolean;
  problems: FormProblems;
  /** Every problem as a line, for the summary at the top. */
  summary: string[];
  saved: boolean;
}): string {
  const { values, problems } = input;
  const body = html`<h1>Notifications</h1>
<p>Messages to your customers about their parcels. <a href="/console/notifications/templates/">Edit the message templates</a></p>
${input.saved ? noticeBox('ok', 'Settings saved.') : ''}
${input.summary.length ? noticeBox('alert', 'The settings were not saved. Check these fields:', input.summary) : ''}
<form method="post" action="/console/notifications/">
${csrfField(input.session)}
${channelsCard(values, input.emailAvailable, problems)}
<div class="grid">
${emailCard(values, problems)}
${smsCard(values, input.authTokenSet, problems)}
</div>
${generalCard(values, problems)}
<div class="actions"><button type="submit">Save settings</button><a class="button secondary" href="/console/notifications/">Discard changes</a></div>
</form>`;
  return renderConsolePage({ title: 'Notifications', body, session: input.session, section: 'notifications' });
}

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { MASK } from '../../carriers/sdk/settings.js';
import { CHANNELS, isChannel, isTrigger, TRIGGERS, type Trigger } from '../../core/notification-triggers.js';
import { type FieldErrors, ValidationError } from '../../domain/errors.js';
import type { NotificationSettingsService, SettingsInput } from '../../domain/notifications/notification-settings.js';
import { isLanguage, LANGUAGES } from '../../i18n/languages.js';
import type { Secrets } from '../../secrets.js';
import { type FormProblems, renderNotificationSettings, type SettingsFormValues } from '../pages/console/notification-settings.html.js';
import {
  renderTemplateEditor,
  type TemplateNotice,
  type TemplatePreview,
  type TemplateSelection,
} from '../pages/console/notification-templates.html.js';
import { html } from '../pages/html.js';
import { type SignedIn, sendHtml, sessionOf } from './console-session.js';
import { FormInput, formFields, type QueryFields } from './form-input.js';

/** The e-mail address check of the API's `format: email` (ajv-formats, full mode), so both accept the same addresses. */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const MAX_EVENT_AGE_HOURS = 720;
const SUBJECT_MAX = 500;
const BODY_MAX = 20_000;
/** A template form carries up to 20,000 characters, percent-encoded: more than the console's usual 16 KiB. */
const TEMPLATE_FORM_LIMIT = 256 * 1024;

/** The form fields the settings service's error paths belong to. */
const DOMAIN_FIELDS: Record<string, string> = {
  'email.enabled': 'email_enabled',
  'email.triggers': 'email_triggers',
  'email.sender_name': 'sender_name',
  'email.sender_email': 'sender_email',
  'email.reply_to': 'reply_to',
  'sms.enabled': 'sms_enabled',
  'sms.triggers': 'sms_triggers',
  'sms.provider': 'sms_provider',
  'sms.settings.account_sid': 'twilio_account_sid',
  'sms.settings.auth_token': 'twilio_auth_token',
  'sms.settings.from': 'twilio_from',
  'sms.settings.messaging_service_sid': 'twilio_messaging_service_sid',
  default_language: 'default_language',
  max_event_age_hours: 'max_event_age_hours',
};

/** How each field is named in the summary of problems at the top of a form. */
const FIELD_LABELS: Record<string, string> = {
  email_enabled: 'E-mail',
  email_triggers: 'E-mail triggers',
  sender_name: 'Sender name',
  sender_email: 'Sender e-mail',
  reply_to: 'Reply-to address',
  sms_enabled: 'SMS',
  sms_triggers: 'SMS triggers',
  sms_provider: 'SMS provider',
  twilio_account_sid: 'Twilio account SID',
  twilio_auth_token: 'Twilio auth token',
  twilio_from: 'Sender number',
  twilio_messaging_service_sid: 'Messaging service SID',
  default_language: 'Default language',
  max_event_age_hours: 'Oldest change to tell about',
  subject: 'Subject',
  body: 'Message text',
};

/** Plain words for a Twilio setting that does not match its pattern (the schema's message quotes a regular expression). */
const PATTERN_MESSAGES: Record<string, string> = {
  twilio_account_sid: 'Must be AC followed by 32 hexadecimal digits.',
  twilio_messaging_service_sid: 'Must be MG followed by 32 hexadecimal digits.',
  twilio_from: 'Must be a number in international form, such as +14155550100.',
};

/** Plain words for a missing Twilio setting (the schema's name the API's fields). */
const REQUIRED_MESSAGES: Record<string, string> = {
  twilio_account_sid: 'Enter the account SID.',
  twilio_auth_token: 'Enter the auth token.',
  twilio_from: 'Enter a sender number, or a messaging service SID.',
};

/** Field errors flattened to `a.b.c` paths (a nested `non_field_errors` belongs to its parent). */
function flatten(errors: FieldErrors, prefix: string[] = []): Array<[string, string[]]> {
  return Object.entries(errors).flatMap(([key, value]): Array<[string, string[]]> => {
    const path = key === 'non_field_errors' ? prefix : [...prefix, key];
    return Array.isArray(value) ? [[path.join('.') || 'non_field_errors', value]] : flatten(value, path);
  });
}

/** Problems by form field, from the form's own checks and the service's errors mapped onto the form. */
class Problems {
  /** Without a prototype: a field name is only ever a key. */
  readonly byField: Record<string, string[]> = Object.create(null);

  add(field: string, messages: readonly string[]): void {
    const list = this.byField[field] ?? [];
    this.byField[field] = list;
    for (const message of messages) if (!list.includes(message)) list.push(message);
  }

  addErrors(errors: FieldErrors, fieldOf: (path: string) => string = (path) => path): void {
    for (const [path, messages] of flatten(errors)) this.add(fieldOf(path), messages);
  }

  get empty(): boolean {
    return Object.keys(this.byField).length === 0;
  }

  /** One line per message, field named first, in the order of the form, for the summary at the top of it. */
  summary(): string[] {
    const order = Object.keys(FIELD_LABELS);
    const rank = (field: string) => (order.includes(field) ? order.indexOf(field) : order.length);
    return Object.entries(this.byField)
      .sort(([a], [b]) => rank(a) - rank(b))
      .flatMap(([field, messages]) => messages.map((message) => (FIELD_LABELS[field] ? `${FIELD_LABELS[field]}: ${message}` : message)));
  }
}

function settingsFieldOf(path: string): string {
  return DOMAIN_FIELDS[path] ?? 'non_field_errors';
}

/** A submitted text as typed (for showing the form again), '' when absent or sent twice. */
function typed(fields: Readonly<Record<string, unknown>>, name: string): string {
  const value = fields[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A submitted multi-line text with the browser's CRLF line ends made LF (line numbers stay the same). */
function typedText(fields: Readonly<Record<string, unknown>>, name: string): string {
  const value = fields[name];
  return typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : '';
}

/** The values of a group of checkboxes (one field sent once per ticked box); unknown values are a problem. */
function ticked(fields: Readonly<Record<string, unknown>>, name: string, problems: Problems): Trigger[] {
  const value = fields[name];
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const triggers: Trigger[] = [];
  for (const item of values) {
    if (typeof item === 'string' && isTrigger(item)) triggers.push(item);
    else problems.add(name, [`Must be among: ${TRIGGERS.join(', ')}.`]);
  }
  return triggers;
}

function isTicked(fields: Readonly<Record<string, unknown>>, name: string): boolean {
  return fields[name] === 'on';
}

type ShownSettings = Awaited<ReturnType<NotificationSettingsService['shown']>>;

/** The form filled with the stored settings (the auth token never: only whether it is set). */
function storedValues(shown: ShownSettings): SettingsFormValues {
  const sms = (shown.sms.settings ?? {}) as Record<string, unknown>;
  const plain = (value: unknown) => (typeof value === 'string' && value !== MASK ? value : '');
  return {
    email_enabled: shown.email.enabled,
    email_triggers: shown.email.triggers,
    sender_name: shown.email.sender_name ?? '',
    sender_email: shown.email.sender_email ?? '',
    reply_to: shown.email.reply_to ?? '',
    sms_enabled: shown.sms.enabled,
    sms_triggers: shown.sms.triggers,
    sms_provider: shown.sms.provider === 'twilio' ? 'twilio' : '',
    twilio_account_sid: plain(sms.account_sid),
    twilio_from: plain(sms.from),
    twilio_messaging_service_sid: plain(sms.messaging_service_sid),
    default_language: shown.default_language,
    max_event_age_hours: String(shown.max_event_age_hours),
  };
}

function authTokenSet(shown: ShownSettings): boolean {
  return shown.sms.provider === 'twilio' && (shown.sms.settings as Record<string, unknown>)?.auth_token === MASK;
}

/**
 * The settings form read: the values to show again, and the service's input when the form itself is sound
 * (the service then checks the rest: SMTP available, the provider's settings).
 */
function readSettingsForm(body: unknown): { values: SettingsFormValues; input: SettingsInput | null; problems: Problems } {
  const fields = formFields(body);
  const form = new FormInput(body);
  const problems = new Problems();
  const email = (name: string) => {
    const value = form.text(name, 254);
    if (value !== undefined && !EMAIL.test(value)) problems.add(name, ['Enter an e-mail address, such as updates@example.com.']);
    return value ?? null;
  };
  const values: SettingsFormValues = {
    email_enabled: isTicked(fields, 'email_enabled'),
    email_triggers: ticked(fields, 'email_triggers', problems),
    sender_name: typed(fields, 'sender_name'),
    sender_email: typed(fields, 'sender_email'),
    reply_to: typed(fields, 'reply_to'),
    sms_enabled: isTicked(fields, 'sms_enabled'),
    sms_triggers: ticked(fields, 'sms_triggers', problems),
    sms_provider: fields.sms_provider === 'twilio' ? 'twilio' : '',
    twilio_account_sid: typed(fields, 'twilio_account_sid'),
    twilio_from: typed(fields, 'twilio_from'),
    twilio_messaging_service_sid: typed(fields, 'twilio_messaging_service_sid'),
    default_language: typed(fields, 'default_language'),
    max_event_age_hours: typed(fields, 'max_event_age_hours'),
  };
  const senderName = form.text('sender_name', 100) ?? null;
  const senderEmail = email('sender_email');
  const replyTo = email('reply_to');
  const provider = form.oneOf('sms_provider', ['twilio'] as const) ?? null;
  const accountSid = form.text('twilio_account_sid', 100) ?? null;
  const authToken = form.text('twilio_auth_token', 200);
  const from = form.text('twilio_from', 20) ?? null;
  const messagingServiceSid = form.text('twilio_messaging_service_sid', 100) ?? null;
  const language = form.oneOf('default_language', LANGUAGES);
  if (language === undefined && !form.fieldErrors().default_language) problems.add('default_language', ['Choose a language.']);
  const maxAge = form.positiveInteger('max_event_age_hours');
  if (maxAge === undefined && !form.fieldErrors().max_event_age_hours) {
    problems.add('max_event_age_hours', [`Enter a number of hours from 1 to ${MAX_EVENT_AGE_HOURS}.`]);
  } else if (maxAge !== undefined && maxAge > MAX_EVENT_AGE_HOURS) {
    problems.add('max_event_age_hours', [`Must be at most ${MAX_EVENT_AGE_HOURS} hours (30 days).`]);
  }
  problems.addErrors(form.fieldErrors());
  if (!problems.empty || language === undefined || maxAge === undefined) return { values, input: null, problems };
  return {
    values,
    problems,
    input: {
      email: {
        enabled: values.email_enabled,
        triggers: values.email_triggers as Trigger[],
        sender_name: senderName,
        sender_email: senderEmail,
        reply_to: replyTo,
      },
      sms: {
        enabled: values.sms_enabled,
        triggers: values.sms_triggers as Trigger[],
        provider,
        // An empty field removes its setting; the auth token is only replaced when one is typed.
        settings: provider
          ? {
              account_sid: accountSid,
              from,
              messaging_service_sid: messagingServiceSid,
              ...(authToken === undefined ? {} : { auth_token: authToken }),
            }
          : null,
      },
      default_language: language,
      max_event_age_hours: maxAge,
    },
  };
}

/** Service errors on the settings, on their form fields, in plain words where the schema's are technical. */
function settingsProblems(errors: FieldErrors): Problems {
  const problems = new Problems();
  for (const [path, messages] of flatten(errors)) {
    const field = settingsFieldOf(path);
    problems.add(
      field,
      messages.map((message) => {
        if (/^Required/.test(message) && REQUIRED_MESSAGES[field]) return REQUIRED_MESSAGES[field];
        if (/pattern/i.test(message) && PATTERN_MESSAGES[field]) return PATTERN_MESSAGES[field];
        return message;
      }),
    );
  }
  return problems;
}

/** A sealed preview: what the framed e-mail preview renders, for whom, until when. */
interface PreviewTicket {
  /** The account. */
  a: number;
  t: string;
  c: string;
  l: string;
  /** Expiry, Unix seconds. */
  e: number;
  /** The unsaved subject and body; both absent: the saved (or default) template. */
  s?: string;
  b?: string;
}

/** What a sealed preview starts with: no other sealed value of the service opens as one. */
const PREVIEW_DOMAIN = 'console-preview.';
const PREVIEW_LIFETIME_SECONDS = 15 * 60;
/**
 * The longest sealed preview put in a frame's address: with the session cookie it stays well inside the
 * server's 16 KiB request head. Longer unsaved texts are previewed as plain text only.
 */
const PREVIEW_TOKEN_MAX = 6_000;

/** Seals a preview (compressed, then encrypted and authenticated by this server): no template text is stored anywhere. */
function sealPreview(secrets: Secrets, ticket: PreviewTicket): string {
  return secrets.encrypt(`${PREVIEW_DOMAIN}${deflateRawSync(Buffer.from(JSON.stringify(ticket))).toString('base64url')}`);
}

/** The preview a sealed value names, or null when it is not one of ours, is malformed, or has expired. */
function openPreview(secrets: Secrets, sealed: string, nowSeconds: number): PreviewTicket | null {
  try {
    const plain = secrets.decrypt(sealed);
    if (!plain.startsWith(PREVIEW_DOMAIN)) return null;
    const json = inflateRawSync(Buffer.from(plain.slice(PREVIEW_DOMAIN.length), 'base64url'), { maxOutputLength: 200_000 }).toString(
      'utf8',
    );
    const ticket = JSON.parse(json) as PreviewTicket;
    if (typeof ticket.a !== 'number' || typeof ticket.e !== 'number' || ticket.e < nowSeconds) return null;
    if (!isTrigger(ticket.t) || !isChannel(ticket.c) || !isLanguage(ticket.l)) return null;
    if ((ticket.s !== undefined && typeof ticket.s !== 'string') || (ticket.b !== undefined && typeof ticket.b !== 'string')) return null;
    return ticket;
  } catch {
    return null;
  }
}

/**
 * The framed e-mail preview's headers: the e-mail's own inline styles and nothing else (no script, no
 * fetches, no forms), sandboxed, and framed only by the console itself.
 */
export const PREVIEW_FRAME_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'self'; sandbox",
  'x-frame-options': 'SAMEORIGIN',
};

/** A page in the preview frame that only says why there is no preview. */
function frameMessage(text: string): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Preview</title></head>
<body><p style="font-family:system-ui,sans-serif;color:#1b1f24;margin:1rem">${text}</p></body></html>
`.value;
}

/** The editor page may frame the console's own preview; every other console page frames nothing. */
function allowOwnFrames(reply: FastifyReply): void {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy === 'string' && !policy.includes('frame-src')) reply.header('content-security-policy', `${policy}; frame-src 'self'`);
}

/** Which template a query or form names; what is left out is the first choice (the account's language for language). */
function readSelection(source: unknown, fallbackLanguage: string): TemplateSelection {
  const input = new FormInput(source);
  const selection = {
    trigger: input.oneOf('trigger', TRIGGERS) ?? 'delivered',
    channel: input.oneOf('channel', CHANNELS) ?? 'email',
    language: input.oneOf('language', LANGUAGES) ?? (isLanguage(fallbackLanguage) ? fallbackLanguage : 'en'),
  };
  if (input.hasErrors()) throw new ValidationError(input.fieldErrors());
  return selection;
}

function selectionQuery(selection: TemplateSelection, extra: Record<string, string> = {}): string {
  return new URLSearchParams({ trigger: selection.trigger, channel: selection.channel, language: selection.language, ...extra }).toString();
}

/** The subject and text as typed; an e-mail needs both, an SMS only its text. */
function readDraft(body: unknown, selection: TemplateSelection, problems: Problems): { subject: string; body: string } {
  const fields = formFields(body);
  const draft = { subject: typedText(fields, 'subject').trim(), body: typedText(fields, 'body') };
  for (const name of ['subject', 'body'] as const) {
    if (fields[name] !== undefined && typeof fields[name] !== 'string') problems.add(name, ['Send this field once.']);
  }
  if (selection.channel === 'email') {
    if (draft.subject === '') problems.add('subject', ['Enter a subject.']);
    else if (draft.subject.length > SUBJECT_MAX) problems.add('subject', [`Must be at most ${SUBJECT_MAX} characters.`]);
  }
  if (draft.body.trim() === '') problems.add('body', ['Enter the message text.']);
  else if (draft.body.length > BODY_MAX) problems.add('body', [`Must be at most ${BODY_MAX} characters.`]);
  return draft;
}

/**
 * Consumer notifications in the console: the settings form, the template editor with its preview, and the
 * framed e-mail preview. Everything goes through the services behind `/v5/notification/…`.
 */
export const notificationConsoleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { notificationSettings, notifications, secrets, clock } = app.context;
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  app.get<{ Querystring: QueryFields }>('/notifications/', async (request, reply) => {
    const session = sessionOf(request);
    const shown = await notificationSettings.shown(session.caller.accountId);
    return sendHtml(
      reply,
      200,
      renderNotificationSettings({
        session: session.view,
        values: storedValues(shown),
        emailAvailable: shown.email.available,
        authTokenSet: authTokenSet(shown),
        problems: {},
        summary: [],
        saved: request.query.saved === '1',
      }),
    );
  });

  app.post('/notifications/', async (request, reply) => {
    const session = sessionOf(request);
    const accountId = session.caller.accountId;
    const form = readSettingsForm(request.body);
    let problems = form.problems;
    if (form.input) {
      try {
        await notificationSettings.put(accountId, form.input);
        return reply.redirect('/console/notifications/?saved=1', 303);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        problems = settingsProblems(error.errors);
      }
    }
    const shown = await notificationSettings.shown(accountId);
    return sendHtml(
      reply,
      400,
      renderNotificationSettings({
        session: session.view,
        values: form.values,
        emailAvailable: shown.email.available,
        authTokenSet: authTokenSet(shown),
        problems: problems.byField,
        summary: problems.summary(),
        saved: false,
      }),
    );
  });

  /** The rendered message, and the address of its framed HTML (e-mail only, when the sealed text fits in one). */
  const preview = async (
    accountId: number,
    selection: TemplateSelection,
    draft: { subject: string; body: string } | null,
  ): Promise<TemplatePreview> => {
    const { trigger, channel, language } = selection;
    const given = draft ? { body: draft.body, ...(channel === 'email' ? { subject: draft.subject } : {}) } : {};
    const rendered = await notifications.preview(accountId, trigger, channel, language, given);
    let frameSrc: string | null = null;
    if (channel === 'email') {
      const ticket: PreviewTicket = { a: accountId, t: trigger, c: channel, l: language, e: nowSeconds() + PREVIEW_LIFETIME_SECONDS };
      if (draft) Object.assign(ticket, { s: draft.subject, b: draft.body });
      const sealed = sealPreview(secrets, ticket);
      if (sealed.length <= PREVIEW_TOKEN_MAX) frameSrc = `/console/notifications/preview/?${new URLSearchParams({ token: sealed })}`;
    }
    return { subject: rendered.subject, text: rendered.text, frameSrc, unsaved: draft !== null };
  };

  const showEditor = async (
    reply: FastifyReply,
    session: SignedIn,
    status: number,
    selection: TemplateSelection,
    options: { draft?: { subject: string; body: string }; problems?: Problems; preview?: TemplatePreview | null; notice?: TemplateNotice },
  ) => {
    const { trigger, channel, language } = selection;
    const template = await notifications.template(session.caller.accountId, trigger, channel, language);
    const problems = options.problems ?? new Problems();
    allowOwnFrames(reply);
    return sendHtml(
      reply,
      status,
      renderTemplateEditor({
        session: session.view,
        selection,
        draft: options.draft ?? { subject: template.subject ?? '', body: template.body },
        custom: template.custom,
        variables: template.variables,
        problems: problems.byField as FormProblems,
        summary: problems.summary(),
        preview: options.preview ?? null,
        notice: options.notice ?? null,
      }),
    );
  };

  app.get<{ Querystring: QueryFields }>('/notifications/templates/', async (request, reply) => {
    const session = sessionOf(request);
    const accountId = session.caller.accountId;
    const fallback = request.query.language ? 'en' : (await notificationSettings.shown(accountId)).default_language;
    const selection = readSelection(request.query, fallback);
    let shown: TemplatePreview | null = null;
    try {
      shown = await preview(accountId, selection, null);
    } catch (error) {
      // A saved template that no longer renders is shown for editing, without a preview.
      if (!(error instanceof ValidationError)) throw error;
    }
    const notice: TemplateNotice = request.query.saved === '1' ? 'saved' : request.query.reset === '1' ? 'reset' : null;
    return showEditor(reply, session, 200, selection, { preview: shown, notice });
  });

  app.post('/notifications/templates/', { bodyLimit: TEMPLATE_FORM_LIMIT }, async (request, reply) => {
    const session = sessionOf(request);
    const accountId = session.caller.accountId;
    const selection = readSelection(request.body, 'en');
    const problems = new Problems();
    const draft = readDraft(request.body, selection, problems);
    const action = formFields(request.body).action === 'save' ? 'save' : 'preview';
    if (!problems.empty) return showEditor(reply, session, 400, selection, { draft, problems });
    const { trigger, channel, language } = selection;
    try {
      if (action === 'save') {
        await notifications.putTemplate(accountId, trigger, channel, language, {
          subject: channel === 'email' ? draft.subject : null,
          body: draft.body,
        });
        return reply.redirect(`/console/notifications/templates/?${selectionQuery(selection, { saved: '1' })}`, 303);
      }
      return showEditor(reply, session, 200, selection, { draft, preview: await preview(accountId, selection, draft) });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.addErrors(error.errors);
      return showEditor(reply, session, 400, selection, { draft, problems });
    }
  });

  app.post('/notifications/templates/reset/', async (request, reply) => {
    const session = sessionOf(request);
    const selection = readSelection(request.body, 'en');
    await notifications.deleteTemplate(session.caller.accountId, selection.trigger, selection.channel, selection.language);
    return reply.redirect(`/console/notifications/templates/?${selectionQuery(selection, { reset: '1' })}`, 303);
  });

  /** The e-mail's HTML alone, for the editor's sandboxed frame: a sealed preview of this account, not expired. */
  app.get<{ Querystring: QueryFields }>('/notifications/preview/', async (request, reply) => {
    const session = sessionOf(request);
    reply.headers(PREVIEW_FRAME_HEADERS);
    const sealed = request.query.token;
    const ticket = typeof sealed === 'string' ? openPreview(secrets, sealed, nowSeconds()) : null;
    if (!ticket || ticket.a !== session.caller.accountId || ticket.c !== 'email') {
      return sendHtml(reply, 404, frameMessage('This preview has expired. Press Preview again.'));
    }
    const given = ticket.b !== undefined ? { subject: ticket.s, body: ticket.b } : {};
    try {
      const rendered = await notifications.preview(
        ticket.a,
        ticket.t as Trigger,
        'email',
        ticket.l as TemplateSelection['language'],
        given,
      );
      return sendHtml(reply, 200, rendered.html ?? frameMessage('This message has no HTML part.'));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return sendHtml(reply, 400, frameMessage('This template has mistakes; they are listed next to its fields.'));
    }
  });
};

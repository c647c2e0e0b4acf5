import { CHANNELS, type Channel, TRIGGERS, type Trigger } from '../../../core/notification-triggers.js';
import { LANGUAGES, type Language } from '../../../i18n/languages.js';
import { html, type SafeHtml } from '../html.js';
import { pill } from './console-format.js';
import { type ConsoleSession, csrfField, noticeBox, renderConsolePage } from './console-layout.js';
import {
  CHANNEL_LABELS,
  type FormProblems,
  fieldProblems,
  invalidAttributes,
  LANGUAGE_LABELS,
  TRIGGER_LABELS,
} from './notification-settings.html.js';

/** Which template the editor shows. */
export interface TemplateSelection {
  trigger: Trigger;
  channel: Channel;
  language: Language;
}

/** A rendered message: its subject (e-mail), plain text, and where its HTML is shown (e-mail, when it fits in an address). */
export interface TemplatePreview {
  subject: string | null;
  text: string;
  /** The address of the framed HTML preview; null for SMS, or when the text is too long to carry in one. */
  frameSrc: string | null;
  /** Whether it shows the text in the editor rather than the saved template. */
  unsaved: boolean;
}

export type TemplateNotice = 'saved' | 'reset' | null;

function selectionLink(selection: TemplateSelection): string {
  return `/console/notifications/templates/?${new URLSearchParams({ ...selection })}`;
}

function select<T extends string>(name: string, label: string, options: readonly T[], labels: Record<T, string>, chosen: T): SafeHtml {
  return html`<div><label for="pick_${name}">${label}</label><select id="pick_${name}" name="${name}">${options.map(
    (value) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${labels[value]}</option>`,
  )}</select></div>`;
}

function pickerForm(selection: TemplateSelection): SafeHtml {
  return html`<form class="card" method="get" action="/console/notifications/templates/" aria-label="Choose a template">
<div class="filters">
${select('trigger', 'Trigger', TRIGGERS, TRIGGER_LABELS, selection.trigger)}
${select('channel', 'Channel', CHANNELS, CHANNEL_LABELS, selection.channel)}
${select('language', 'Language', LANGUAGES, LANGUAGE_LABELS, selection.language)}
<div class="actions"><button type="submit">Open template</button></div>
</div>
</form>`;
}

function hiddenSelection(selection: TemplateSelection): SafeHtml {
  return html`<input type="hidden" name="trigger" value="${selection.trigger}"><input type="hidden" name="channel" value="${selection.channel}"><input type="hidden" name="language" value="${selection.language}">`;
}

function editorForm(input: {
  session: ConsoleSession;
  selection: TemplateSelection;
  draft: { subject: string; body: string };
  variables: readonly string[];
  problems: FormProblems;
  name: string;
  custom: boolean;
}): SafeHtml {
  const { selection, draft, problems } = input;
  const email = selection.channel === 'email';
  return html`<form class="card" method="post" action="/console/notifications/templates/" aria-labelledby="editor-heading">
<h2 id="editor-heading">${input.name} ${input.custom ? pill('your own', 'info') : pill('default')}</h2>
${csrfField(input.session)}${hiddenSelection(selection)}
${
  email
    ? html`<div class="field"><label for="subject">Subject</label>
<textarea id="subject" name="subject" rows="2" cols="90" maxlength="500" spellcheck="true"${invalidAttributes('subject', problems)}>
${draft.subject}</textarea>
${fieldProblems('subject', problems)}</div>`
    : ''
}
<div class="field"><label for="body">${email ? 'Message text' : 'SMS text'}</label>
<p class="muted" id="body-hint">${
    email
      ? 'Paragraphs are separated by an empty line. The tracking button, tracking number, carrier and unsubscribe link are added around it.'
      : 'Keep it short: long SMS are sent in several parts, each paid for.'
  }</p>
<textarea id="body" name="body" rows="14" cols="90" maxlength="20000" spellcheck="true"${
    problems.body?.length ? invalidAttributes('body', problems) : html` aria-describedby="body-hint"`
  }>
${draft.body}</textarea>
${fieldProblems('body', problems)}</div>
<div class="actions"><button type="submit" name="action" value="preview" class="secondary">Preview</button><button type="submit" name="action" value="save">Save</button></div>
${variablesList(input.variables)}
</form>`;
}

function variablesList(variables: readonly string[]): SafeHtml {
  return html`<h3 id="variables-heading">Variables</h3>
<p class="muted">Written in Liquid: <code>{{ shipment.tracking_number }}</code> writes a value, and
<code>{% if pickup.name != blank %}…{% endif %}</code> writes text only when there is one. These can be used:</p>
<p>${variables.map((name, i) => html`${i > 0 ? ' · ' : ''}<code>{{\u00a0${name}\u00a0}}</code>`)}</p>`;
}

/** Paragraphs split at empty lines, lines kept: plain text as it reads, wrapped to the page. */
function plainText(text: string): SafeHtml {
  const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim() !== '');
  return html`${paragraphs.map((paragraph) => html`<p>${paragraph.split('\n').map((line, i) => html`${i > 0 ? html`<br>` : ''}${line}`)}</p>`)}`;
}

function previewCard(selection: TemplateSelection, preview: TemplatePreview): SafeHtml {
  const email = selection.channel === 'email';
  return html`<section class="card" aria-labelledby="preview-heading" id="preview">
<h2 id="preview-heading">Preview <span class="muted">(${preview.unsaved ? 'the text above, not saved' : 'as saved'}; nothing is sent)</span></h2>
${
  email
    ? html`<dl class="facts"><dt>Subject</dt><dd data-preview="subject">${preview.subject ?? ''}</dd></dl>
<h3>E-mail</h3>
${
  preview.frameSrc
    ? html`<iframe class="preview" name="email-preview" title="E-mail preview" src="${preview.frameSrc}" sandbox width="100%" height="720" referrerpolicy="no-referrer"></iframe>`
    : noticeBox('info', 'This text is too long to preview as HTML before it is saved.', [
        'The plain text below is how it reads. Save it to see the e-mail as it renders.',
      ])
}
<h3>Plain text part</h3>`
    : html`<h3>SMS text <span class="muted">(${[...preview.text].length} characters)</span></h3>`
}
<div class="card" data-preview="text">${plainText(preview.text)}</div>
</section>`;
}

/**
 * The template editor: choose a trigger, channel and language; edit the subject and text; preview the unsaved
 * text (subject, the e-mail's HTML in a sandboxed frame, its plain text part); save it or go back to the default.
 */
export function renderTemplateEditor(input: {
  session: ConsoleSession;
  selection: TemplateSelection;
  draft: { subject: string; body: string };
  custom: boolean;
  variables: readonly string[];
  problems: FormProblems;
  summary: string[];
  preview: TemplatePreview | null;
  notice: TemplateNotice;
}): string {
  const { selection, session } = input;
  const name = `${TRIGGER_LABELS[selection.trigger]} · ${CHANNEL_LABELS[selection.channel]} · ${LANGUAGE_LABELS[selection.language]}`;
  const body = html`<p><a href="/console/notifications/">← Notifications</a></p>
<h1>Message templates</h1>
${pickerForm(selection)}
${input.notice === 'saved' ? noticeBox('ok', 'Template saved.') : ''}
${input.notice === 'reset' ? noticeBox('ok', 'Template reset: the default text is used again.') : ''}
${input.summary.length ? noticeBox('alert', 'The template has mistakes. Check these fields:', input.summary) : ''}
${editorForm({ ...input, name })}
${
  input.custom
    ? html`<form class="actions" method="post" action="/console/notifications/templates/reset/">${csrfField(session)}${hiddenSelection(selection)}
<button type="submit" class="danger">Reset to default</button><span class="muted">Deletes your text for this trigger, channel and language.</span></form>`
    : html`<p class="muted">This is the default text. Saving makes it your own; you can reset it to the default later.</p>`
}
${input.preview ? previewCard(selection, input.preview) : ''}
<p><a href="${selectionLink(selection)}">Reload the saved template</a></p>`;
  return renderConsolePage({ title: `Template: ${name}`, body, session, section: 'notifications' });
}

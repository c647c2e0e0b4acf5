import { LANGUAGES, type Language } from '../../../i18n/languages.js';
import type { REFUND_METHODS, RETURN_METHODS } from '../../../schemas/returns.schemas.js';
import { html, type SafeHtml } from '../html.js';
import { pill, serviceTime } from './console-format.js';
import { type ConsoleSession, csrfField, noticeBox, renderConsolePage } from './console-layout.js';
import { fieldProblems, LANGUAGE_LABELS } from './notification-settings.html.js';

/** Messages by form field name (the `name` and `id` of the input they belong to). */
export type PolicyProblems = Readonly<Record<string, readonly string[]>>;

export const RETURN_METHOD_LABELS: Record<(typeof RETURN_METHODS)[number], string> = {
  drop_off: 'Drop-off at a parcel point',
  pick_up: 'Pick-up by the carrier',
  send_by_consumer: 'Sent by the consumer themselves',
  return_to_store: 'Brought back to a store',
};

export const REFUND_METHOD_LABELS: Record<(typeof REFUND_METHODS)[number], string> = {
  original_payment: 'Refund to the original payment',
  store_credit: 'Store credit',
  exchange: 'Exchange for another item',
};

/** One row of the reasons table, as stored or as sent back. */
export interface ReasonRow {
  code: string;
  label: string;
  translations: Record<Language, string>;
  remove: boolean;
}

/** The policy form's values: as stored, or as sent back when they were not accepted. */
export interface PolicyFormValues {
  enabled: boolean;
  portal_name: string;
  primary_color: string;
  logo_url: string;
  return_window_days: string;
  return_methods: readonly string[];
  refund_methods: readonly string[];
  reasons: readonly ReasonRow[];
  auto_approval_enabled: boolean;
  max_value_amount: string;
  max_value_currency: string;
  non_returnable_product_ids: string;
  non_returnable_product_references: string;
  non_returnable_categories: string;
}

/** The form field of a reason's part: `reason_3_code`, `reason_3_de`, `reason_3_remove`. */
export function reasonField(row: number, part: 'code' | 'label' | 'remove' | Language): string {
  return `reason_${row}_${part}`;
}

/** How a form field is named to a person (the summary at the top of the form says which field a message is about). */
export function fieldLabel(field: string): string {
  const reason = /^reason_(\d+)_(\w+)$/.exec(field);
  if (reason) {
    const part = reason[2];
    const what = part === 'code' ? 'code' : part === 'label' ? 'label' : (LANGUAGE_LABELS[part as Language] ?? part);
    return `Reason ${Number(reason[1]) + 1} ${what}`;
  }
  return FIELD_LABELS[field] ?? '';
}

/** In the order of the form. */
const FIELD_LABELS: Record<string, string> = {
  enabled: 'Returns portal',
  portal_name: 'Portal name',
  primary_color: 'Colour',
  logo_url: 'Logo URL',
  return_window_days: 'Return window',
  auto_approval_enabled: 'Approve at once',
  max_value_amount: 'Maximum value',
  max_value_currency: 'Currency of the maximum value',
  return_methods: 'Return methods',
  refund_methods: 'Refund methods',
  reasons: 'Reasons',
  non_returnable_product_ids: 'Product ids',
  non_returnable_product_references: 'Product references',
  non_returnable_categories: 'Categories',
};

/** The order of the form, for the summary of problems. */
export const FORM_ORDER = Object.keys(FIELD_LABELS);

function problemId(field: string): string {
  return `${field}-problem`;
}

/**
 * Described by its messages and its hint (either may be absent), and invalid when it has messages (a field;
 * a group of fields, `container`, is only described).
 */
function describedBy(field: string, problems: PolicyProblems, hintId?: string, container = false): SafeHtml {
  const invalid = Boolean(problems[field]?.length);
  const ids = [invalid ? problemId(field) : null, hintId ?? null].filter((id) => id !== null);
  return html`${invalid && !container ? html` aria-invalid="true"` : ''}${ids.length ? html` aria-describedby="${ids.join(' ')}"` : ''}`;
}

function hint(id: string, text: string): SafeHtml {
  return html`<p class="muted" id="${id}">${text}</p>`;
}

function textField(
  name: keyof PolicyFormValues,
  label: string,
  values: PolicyFormValues,
  problems: PolicyProblems,
  extra: { type?: string; maxlength: number; hint?: string; inputmode?: string; spellcheck?: boolean },
): SafeHtml {
  const hintId = extra.hint ? `${name}-hint` : undefined;
  return html`<div class="field"><label for="${name}">${label}</label>
${extra.hint && hintId ? hint(hintId, extra.hint) : ''}<input id="${name}" name="${name}" type="${extra.type ?? 'text'}" maxlength="${extra.maxlength}" value="${String(values[name])}" autocomplete="off" spellcheck="${extra.spellcheck ? 'true' : 'false'}"${
    extra.inputmode ? html` inputmode="${extra.inputmode}"` : ''
  }${describedBy(name, problems, hintId)}>
${fieldProblems(name, problems)}</div>`;
}

function yesNo(
  name: 'enabled' | 'auto_approval_enabled',
  label: string,
  on: boolean,
  choices: { on: string; off: string },
  problems: PolicyProblems,
  hintText: string,
): SafeHtml {
  const hintId = `${name}-hint`;
  return html`<div class="field"><label for="${name}">${label}</label>
${hint(hintId, hintText)}<select id="${name}" name="${name}"${describedBy(name, problems, hintId)}>
<option value="on"${on ? html` selected` : ''}>${choices.on}</option>
<option value="off"${on ? '' : html` selected`}>${choices.off}</option>
</select>
${fieldProblems(name, problems)}</div>`;
}

function methodTable(
  name: 'return_methods' | 'refund_methods',
  caption: string,
  labels: Record<string, string>,
  ticked: readonly string[],
  problems: PolicyProblems,
  hintText: string,
): SafeHtml {
  const hintId = `${name}-hint`;
  return html`<fieldset class="field" id="${name}"${describedBy(name, problems, hintId, true)}>
<legend><strong>${caption}</strong></legend>
${hint(hintId, hintText)}<div class="table-wrap"><table>
<caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">Method</th><th scope="col">Offered</th></tr></thead>
<tbody>${Object.entries(labels).map(
    ([method, label]) => html`<tr><th scope="row"><label for="${name}_${method}">${label}</label></th>
<td><input type="checkbox" id="${name}_${method}" name="${name}" value="${method}"${ticked.includes(method) ? html` checked` : ''}${
      problems[name]?.length ? html` aria-invalid="true" aria-describedby="${problemId(name)}"` : ''
    }></td></tr>
`,
  )}</tbody></table></div>
${fieldProblems(name, problems)}</fieldset>`;
}

/** A cell of the reasons table: a text input with its (visually hidden) label and its messages under it. */
function reasonCell(row: number, part: 'code' | 'label' | Language, value: string, problems: PolicyProblems): SafeHtml {
  const name = reasonField(row, part);
  const maxlength = part === 'code' ? 40 : 200;
  return html`<td><label class="visually-hidden" for="${name}">${fieldLabel(name)}</label><input id="${name}" name="${name}" type="text" maxlength="${maxlength}" value="${value}" autocomplete="off" spellcheck="${part === 'code' ? 'false' : 'true'}"${
    part !== 'code' && part !== 'label' ? html` lang="${part}"` : ''
  }${describedBy(name, problems)}>${fieldProblems(name, problems)}</td>`;
}

function reasonsCard(values: PolicyFormValues, problems: PolicyProblems): SafeHtml {
  return html`<section class="card" aria-labelledby="reasons-heading">
<h2 id="reasons-heading">Reasons for returning</h2>
<p class="muted" id="reasons-hint">The consumer picks one for each item, in the portal's language: its translation, or the label when there is none. The code is stored on the return (lower-case letters, digits and _, each code once). Fill in an empty row to add a reason (save to get more empty rows); tick Remove to take one out. From 1 to 30 reasons.</p>
${fieldProblems('reasons', problems)}
<div class="table-wrap"><table id="reasons"${describedBy('reasons', problems, 'reasons-hint', true)}>
<caption class="visually-hidden">Reasons, in the order the portal lists them</caption>
<thead><tr><th scope="col">Code</th><th scope="col">Label</th>${LANGUAGES.map(
    (language) => html`<th scope="col">${LANGUAGE_LABELS[language]}</th>`,
  )}<th scope="col">Remove</th></tr></thead>
<tbody>
${values.reasons.map((reason, row) => {
  const remove = reasonField(row, 'remove');
  return html`<tr data-reason="${row}">${reasonCell(row, 'code', reason.code, problems)}${reasonCell(row, 'label', reason.label, problems)}${LANGUAGES.map(
    (language) => reasonCell(row, language, reason.translations[language], problems),
  )}<td><input type="checkbox" id="${remove}" name="${remove}" value="on"${reason.remove ? html` checked` : ''}><label class="visually-hidden" for="${remove}">Remove reason ${row + 1}</label></td></tr>
`;
})}</tbody></table></div>
</section>`;
}

function listField(
  name: 'non_returnable_product_ids' | 'non_returnable_product_references' | 'non_returnable_categories',
  label: string,
  value: string,
  problems: PolicyProblems,
  hintText: string,
): SafeHtml {
  const hintId = `${name}-hint`;
  return html`<div class="field"><label for="${name}">${label}</label>
${hint(hintId, hintText)}<textarea id="${name}" name="${name}" rows="5" cols="40" spellcheck="false"${describedBy(name, problems, hintId)}>
${value}</textarea>
${fieldProblems(name, problems)}</div>`;
}

/** What the page says of the portal as saved: its address, whether it is on, when the policy was saved. */
export interface PortalState {
  url: string;
  enabled: boolean;
  updatedAt: string | null;
}

function portalCard(portal: PortalState): SafeHtml {
  return html`<section class="card" aria-labelledby="portal-heading">
<h2 id="portal-heading">Your returns portal</h2>
<dl class="facts">
<dt>Address</dt><dd><a href="${portal.url}" data-portal-url>${portal.url}</a></dd>
<dt>State</dt><dd>${portal.enabled ? pill('on: takes returns', 'ok') : pill('off: takes no returns', 'alert')}</dd>
<dt>Last saved</dt><dd>${portal.updatedAt ? serviceTime(portal.updatedAt) : html`never (the default policy)`}</dd>
</dl>
<p class="muted">Link to this address from your shop and your order e-mails. It stays the same when you change the policy.</p>
</section>`;
}

/** The returns policy: the portal's address and state, and the form of every setting the portal follows. */
export function renderReturnPolicy(input: {
  session: ConsoleSession;
  portal: PortalState;
  values: PolicyFormValues;
  problems: PolicyProblems;
  /** Every problem as a line, for the summary at the top. */
  summary: string[];
  saved: boolean;
}): string {
  const { values, problems } = input;
  const body = html`<h1>Returns policy</h1>
<p>What consumers can return through your returns portal, and how it looks. <a href="/console/returns/">See the returns</a></p>
${input.saved ? noticeBox('ok', 'Policy saved.') : ''}
${input.summary.length ? noticeBox('alert', 'The policy was not saved. Check these fields:', input.summary) : ''}
${portalCard(input.portal)}
<form method="post" action="/console/returns/policy/" novalidate>
${csrfField(input.session)}
<div class="grid">
<section class="card" aria-labelledby="look-heading">
<h2 id="look-heading">Portal</h2>
${yesNo('enabled', 'Returns portal', values.enabled, { on: 'On: consumers can request returns', off: 'Off: the portal takes no returns' }, problems, 'Off, the portal says that returns are not taken there.')}
${textField('portal_name', 'Portal name', values, problems, { maxlength: 100, hint: "The portal's title; your account's name when empty.", spellcheck: true })}
${textField('primary_color', 'Colour', values, problems, { maxlength: 7, hint: 'The colour of the portal’s header and buttons: # and six hexadecimal digits, such as #1f4e79.' })}
${textField('logo_url', 'Logo URL', values, problems, { type: 'url', maxlength: 2000, hint: 'An https address of your logo image; no logo when empty.' })}
</section>
<section class="card" aria-labelledby="window-heading">
<h2 id="window-heading">Window and approval</h2>
${textField('return_window_days', 'Return window (days)', values, problems, {
  maxlength: 3,
  inputmode: 'numeric',
  hint: 'How many days after delivery an item can be returned: from 1 to 365.',
})}
${yesNo('auto_approval_enabled', 'Approve at once', values.auto_approval_enabled, { on: 'Yes: within the window and up to the maximum value', off: 'No: every return waits for your approval' }, problems, 'Returns not approved at once wait, pending approval, on the Returns page.')}
${textField('max_value_amount', 'Maximum value', values, problems, {
  maxlength: 17,
  inputmode: 'decimal',
  hint: 'Returns worth more wait for your approval; any value when empty. Such as 150 or 99.95.',
})}
${textField('max_value_currency', 'Currency of the maximum value', values, problems, { maxlength: 3, hint: 'ISO 4217, such as EUR.' })}
</section>
</div>
<section class="card" aria-labelledby="methods-heading">
<h2 id="methods-heading">Methods</h2>
<div class="grid">
${methodTable('return_methods', 'Return methods', RETURN_METHOD_LABELS, values.return_methods, problems, 'How the consumer can send items back: at least one.')}
${methodTable('refund_methods', 'Refund methods', REFUND_METHOD_LABELS, values.refund_methods, problems, 'What the consumer can choose to get back: at least one.')}
</div>
</section>
${reasonsCard(values, problems)}
<section class="card" aria-labelledby="non-returnable-heading">
<h2 id="non-returnable-heading">Products that cannot be returned</h2>
<p class="muted">An order's items that match any of these are shown in the portal but cannot be returned. One per line, up to 1,000 of each.</p>
<div class="grid">
${listField('non_returnable_product_ids', 'Product ids', values.non_returnable_product_ids, problems, 'The product_id of line items; up to 50 characters each.')}
${listField('non_returnable_product_references', 'Product references', values.non_returnable_product_references, problems, 'The product_reference (SKU) of line items; up to 50 characters each.')}
${listField('non_returnable_categories', 'Categories', values.non_returnable_categories, problems, 'The category of line items; up to 500 characters each.')}
</div>
</section>
<div class="actions"><button type="submit">Save policy</button><a class="button secondary" href="/console/returns/policy/">Discard changes</a></div>
</form>`;
  return renderConsolePage({ title: 'Returns policy', body, session: input.session, section: 'return-policy' });
}

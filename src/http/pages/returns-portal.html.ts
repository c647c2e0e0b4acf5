import type { ReturnPolicy } from '../../domain/returns/return-policy.js';
import { reasonText } from '../../domain/returns/return-reasons.js';
import { PORTAL_STEPS } from '../../domain/returns-portal/portal-status.js';
import type { PortalFormErrors, PortalOrder, PortalReturnView } from '../../domain/returns-portal/returns-portal.service.js';
import { html, type SafeHtml } from './html.js';
import { type PortalFrame, renderPortalPage, t } from './returns-portal-layout.js';

/** An error tied to its field: the message's id is in the field's aria-describedby. */
function fieldError(id: string, message: string | null): SafeHtml | '' {
  return message ? html`<p class="error" id="${id}-error">${message}</p>` : '';
}

function describedBy(id: string, message: string | null, hint?: string): SafeHtml | '' {
  const ids = [hint, message ? `${id}-error` : null].filter(Boolean).join(' ');
  return ids ? html` aria-describedby="${ids}"${message ? html` aria-invalid="true"` : ''}` : '';
}

/** The first page: find the order by its number and the e-mail address or postal code it went to. */
export function renderFindPage(
  frame: PortalFrame,
  input: {
    order: string;
    contact: string;
    problem: 'not_found' | 'too_many_attempts' | 'expired' | 'required' | null;
    waitSeconds?: number;
  },
): string {
  const l = frame.language;
  const missing = input.problem === 'required';
  const orderError = missing && input.order.trim() === '' ? t(l, 'required') : null;
  const contactError = missing && input.contact.trim() === '' ? t(l, 'required') : null;
  const notice =
    input.problem === 'not_found' || input.problem === 'expired'
      ? t(l, input.problem)
      : input.problem === 'too_many_attempts'
        ? t(l, 'too_many_attempts', { seconds: String(input.waitSeconds ?? 60) })
        : null;
  const content = html`<h1>${t(l, 'find_heading')}</h1>
${notice ? html`<p class="notice" role="alert">${notice}</p>` : ''}
<form class="card" method="post" action="${frame.base}/find" novalidate>
<input type="hidden" name="lang" value="${l}">
<p class="hint" id="find-intro">${t(l, 'find_intro')}</p>
<div class="field"><label for="order">${t(l, 'order_number')}</label>
<input type="text" id="order" name="order" value="${input.order}" autocomplete="off" maxlength="50" required${describedBy('order', orderError, 'find-intro')}>
${fieldError('order', orderError)}</div>
<div class="field"><label for="contact">${t(l, 'contact')}</label>
<input type="text" id="contact" name="contact" value="${input.contact}" autocomplete="email" maxlength="100" required${describedBy('contact', contactError)}>
${fieldError('contact', contactError)}</div>
<button type="submit">${t(l, 'find_submit')}</button>
</form>`;
  return renderPortalPage(frame, t(l, 'find_heading'), content);
}

function errorText(frame: PortalFrame, errors: PortalFormErrors, field: string): string | null {
  const error = errors[field];
  return error ? t(frame.language, error.key, error.values) : null;
}

/** The second page: the order's items, each with a quantity and a reason, then methods and a comment. */
export function renderChoosePage(
  frame: PortalFrame,
  policy: ReturnPolicy,
  order: PortalOrder,
  errors: PortalFormErrors = {},
  sent: Readonly<Record<string, string | undefined>> = {},
): string {
  const l = frame.language;
  const anyReturnable = order.items.some((item) => item.not_returnable === null);
  const itemsError = errorText(frame, errors, 'items');
  const items = order.items.map((item, index) => {
    const id = `item_${index}`;
    const quantityError = errorText(frame, errors, `${id}_quantity`);
    const reasonError = errorText(frame, errors, `${id}_reason`);
    const chosenQuantity = sent[`${id}_quantity`] ?? '0';
    const chosenReason = sent[`${id}_reason`] ?? '';
    const heading = html`<h3 id="${id}-name">${item.name}</h3>`;
    if (item.not_returnable !== null) {
      return html`<div class="item" data-item="${item.key}">${heading}<p class="muted">${t(l, item.not_returnable)}</p>${fieldError(`${id}_quantity`, quantityError)}</div>`;
    }
    const quantities = Array.from({ length: item.returnable + 1 }, (_, n) => n);
    return html`<div class="item" data-item="${item.key}">${heading}
<input type="hidden" name="${id}_key" value="${item.key}">
${item.return_by ? html`<p class="hint">${t(l, 'return_by', { date: item.return_by })}</p>` : ''}
<div class="row">
<div class="field"><label for="${id}_quantity">${t(l, 'quantity')}<span class="visually-hidden"> – ${item.name}</span></label>
<select id="${id}_quantity" name="${id}_quantity"${describedBy(`${id}_quantity`, quantityError, `${id}-hint`)}>
${quantities.map((n) => html`<option value="${n}"${String(n) === chosenQuantity ? html` selected` : ''}>${n}</option>`)}
</select>
<p class="hint" id="${id}-hint">${t(l, 'quantity_hint', { max: String(item.returnable) })}</p>
${fieldError(`${id}_quantity`, quantityError)}</div>
<div class="field"><label for="${id}_reason">${t(l, 'reason')}<span class="visually-hidden"> – ${item.name}</span></label>
<select id="${id}_reason" name="${id}_reason"${describedBy(`${id}_reason`, reasonError)}>
<option value="">${t(l, 'choose_reason')}</option>
${policy.reasons.map(
  (reason) => html`<option value="${reason.code}"${reason.code === chosenReason ? html` selected` : ''}>${reasonText(reason, l)}</option>`,
)}
</select>
${fieldError(`${id}_reason`, reasonError)}</div>
</div></div>`;
  });
  const methods = (field: 'return_method' | 'refund_method', offered: readonly string[], prefix: 'method' | 'refund') => {
    if (offered.length < 2) return '';
    const error = errorText(frame, errors, field);
    return html`<fieldset${describedBy(field, error)}><legend>${t(l, field)}</legend>
${offered.map(
  (value) =>
    html`<label class="choice"><input type="radio" name="${field}" value="${value}"${sent[field] === value ? html` checked` : ''}> ${t(l, `${prefix}.${value}`)}</label>`,
)}
${fieldError(field, error)}</fieldset>`;
  };
  const commentError = errorText(frame, errors, 'comment');
  const content = html`<h1>${t(l, 'choose_heading')}</h1>
<p>${t(l, 'order', { order: order.orderId })}</p>
${Object.keys(errors).length > 0 ? html`<p class="notice" role="alert" id="items-error">${itemsError ?? t(l, 'form_errors')}</p>` : ''}
${anyReturnable ? '' : html`<p class="notice info">${t(l, 'nothing_returnable')}</p>`}
<form method="post" action="${frame.base}/order/${order.token}" novalidate>
<input type="hidden" name="form_id" value="${order.formId}">
<input type="hidden" name="lang" value="${l}">
<section class="card" aria-labelledby="items-heading"><h2 id="items-heading">${t(l, 'items')}</h2>
${items}
</section>
${
  anyReturnable
    ? html`<section class="card">
${methods('return_method', policy.return_methods, 'method')}
${methods('refund_method', policy.refund_methods, 'refund')}
<div class="field"><label for="comment">${t(l, 'comment')}</label>
<textarea id="comment" name="comment" rows="3" maxlength="2000"${describedBy('comment', commentError)}>${sent.comment ?? ''}</textarea>
${fieldError('comment', commentError)}</div>
<button type="submit">${t(l, 'submit')}</button>
</section>`
    : ''
}
</form>`;
  return renderPortalPage(frame, t(l, 'choose_heading'), content);
}

/** A return's page: where it stands, its label, where to send it, and what is in it. */
export function renderStatusPage(
  frame: PortalFrame,
  policy: ReturnPolicy,
  view: PortalReturnView,
  options: { labelFailed?: boolean } = {},
): string {
  const l = frame.language;
  const stopped = view.status === 'rejected' || view.status === 'cancelled';
  const current = stopped ? -1 : PORTAL_STEPS.indexOf(view.status as (typeof PORTAL_STEPS)[number]);
  const stateText = { done: t(l, 'step_done'), current: t(l, 'step_current'), upcoming: t(l, 'step_upcoming') };
  const reasons = new Map(policy.reasons.map((reason) => [reason.code, reasonText(reason, l)]));
  const address = view.sendTo as Record<string, string | undefined> | null;
  const content = html`<h1>${t(l, 'status_heading')}</h1>
<section class="card" aria-labelledby="state-heading">
<h2 id="state-heading" data-status="${view.status}">${t(l, `status.${view.status}`)}</h2>
${
  stopped
    ? ''
    : html`<ol class="progress" aria-label="${t(l, 'progress')}">
${PORTAL_STEPS.map((step, index) => {
  const state = index < current ? 'done' : index === current ? 'current' : 'upcoming';
  return html`<li class="${state}"${state === 'current' ? html` aria-current="step"` : ''}>${t(l, `status.${step}`)}<span class="visually-hidden"> (${stateText[state]})</span></li>`;
})}
</ol>`
}
<p role="status">${t(l, `explain.${view.status}`)}</p>
${view.rejectReason ? html`<p>${t(l, 'reject_reason', { reason: view.rejectReason })}</p>` : ''}
${view.labels.map((label) => html`<p><a class="button" href="${label.url}" download>${t(l, 'download_label', { format: label.format })}</a></p>`)}
${view.labelPending ? html`<p class="notice info">${t(l, 'label_pending')}</p>` : ''}
${options.labelFailed && view.canRequestLabel ? html`<p class="notice" role="alert">${t(l, 'label_failed')}</p>` : ''}
${
  view.canRequestLabel
    ? html`<form method="post" action="${frame.path}/label"><input type="hidden" name="lang" value="${l}"><button type="submit">${t(l, 'get_label')}</button></form>`
    : ''
}
${view.trackingPageReference ? html`<p><a href="/t/${view.trackingPageReference}?lang=${l}">${t(l, 'track')}</a></p>` : ''}
</section>
${
  view.dropOffPoints.length > 0
    ? html`<section class="card" aria-labelledby="points-heading"><h2 id="points-heading">${t(l, 'drop_off_points')}</h2>
<ul class="points">
${view.dropOffPoints.map(
  (point) =>
    html`<li><strong>${point.name}</strong><br>${point.address}<br><span class="muted">${t(l, 'distance', { km: (point.distance_meters / 1000).toFixed(1) })}</span></li>`,
)}
</ul></section>`
    : ''
}
<section class="card" aria-labelledby="facts-heading">
<h2 id="facts-heading">${t(l, 'items')}</h2>
<dl class="facts">
${view.returnId ? html`<dt>${t(l, 'return_number')}</dt><dd>${view.returnId}</dd>` : ''}
${view.items.map((item) => html`<dt>${item.quantity} × ${item.name}</dt><dd>${item.reason ? (reasons.get(item.reason) ?? item.reason) : ''}</dd>`)}
</dl>
</section>
${
  address && !stopped && view.status !== 'received' && view.status !== 'refunded'
    ? html`<section class="card" aria-labelledby="send-heading"><h2 id="send-heading">${t(l, 'send_to')}</h2>
<address>${[
        address.company,
        [address.first_name, address.last_name].filter(Boolean).join(' '),
        // The lines as given, else the street and number.
        ...(address.line1 || address.line2 || address.line3
          ? [address.line1, address.line2, address.line3]
          : [[address.street_name, address.house_number].filter(Boolean).join(' ')]),
        [address.postal_code, address.city].filter(Boolean).join(' '),
        address.country ?? address.country_code,
      ]
        .filter((line) => typeof line === 'string' && line.trim() !== '')
        .map((line) => html`${line}<br>`)}</address></section>`
    : ''
}`;
  return renderPortalPage(frame, t(l, 'status_heading'), content);
}

/** A portal page that does not exist (no portal, portal off, unknown return). */
export function renderPortalNotFound(frame: PortalFrame, returnMissing = false): string {
  const l = frame.language;
  const content = html`<h1>${t(l, 'not_found_title')}</h1><p>${returnMissing ? t(l, 'return_not_found') : t(l, 'not_found_text')}</p>`;
  return renderPortalPage(frame, t(l, 'not_found_title'), content);
}

import { RETURN_STATUSES } from '../../../core/return-status.js';
import { html, type SafeHtml } from '../html.js';
import { pill, serviceTime } from './console-format.js';
import { type ConsoleSession, csrfField, noticeBox, renderConsolePage } from './console-layout.js';

export interface ReturnsNotice {
  kind: 'ok' | 'alert';
  title: string;
  lines: string[];
}

type Ticket = Record<string, any> & { allowed_next: readonly string[] };

function actions(ticket: Ticket, session: ConsoleSession): SafeHtml {
  const canApprove = ticket.allowed_next.includes('approved');
  const canReject = ticket.allowed_next.includes('rejected');
  if (!canApprove && !canReject) return html`<span class="muted">No action</span>`;
  const action = `/console/returns/${ticket.return_uuid}/status/`;
  const label = ticket.return_id ?? ticket.return_uuid;
  return html`${
    canApprove
      ? html`<form class="inline" method="post" action="${action}">${csrfField(session)}<input type="hidden" name="return_status" value="approved"><button type="submit" aria-label="Approve return ${label}">Approve</button></form>`
      : ''
  }${
    canReject
      ? html`<form class="inline" method="post" action="${action}">${csrfField(session)}<input type="hidden" name="return_status" value="rejected">
<label class="visually-hidden" for="reason-${ticket.return_uuid}">Reason to reject return ${label}</label>
<input id="reason-${ticket.return_uuid}" name="reject_reason" maxlength="1000" placeholder="Reason to reject">
<button type="submit" class="danger" aria-label="Reject return ${label}">Reject</button></form>`
      : ''
  }`;
}

function row(ticket: Ticket, session: ConsoleSession): SafeHtml {
  return html`<tr data-return="${ticket.return_uuid}">
<td>${ticket.return_id ?? html`<code>${ticket.return_uuid}</code>`}</td>
<td><a href="/console/shipments/${ticket.shipment_uuid}/">${ticket.shipment_id}</a></td>
<td>${pill(ticket.return_status)}${ticket.reject_reason ? html`<br><span class="muted">${ticket.reject_reason}</span>` : ''}</td>
<td>${ticket.total_refund_amount ?? '–'}</td>
<td>${ticket.comment ?? '–'}</td>
<td>${serviceTime(ticket.requested_date)}</td>
<td>${actions(ticket, session)}</td>
</tr>`;
}

export function renderReturns(input: {
  session: ConsoleSession;
  filter: { status?: string; before?: number };
  page: { data: Ticket[]; next: number | null };
  notice: ReturnsNotice | null;
}): string {
  const { filter, page, session } = input;
  const statusLink = (before: number) => {
    const params = new URLSearchParams({ ...(filter.status ? { status: filter.status } : {}), before: String(before) });
    return `/console/returns/?${params}`;
  };
  const body = html`<h1>Returns</h1>
${input.notice ? noticeBox(input.notice.kind, input.notice.title, input.notice.lines) : ''}
<form class="card" method="get" action="/console/returns/"><div class="filters">
<div><label for="status">Status</label><select id="status" name="status"><option value="">Any status</option>${RETURN_STATUSES.map(
    (status) => html`<option value="${status}"${status === filter.status ? html` selected` : ''}>${status}</option>`,
  )}</select></div>
<div class="actions"><button type="submit">Show</button></div>
</div></form>
${
  page.data.length === 0
    ? noticeBox('info', 'No returns to show.')
    : html`<div class="table-wrap"><table>
<caption class="visually-hidden">Returns, newest first</caption>
<thead><tr><th scope="col">Return</th><th scope="col">Shipment</th><th scope="col">State</th><th scope="col">Refund</th><th scope="col">Comment</th><th scope="col">Requested</th><th scope="col">Actions</th></tr></thead>
<tbody>
${page.data.map((ticket) => row(ticket, session))}</tbody>
</table></div>`
}
<nav class="pager" aria-label="Pages">
${filter.before ? html`<a href="/console/returns/${filter.status ? `?status=${encodeURIComponent(filter.status)}` : ''}">First page</a>` : ''}
${page.next ? html`<a href="${statusLink(page.next)}" rel="next">Next page</a>` : ''}
</nav>`;
  return renderConsolePage({ title: 'Returns', body, session, section: 'returns' });
}

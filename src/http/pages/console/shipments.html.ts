import { SHIPMENT_STATUSES, type ShipmentStatus } from '../../../core/shipment-status.js';
import { html, type SafeHtml } from '../html.js';
import { eventTime, pill, serviceTime } from './console-format.js';
import { type ConsoleSession, noticeBox, renderConsolePage } from './console-layout.js';

export type SearchField = 'tracking_number' | 'shipment_id' | 'order_id' | 'carrier_reference' | 'tag';

export const SEARCH_FIELDS: Array<[SearchField, string]> = [
  ['tracking_number', 'Tracking number'],
  ['shipment_id', 'Shipment id'],
  ['order_id', 'Order id'],
  ['carrier_reference', 'Carrier reference'],
  ['tag', 'Tag'],
];

/** The console's list form: one search (exact match on the chosen field) and the list's other filters. */
export interface ListFilters {
  search_by: SearchField;
  q?: string;
  status?: ShipmentStatus;
  created_date_from?: string;
  created_date_to?: string;
  updated_date_from?: string;
  updated_date_to?: string;
  next_page?: string;
}

type Shipment = Record<string, any>;

function option(value: string, label: string, selected: string | undefined): SafeHtml {
  return html`<option value="${value}"${value === selected ? html` selected` : ''}>${label}</option>`;
}

function dateInput(name: keyof ListFilters, label: string, filters: ListFilters): SafeHtml {
  return html`<div><label for="${name}">${label}</label><input id="${name}" name="${name}" type="date" value="${filters[name] ?? ''}"></div>`;
}

function filterForm(filters: ListFilters): SafeHtml {
  return html`<form class="card" method="get" action="/console/shipments/" role="search" aria-label="Shipments">
<div class="filters">
<div><label for="search_by">Search in</label><select id="search_by" name="search_by">${SEARCH_FIELDS.map(([key, label]) =>
    option(key, label, filters.search_by),
  )}</select></div>
<div><label for="q">Search for</label><input id="q" name="q" type="search" maxlength="100" value="${filters.q ?? ''}" spellcheck="false"></div>
<div><label for="status">Status</label><select id="status" name="status">${option('', 'Any status', filters.status ?? '')}${SHIPMENT_STATUSES.map(
    (status) => option(status, status, filters.status),
  )}</select></div>
${dateInput('created_date_from', 'Created from', filters)}
${dateInput('created_date_to', 'Created until', filters)}
${dateInput('updated_date_from', 'Updated from', filters)}
${dateInput('updated_date_to', 'Updated until', filters)}
<div class="actions"><button type="submit">Search</button><a class="button secondary" href="/console/shipments/">Clear</a></div>
</div>
</form>`;
}

function row(shipment: Shipment): SafeHtml {
  const latest = shipment.all_events?.[0];
  return html`<tr>
<td><a href="/console/shipments/${shipment.shipment_uuid}/">${shipment.shipment_id}</a></td>
<td>${shipment.tracking_number ? html`<code>${shipment.tracking_number}</code>` : html`<span class="muted">–</span>`}</td>
<td>${shipment.carrier?.name ?? shipment.carrier_reference ?? '–'}</td>
<td>${pill(shipment.status)}</td>
<td>${shipment.current_phase?.name ?? '–'}</td>
<td>${latest ? html`${latest.event}<br><span class="muted">${eventTime(latest.time, latest.timezone)}</span>` : html`<span class="muted">No events yet</span>`}</td>
<td>${shipment.order?.order_id ?? '–'}</td>
<td>${serviceTime(shipment.created_date)}</td>
</tr>`;
}

/** The list with these filters (kept in the address, so the form stays filled on every page). */
function listLink(filters: ListFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `/console/shipments/?${query}` : '/console/shipments/';
}

export function renderShipmentList(input: {
  session: ConsoleSession;
  filters: ListFilters;
  rows: Shipment[];
  next: string | null;
  errors: string[];
}): string {
  const { filters, rows } = input;
  const body = html`<h1>Shipments</h1>
${filterForm(filters)}
${input.errors.length ? noticeBox('alert', 'Check the filters:', input.errors) : ''}
${
  rows.length === 0
    ? input.errors.length
      ? ''
      : noticeBox('info', 'No shipments match these filters.')
    : html`<div class="table-wrap"><table>
<caption class="visually-hidden">Shipments, newest first</caption>
<thead><tr><th scope="col">Shipment</th><th scope="col">Tracking number</th><th scope="col">Carrier</th><th scope="col">Status</th><th scope="col">Phase</th><th scope="col">Latest event</th><th scope="col">Order</th><th scope="col">Created</th></tr></thead>
<tbody>
${rows.map(row)}</tbody>
</table></div>`
}
<nav class="pager" aria-label="Pages">
${filters.next_page ? html`<a href="${listLink({ ...filters, next_page: undefined })}">First page</a>` : ''}
${input.next ? html`<a href="${listLink({ ...filters, next_page: input.next })}" rel="next">Next page</a>` : ''}
</nav>`;
  return renderConsolePage({ title: 'Shipments', body, session: input.session, section: 'shipments' });
}

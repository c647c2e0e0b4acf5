import type { AnalyticsRow } from '../../../domain/delivery/analytics.types.js';
import { html, type SafeHtml } from '../html.js';
import { type ChartBlock, firstAttemptSuccess, formatRate, transitHistogram, weeklyOnTime, windowedAttempts } from './analytics-charts.js';
import { pill, serviceTime } from './console-format.js';
import { type ConsoleSession, noticeBox, renderConsolePage } from './console-layout.js';

/** The Analytics form: the period of acceptance (inclusive dates), and optionally one carrier and one service. */
export interface AnalyticsFilters {
  from: string;
  to: string;
  carrier?: string;
  service?: string;
}

/** An overdue shipment of the exception queue, as the page lists it. */
export interface ExceptionEntry {
  shipment_uuid: string;
  shipment_id: string;
  tracking_number: string | null;
  status: string;
  carrier_reference: string;
  shipping_service: string;
  destination_country: string;
  promised_to: string;
  last_scan_at: string | null;
}

/** What the page shows: the analytics rows of the period (by carrier, by week and carrier, by carrier and destination) and the queue. */
export interface AnalyticsView {
  byCarrier: AnalyticsRow[];
  byWeek: AnalyticsRow[];
  byDestination: AnalyticsRow[];
  exceptions: ExceptionEntry[];
  /** The date the queue was read for (a window that ended before it is over). */
  today: string;
}

/** On-time bands of the carrier × destination table, best first: class, lowest rate, what the legend says. */
const RATE_BANDS: Array<[cls: string, min: number, label: string]> = [
  ['rate-high', 0.95, '95% or more'],
  ['rate-good', 0.9, '90% to 95%'],
  ['rate-fair', 0.8, '80% to 90%'],
  ['rate-low', 0, 'under 80%'],
];

/** The band class of an on-time rate ('rate-none' when there is no rate). */
export function rateBand(rate: number | null): string {
  if (rate === null) return 'rate-none';
  return RATE_BANDS.find(([, min]) => rate >= min)![0];
}

/** The longest-overdue shipments the exception queue lists. */
export const EXCEPTION_QUEUE_SIZE = 50;

function filterForm(filters: AnalyticsFilters, carriers: readonly string[]): SafeHtml {
  const carrierOptions = [...new Set([...carriers, ...(filters.carrier ? [filters.carrier] : [])])].sort();
  return html`<form class="card" method="get" action="/console/analytics/" role="search" aria-label="Analytics">
<div class="filters">
<div><label for="from">Accepted from</label><input id="from" name="from" type="date" required value="${filters.from}"></div>
<div><label for="to">Accepted until</label><input id="to" name="to" type="date" required value="${filters.to}"></div>
<div><label for="carrier">Carrier</label><select id="carrier" name="carrier"><option value="">All carriers</option>${carrierOptions.map(
    (carrier) => html`<option value="${carrier}"${carrier === filters.carrier ? html` selected` : ''}>${carrier}</option>`,
  )}</select></div>
<div><label for="service">Service</label><input id="service" name="service" type="text" maxlength="100" value="${filters.service ?? ''}" spellcheck="false" placeholder="All services"></div>
<div class="actions"><button type="submit">Show</button><a class="button secondary" href="/console/analytics/">Last 12 weeks</a></div>
</div>
</form>`;
}

function chartSection(id: string, title: string, block: ChartBlock): SafeHtml {
  return html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>
<div class="chart-pair">${block.chart}${block.table}</div>
</section>`;
}

/** Carriers down, destination countries across (busiest first); each cell the on-time rate and its n, shaded by band. */
function destinationTable(rows: readonly AnalyticsRow[]): SafeHtml {
  const body = html`<h2 id="by-destination">On time by carrier and destination</h2>`;
  if (rows.length === 0)
    return html`<section class="card" aria-labelledby="by-destination">${body}<p class="muted">No shipments in this period.</p></section>`;
  const cells = new Map<string, AnalyticsRow>();
  const volume = new Map<string, number>();
  for (const row of rows) {
    const [carrier, country] = row.key;
    cells.set(`${carrier}\u0000${country}`, row);
    volume.set(country, (volume.get(country) ?? 0) + row.shipments);
  }
  const carriers = [...new Set(rows.map((row) => row.key[0]))].sort();
  const countries = [...volume.keys()].sort((a, b) => volume.get(b)! - volume.get(a)! || a.localeCompare(b));
  const country = (code: string) => code || 'unknown';
  return html`<section class="card" aria-labelledby="by-destination">${body}
<p class="muted">Share of first attempts on or before the end of the original window; n is the number of first attempts with a window (transit samples).
Shading: <span class="rate-key rate-high">${RATE_BANDS[0][2]}</span> <span class="rate-key rate-good">${RATE_BANDS[1][2]}</span>
<span class="rate-key rate-fair">${RATE_BANDS[2][2]}</span> <span class="rate-key rate-low">${RATE_BANDS[3][2]}</span>
<span class="rate-key rate-none">no first attempt with a window</span></p>
<div class="table-wrap"><table class="rate-table">
<caption class="visually-hidden">On-time rate by carrier (rows) and destination country (columns)</caption>
<thead><tr><th scope="col">Carrier</th>${countries.map((code) => html`<th scope="col" class="num">${country(code)}</th>`)}</tr></thead>
<tbody>
${carriers.map(
  (carrier) =>
    html`<tr><th scope="row">${carrier}</th>${countries.map((code) => {
      const row = cells.get(`${carrier}\u0000${code}`);
      if (!row) return html`<td class="num rate-none"><span class="muted">–</span></td>`;
      return html`<td class="num ${rateBand(row.on_time_rate)}"><span class="rate">${formatRate(row.on_time_rate)}</span> <span class="n">n = ${windowedAttempts(row)}</span></td>`;
    })}</tr>`,
)}
</tbody>
</table></div>
</section>`;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function exceptionQueue(entries: readonly ExceptionEntry[], today: string): SafeHtml {
  const heading = html`<h2 id="exceptions">Exception queue</h2>
<p class="muted">Open shipments whose window has ended without a first attempt scanned, longest overdue first (at most ${EXCEPTION_QUEUE_SIZE}; the carrier and service filters apply, the period does not).</p>`;
  if (entries.length === 0) {
    return html`<section class="card" aria-labelledby="exceptions">${heading}<p>No shipment is past its window without a scan.</p></section>`;
  }
  return html`<section class="card" aria-labelledby="exceptions">${heading}
<div class="table-wrap"><table>
<caption class="visually-hidden">Shipments past their window without a scan</caption>
<thead><tr><th scope="col">Shipment</th><th scope="col">Tracking number</th><th scope="col">Carrier</th><th scope="col">Service</th><th scope="col">Destination</th><th scope="col">Window ended</th><th scope="col" class="num">Days over</th><th scope="col">Last scan</th><th scope="col">Status</th></tr></thead>
<tbody>
${entries.map(
  (entry) => html`<tr>
<td><a href="/console/shipments/${entry.shipment_uuid}/">${entry.shipment_id}</a></td>
<td>${entry.tracking_number ? html`<code>${entry.tracking_number}</code>` : html`<span class="muted">–</span>`}</td>
<td>${entry.carrier_reference || '–'}</td>
<td>${entry.shipping_service || '–'}</td>
<td>${entry.destination_country || '–'}</td>
<td><time datetime="${entry.promised_to}">${entry.promised_to}</time></td>
<td class="num">${daysBetween(entry.promised_to, today)}</td>
<td>${serviceTime(entry.last_scan_at)}</td>
<td>${pill(entry.status)}</td>
</tr>`,
)}
</tbody>
</table></div>
</section>`;
}

/** How to get data on a new account: the simulator (its history can be deleted again with one command). */
function emptyState(): SafeHtml {
  return html`<section class="card" aria-labelledby="no-data"><h2 id="no-data">No delivery data yet</h2>
<p>The charts fill as the account's tracked shipments are accepted by their carriers and reach a first delivery attempt.</p>
<p>To see the page with a realistic history first, create one for this account with
<code>waybill simulate history --account &lt;account uuid&gt; --shipments 5000 --weeks 12</code>; it is marked as simulated and can be deleted again.</p>
</section>`;
}

export function renderAnalyticsPage(input: {
  session: ConsoleSession;
  filters: AnalyticsFilters;
  /** The carriers with shipments in the period, whatever the carrier and service filters: the form's choices. */
  carriers: readonly string[];
  errors: string[];
  /** Whether the account has any delivery data at all (else the page explains how to get some). */
  hasData: boolean;
  view: AnalyticsView | null;
}): string {
  const { filters, view } = input;
  const period = html`<p class="muted">Shipments accepted from <time datetime="${filters.from}">${filters.from}</time> to <time datetime="${filters.to}">${filters.to}</time>${
    filters.carrier ? html`, carrier ${filters.carrier}` : ''
  }${filters.service ? html`, service ${filters.service}` : ''}. Working days are the carrier's delivery days less the destination's public holidays.</p>`;
  let content: SafeHtml | string = '';
  if (input.errors.length) content = noticeBox('alert', 'Check the filters:', input.errors);
  else if (!input.hasData) content = emptyState();
  else if (view) {
    content = html`${period}
${view.byCarrier.length === 0 ? noticeBox('info', 'No shipments were accepted in this period with these filters.') : ''}
${chartSection('transit-times', 'Transit time per carrier', transitHistogram(view.byCarrier))}
${chartSection('weekly-on-time', 'Weekly on-time rate', weeklyOnTime(view.byWeek))}
${chartSection('first-attempt', 'First-attempt success', firstAttemptSuccess(view.byCarrier))}
${destinationTable(view.byDestination)}
${exceptionQueue(view.exceptions, view.today)}`;
  }
  const body = html`<h1>Delivery analytics</h1>
${filterForm(filters, input.carriers)}
${content}`;
  return renderConsolePage({ title: 'Analytics', body, session: input.session, section: 'analytics' });
}

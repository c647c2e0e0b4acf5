import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';
import type { AnalyticsRow } from '../../../domain/delivery/analytics.types.js';
import { html, SafeHtml } from '../html.js';

/**
 * The Analytics page's charts: SVG drawn on the server by Observable Plot into a server-side document
 * (linkedom), so the page needs no script. The console's Content-Security-Policy (`style-src 'self'`) blocks
 * the `<style>` element Plot puts in every chart and any `style` attribute, so both are taken out here and
 * the rules they carried live in the console stylesheet under the fixed class names below. Every chart
 * has an `aria-label` and `aria-description`, a `<title>` per mark for the values on hover, and comes with
 * a table of the same numbers (its text alternative).
 */

/** The class of every chart's `<svg>` (and, with suffixes, of its legend): its rules are in console-styles.ts. */
export const CHART_CLASS = 'analytics-chart';

/** Timing of a first attempt against the shipment's original window, in the order the bars stack. */
export const TIMINGS = ['early', 'on_time', 'late', 'none'] as const;
export type Timing = (typeof TIMINGS)[number];

export const TIMING_LABELS: Record<Timing, string> = { early: 'Early', on_time: 'On time', late: 'Late', none: 'No window' };
/** Fills as SVG presentation attributes (allowed by the policy); the legend's swatches repeat them. */
const TIMING_COLOURS: Record<Timing, string> = { early: '#5b8fd6', on_time: '#17703a', late: '#c0392b', none: '#77808a' };

/** Longer transits are counted in the last bar, so one lost parcel does not squeeze every other bar. */
const MAX_TRANSIT_BAR = 15;

// One document for every chart: Plot only creates elements in it, it never attaches them.
const { document } = parseHTML('<!doctype html><html><head></head><body></body></html>');
const plotDocument = document as unknown as Document;

const percent = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });
const count = new Intl.NumberFormat('en-GB');

/** A rate in [0, 1] as a percentage with at most one decimal; a dash when there is none. */
export function formatRate(rate: number | null): string {
  return rate === null ? '–' : percent.format(rate);
}

/** A chart and the table of the same numbers, shown side by side: the table is the chart's text alternative. */
export interface ChartBlock {
  chart: SafeHtml;
  table: SafeHtml;
}

/**
 * SVG presentation attributes a `style` declaration may become: the same property set as an attribute is
 * allowed by the policy, a style is not. Declarations without an attribute form are dropped.
 */
const PRESENTATION = new Set([
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-opacity',
  'stroke-width',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-variant',
  'text-anchor',
  'paint-order',
]);

/**
 * Takes out what the console's policy would block: `<style>` elements (their rules are in the console
 * stylesheet) and `style` attributes (turned into presentation attributes where SVG has one, else dropped).
 */
export function stripInlineStyles(root: Element): void {
  for (const style of Array.from(root.querySelectorAll('style'))) style.remove();
  const styled = [root, ...Array.from(root.querySelectorAll('[style]'))].filter((element) => element.hasAttribute('style'));
  for (const element of styled) {
    const style = element.getAttribute('style') ?? '';
    element.removeAttribute('style');
    if (element.namespaceURI !== 'http://www.w3.org/2000/svg') continue;
    for (const declaration of style.split(';')) {
      const colon = declaration.indexOf(':');
      if (colon < 0) continue;
      const property = declaration.slice(0, colon).trim().toLowerCase();
      const value = declaration.slice(colon + 1).trim();
      if (PRESENTATION.has(property) && value && !element.hasAttribute(property)) element.setAttribute(property, value);
    }
  }
}

/** Plot's chart (an `<svg>`, or a `<figure>` with its legend) as markup the console's policy accepts. */
function render(options: Plot.PlotOptions): SafeHtml {
  const node = Plot.plot({ ...options, document: plotDocument, className: CHART_CLASS }) as unknown as Element;
  stripInlineStyles(node);
  return new SafeHtml(node.outerHTML);
}

function emptyChart(text: string): ChartBlock {
  return { chart: html`<p class="muted">${text}</p>`, table: html`` };
}

/** The chart's legend as HTML: a swatch (an SVG square with its fill) and the label of each colour. */
function legend(items: Array<[label: string, colour: string]>): SafeHtml {
  return html`<ul class="chart-legend" aria-hidden="true">${items.map(
    ([label, colour]) =>
      html`<li><svg width="12" height="12" viewBox="0 0 12 12" focusable="false"><rect width="12" height="12" fill="${colour}"/></svg>${label}</li>`,
  )}</ul>`;
}

function figure(chart: SafeHtml, legendItems: Array<[string, string]>, caption: string): SafeHtml {
  return html`<figure class="chart">${legendItems.length ? legend(legendItems) : ''}${chart}<figcaption class="muted">${caption}</figcaption></figure>`;
}

/** A table's rows in a box that scrolls when they are many; focusable so that a keyboard can scroll it. */
function tableBox(caption: string, head: SafeHtml, body: SafeHtml[]): SafeHtml {
  return html`<div class="table-wrap chart-table" tabindex="0" role="region" aria-label="${caption}"><table>
<caption>${caption}</caption>
<thead>${head}</thead>
<tbody>${body}</tbody>
</table></div>`;
}

interface TransitBar {
  carrier: string;
  transit: number;
  timing: Timing;
  shipments: number;
}

/**
 * (a) Per carrier, how many first attempts took each number of working days, stacked by timing against the
 * original window. `rows` are grouped by carrier (key[0]).
 */
export function transitHistogram(rows: readonly AnalyticsRow[]): ChartBlock {
  const bars: TransitBar[] = [];
  const perCarrier = new Map<string, Map<number, Record<Timing, number>>>();
  for (const row of rows) {
    const carrier = row.key[0];
    const byTransit = perCarrier.get(carrier) ?? new Map<number, Record<Timing, number>>();
    perCarrier.set(carrier, byTransit);
    for (const entry of row.transits) {
      const transit = Math.min(entry.transit, MAX_TRANSIT_BAR);
      const counts = byTransit.get(transit) ?? { early: 0, on_time: 0, late: 0, none: 0 };
      for (const timing of TIMINGS) counts[timing] += entry[timing];
      byTransit.set(transit, counts);
    }
  }
  for (const [carrier, byTransit] of perCarrier) {
    for (const [transit, counts] of byTransit) {
      for (const timing of TIMINGS) if (counts[timing] > 0) bars.push({ carrier, transit, timing, shipments: counts[timing] });
    }
  }
  if (bars.length === 0) return emptyChart('No first attempts in this period.');
  const carriers = [...perCarrier.keys()].filter((carrier) => bars.some((bar) => bar.carrier === carrier)).sort();
  const maxTransit = Math.max(...bars.map((bar) => bar.transit));
  const transitDomain = Array.from({ length: maxTransit + 1 }, (_, i) => i);
  const dayLabel = (transit: number) => (transit === MAX_TRANSIT_BAR ? `${MAX_TRANSIT_BAR}+` : String(transit));
  const total = bars.reduce((sum, bar) => sum + bar.shipments, 0);
  const chart = render({
    ariaLabel: 'Transit time per carrier',
    ariaDescription: `Histogram of transit times in working days for ${carriers.length} carriers and ${count.format(total)} first attempts, each bar stacked by timing against the original window: early, on time, late, or no window. The table beside the chart has the same numbers.`,
    width: 640,
    height: 40 + carriers.length * 110,
    marginLeft: 44,
    marginRight: 110,
    x: { type: 'band', domain: transitDomain, label: 'Working days from acceptance to first attempt', tickFormat: dayLabel },
    y: { label: 'Shipments', grid: true, ticks: 3 },
    fy: { domain: carriers, label: null },
    color: { domain: TIMINGS.map((t) => TIMING_LABELS[t]), range: TIMINGS.map((t) => TIMING_COLOURS[t]) },
    marks: [
      Plot.barY(bars, {
        x: 'transit',
        y: 'shipments',
        fy: 'carrier',
        fill: (bar: TransitBar) => TIMING_LABELS[bar.timing],
        order: TIMINGS.map((t) => TIMING_LABELS[t]),
        title: (bar: TransitBar) =>
          `${bar.carrier}: ${count.format(bar.shipments)} ${TIMING_LABELS[bar.timing].toLowerCase()} in ${dayLabel(bar.transit)} working days`,
      }),
      Plot.ruleY([0]),
    ],
  });
  const head = html`<tr><th scope="col">Carrier</th><th scope="col" class="num">Days</th>${TIMINGS.map(
    (t) => html`<th scope="col" class="num">${TIMING_LABELS[t]}</th>`,
  )}<th scope="col" class="num">All</th></tr>`;
  const body: SafeHtml[] = [];
  for (const carrier of carriers) {
    const byTransit = perCarrier.get(carrier)!;
    for (const transit of [...byTransit.keys()].sort((a, b) => a - b)) {
      const counts = byTransit.get(transit)!;
      const all = TIMINGS.reduce((sum, t) => sum + counts[t], 0);
      body.push(
        html`<tr><th scope="row">${carrier}</th><td class="num">${dayLabel(transit)}</td>${TIMINGS.map(
          (t) => html`<td class="num">${count.format(counts[t])}</td>`,
        )}<td class="num">${count.format(all)}</td></tr>`,
      );
    }
  }
  return {
    chart: figure(
      chart,
      TIMINGS.map((t) => [TIMING_LABELS[t], TIMING_COLOURS[t]]),
      'Early: before the window; on time: within it; late: after it; no window: the shipment had none.',
    ),
    table: tableBox('Transit times per carrier (first attempts)', head, body),
  };
}

/** The Monday a week key names: `YYYY-MM-DD` (the week's first day) or ISO `YYYY-Www`. */
export function weekStart(key: string): Date | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(key)) {
    const date = new Date(`${key}T00:00:00Z`);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  const iso = /^(\d{4})-W(\d{2})$/.exec(key);
  if (!iso) return null;
  // ISO week 1 holds 4 January; its Monday is the week's first day.
  const jan4 = Date.UTC(Number(iso[1]), 0, 4);
  const jan4Day = (new Date(jan4).getUTCDay() + 6) % 7;
  return new Date(jan4 + ((Number(iso[2]) - 1) * 7 - jan4Day) * 86_400_000);
}

/**
 * The n shown with an on-time rate: first attempts against a window among the row's transit samples. The rate's
 * own denominator (every first attempt with a window) is not in AnalyticsRow; it differs by the returned, lost
 * and cancelled parcels, which are not transit samples.
 */
export function windowedAttempts(row: AnalyticsRow): number {
  return row.transits.reduce((sum, entry) => sum + entry.early + entry.on_time + entry.late, 0);
}

interface WeekPoint {
  carrier: string;
  week: Date;
  weekKey: string;
  rate: number | null;
  n: number;
}

const weekFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const weekFormatLong = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });

/**
 * (b) The on-time rate of each week (by acceptance), one line per carrier; each point's title gives its n
 * (windowedAttempts). `rows` are grouped by week (key[0]) and carrier (key[1]).
 */
export function weeklyOnTime(rows: readonly AnalyticsRow[]): ChartBlock {
  const points: WeekPoint[] = [];
  for (const row of rows) {
    const week = weekStart(row.key[0]);
    if (!week) continue;
    points.push({ carrier: row.key[1], week, weekKey: row.key[0], rate: row.on_time_rate, n: windowedAttempts(row) });
  }
  points.sort((a, b) => a.week.getTime() - b.week.getTime() || a.carrier.localeCompare(b.carrier));
  const rated = points.filter((point) => point.rate !== null);
  if (rated.length === 0) return emptyChart('No first attempts against a window in this period.');
  const carriers = [...new Set(points.map((point) => point.carrier))].sort();
  const colours = carrierColours(carriers);
  const weeks = [...new Map(points.map((point) => [point.week.getTime(), point.week])).values()];
  const title = (point: WeekPoint) =>
    `${point.carrier}, week of ${weekFormatLong.format(point.week)}: ${formatRate(point.rate)} on time (n = ${count.format(point.n)})`;
  const chart = render({
    ariaLabel: 'Weekly on-time rate per carrier',
    ariaDescription: `Share of first attempts on or before the end of the original window, per week of acceptance, for ${carriers.length} carriers over ${weeks.length} weeks. Each point gives the number of first attempts it is of. The table beside the chart has the same numbers.`,
    width: 640,
    height: 300,
    marginLeft: 44,
    marginRight: 20,
    x: { type: 'utc', label: 'Week of acceptance', tickFormat: (d: Date) => weekFormat.format(d), ticks: Math.min(weeks.length, 8) },
    // From a round ten under the lowest rate: rates near the top are what a reader compares.
    y: {
      domain: [Math.max(0, Math.floor(Math.min(...rated.map((point) => point.rate! * 100)) / 10) * 10 - 10), 100],
      label: 'On time (%)',
      grid: true,
    },
    color: { domain: carriers, range: carriers.map((carrier) => colours.get(carrier)!) },
    marks: [
      Plot.line(points, {
        x: 'week',
        y: (point: WeekPoint) => (point.rate === null ? Number.NaN : point.rate * 100),
        stroke: 'carrier',
        strokeWidth: 2,
        title: (point: WeekPoint) => point.carrier,
      }),
      Plot.dot(rated, {
        x: 'week',
        y: (point: WeekPoint) => point.rate! * 100,
        fill: 'carrier',
        r: 3,
        title,
      }),
    ],
  });
  // Weeks down, carriers across: each cell the rate and its n.
  const cells = new Map(points.map((point) => [`${point.week.getTime()}|${point.carrier}`, point]));
  const head = html`<tr><th scope="col">Week of</th>${carriers.map((carrier) => html`<th scope="col" class="num">${carrier}</th>`)}</tr>`;
  const body = weeks.map(
    (week) =>
      html`<tr><th scope="row"><time datetime="${week.toISOString().slice(0, 10)}">${weekFormatLong.format(week)}</time></th>${carriers.map(
        (carrier) => {
          const point = cells.get(`${week.getTime()}|${carrier}`);
          return point
            ? html`<td class="num">${formatRate(point.rate)} <span class="n">n = ${count.format(point.n)}</span></td>`
            : html`<td class="num"><span class="muted">–</span></td>`;
        },
      )}</tr>`,
  );
  return {
    chart: figure(
      chart,
      carriers.map((carrier) => [carrier, colours.get(carrier)!]),
      'n: first attempts with a window (transit samples), by week of acceptance.',
    ),
    table: tableBox('Weekly on-time rate per carrier', head, body),
  };
}

interface CarrierRate {
  carrier: string;
  rate: number;
  attempts: number;
}

/** (c) The share of first attempts that delivered, per carrier. `rows` are grouped by carrier (key[0]). */
export function firstAttemptSuccess(rows: readonly AnalyticsRow[]): ChartBlock {
  const sorted = [...rows].sort((a, b) => a.key[0].localeCompare(b.key[0]));
  const bars: CarrierRate[] = sorted
    .filter((row) => row.first_attempt_success_rate !== null)
    .map((row) => ({ carrier: row.key[0], rate: row.first_attempt_success_rate!, attempts: row.first_attempts }));
  if (bars.length === 0) return emptyChart('No first attempts in this period.');
  const title = (bar: CarrierRate) => `${bar.carrier}: ${formatRate(bar.rate)} of ${count.format(bar.attempts)} first attempts delivered`;
  const chart = render({
    ariaLabel: 'First-attempt success rate per carrier',
    ariaDescription: `Share of first attempts that delivered the parcel, for ${bars.length} carriers. The table beside the chart has the same numbers.`,
    width: 640,
    height: 50 + bars.length * 34,
    marginLeft: 110,
    marginRight: 56,
    x: { domain: [0, 100], label: 'First attempts that delivered (%)', grid: true },
    y: { domain: bars.map((bar) => bar.carrier), label: null },
    marks: [
      Plot.barX(bars, { y: 'carrier', x: (bar: CarrierRate) => bar.rate * 100, fill: '#0b3d91', title }),
      Plot.text(bars, {
        y: 'carrier',
        x: (bar: CarrierRate) => bar.rate * 100,
        text: (bar: CarrierRate) => formatRate(bar.rate),
        textAnchor: 'start',
        dx: 4,
        fill: 'currentColor',
      }),
      Plot.ruleX([0]),
    ],
  });
  const head = html`<tr><th scope="col">Carrier</th><th scope="col" class="num">First attempts</th><th scope="col" class="num">Success rate</th></tr>`;
  const body = sorted.map(
    (row) =>
      html`<tr><th scope="row">${row.key[0]}</th><td class="num">${count.format(row.first_attempts)}</td><td class="num">${formatRate(row.first_attempt_success_rate)}</td></tr>`,
  );
  return {
    chart: figure(chart, [], 'Of the first attempts in the period, the share that delivered the parcel.'),
    table: tableBox('First-attempt success per carrier', head, body),
  };
}

/**
 * Ten colours with a contrast of at least 3:1 on white (lines and dots are graphics that must be seen), in
 * carrier order, so that a carrier has the same colour in the chart and in its legend.
 */
function carrierColours(carriers: readonly string[]): Map<string, string> {
  const scheme = ['#0b3d91', '#b35900', '#00708a', '#6f42c1', '#c2185b', '#4d7c0f', '#5c4033', '#1f6feb', '#8a6d00', '#4e5a65'];
  return new Map(carriers.map((carrier, i) => [carrier, scheme[i % scheme.length]]));
}

import { simulateHistory } from '../../src/domain/delivery/simulated-history.js';
import { addCalendarDays } from '../../src/domain/delivery/working-calendar.js';
import type { Measurement, Scenario } from '../harness.js';
import { calibrated, type Evaluation, median, PUBLISHED, type Score, walkForward } from '../predictions/walk-forward.js';

const HISTORY = { shipments: 60_000, weeks: 52, seed: 'waybill-evaluation-1', end: '2026-11-22' };
/** Weeks scored at the end of the history; the weeks before only train. */
const SCORED_WEEKS = 26;

const GOALS = { byTo: 0.95, inside: 0.9, domesticWidth: 2, tolerance: 0.02, coverage: 0.95, cpuMicros: 50 };

const pct = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`);

function line(name: string, s: Score): string {
  const quantiles = PUBLISHED.map((q, i) => `${q.name} ${pct(s.below[i], s.scored)}–${pct(s.atOrBelow[i], s.scored)}`).join(', ');
  return (
    `${name.padEnd(8)} n=${String(s.scored).padStart(6)}  by to ${pct(s.byTo, s.scored).padStart(6)}  inside ${pct(s.inside, s.scored).padStart(6)}  ` +
    `width median ${median(s.widths) ?? '–'} (domestic ${median(s.domesticWidths) ?? '–'})  coverage ${pct(s.windows, s.accepted)}  ` +
    `confidence h/m/l ${s.confidence.high}/${s.confidence.medium}/${s.confidence.low}  shares below–at-or-below: ${quantiles}`
  );
}

function measurement(label: string, evaluation: Evaluation): Measurement {
  const perSecond = evaluation.cpuMicrosPerPrediction > 0 ? 1e6 / evaluation.cpuMicrosPerPrediction : 0;
  return {
    label,
    url: 'in-process',
    requestsPerSecond: perSecond,
    latencyP50Ms: 0,
    latencyP99Ms: 0,
    totalRequests: evaluation.overall.accepted,
    cpuMicrosPerRequest: evaluation.cpuMicrosPerPrediction,
  };
}

/**
 * Walk-forward evaluation of predicted windows over a simulated year (src/domain/delivery/simulated-history.ts):
 * each of the last 26 weeks is predicted at acceptance from the first attempts before it began, then scored.
 * Baseline in the same run: the carriers' published promises alone (the cold-start table). The ratio is the
 * share delivered by the window's end, Waybill's over the baseline's.
 */
export const predictions: Scenario = {
  name: 'predictions',
  description: `walk-forward evaluation: ${HISTORY.shipments.toLocaleString('en-US')} simulated shipments over ${HISTORY.weeks} weeks, last ${SCORED_WEEKS} scored`,
  async run() {
    const generated = process.hrtime.bigint();
    const history = simulateHistory(HISTORY);
    const generateSeconds = Number(process.hrtime.bigint() - generated) / 1e9;
    const firstWeek = addCalendarDays(HISTORY.end, 1 - 7 * SCORED_WEEKS);
    const model = await walkForward(history, firstWeek, true);
    const baseline = await walkForward(history, firstWeek, false);
    const o = model.overall;
    const met =
      o.byTo / o.scored >= GOALS.byTo &&
      o.inside / o.scored >= GOALS.inside &&
      (median(o.domesticWidths) ?? Infinity) <= GOALS.domesticWidth &&
      PUBLISHED.every((_, i) => calibrated(o, i, GOALS.tolerance)) &&
      o.windows / o.accepted >= GOALS.coverage &&
      model.cpuMicrosPerPrediction <= GOALS.cpuMicros;
    const notes = [
      `history: ${history.length.toLocaleString('en-US')} shipments generated in ${generateSeconds.toFixed(1)} s; ${model.weeks} weeks scored from ${firstWeek}`,
      'Waybill:',
      line('overall', o),
      ...[...model.byCarrier].sort(([a], [b]) => a.localeCompare(b)).map(([carrier, s]) => line(carrier, s)),
      `calibrated within ±2 points: ${PUBLISHED.map((q, i) => `${q.name} ${calibrated(o, i) ? 'yes' : 'no'}`).join(', ')}; per carrier: ${[
        ...model.byCarrier,
      ]
        .filter(([, s]) => s.scored >= 500)
        .map(([carrier, s]) => `${carrier} ${PUBLISHED.map((_, i) => (calibrated(s, i) ? '✓' : '✗')).join('')}`)
        .join(' ')}`,
      `CPU per prediction: ${model.cpuMicrosPerPrediction.toFixed(1)} µs (warm cache)`,
      'baseline (published promises only):',
      line('overall', baseline.overall),
    ];
    return {
      name: predictions.name,
      description: predictions.description,
      target: measurement('Waybill predictions', model),
      baseline: measurement('published promises', baseline),
      ratio: o.byTo / o.scored / (baseline.overall.byTo / baseline.overall.scored),
      goal: 0,
      goalText: '≥95% by to, ≥90% inside, domestic median width ≤ 2, P10/P50/P95 within ±2 points, coverage ≥95%, ≤ 50 µs CPU',
      goalMet: met,
      notes,
    };
  },
};

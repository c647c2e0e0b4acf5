import type { TransitCount } from '../../src/db/repositories/transit-histograms.repository.js';
import { calendarFor } from '../../src/domain/delivery/carrier-calendars.js';
import { DeliveryPredictor, type PredictedWindow } from '../../src/domain/delivery/delivery-predictor.js';
import { cellKeysOf, type Lane, laneOf } from '../../src/domain/delivery/lane.js';
import type { SimulatedShipment } from '../../src/domain/delivery/simulated-history.js';
import { TransitCells, type TransitCountSource } from '../../src/domain/delivery/transit-cells.js';
import { addCalendarDays, mondayOf, workingDaysAfter } from '../../src/domain/delivery/working-calendar.js';

/**
 * Walk-forward evaluation of delivery predictions (docs/delivery-intelligence.md, "Evaluation"): for each week,
 * the model knows the first attempts that happened before the week began, predicts at acceptance the window of
 * every shipment accepted in the week, and is scored on the first attempts those shipments had. No outcome is
 * known before it happened, as in production.
 */

/** The published quantiles: the window's ends and its likely day. */
export const PUBLISHED = [
  { name: 'P10 (from)', p: 0.1, key: 'from' },
  { name: 'P50 (likely)', p: 0.5, key: 'likely' },
  { name: 'P95 (to)', p: 0.95, key: 'to' },
] as const;

export interface Score {
  /** Accepted shipments the period predicted for (tracked parcels). */
  accepted: number;
  /** Of those, how many got a window (coverage). */
  windows: number;
  /** Scored: a first attempt is known, and the parcel was neither returned, lost nor cancelled. */
  scored: number;
  byTo: number;
  inside: number;
  widths: number[];
  domesticWidths: number[];
  /** Per published quantile: shipments with transit below it, and at or below it. */
  below: number[];
  atOrBelow: number[];
  confidence: Record<string, number>;
}

function emptyScore(): Score {
  return {
    accepted: 0,
    windows: 0,
    scored: 0,
    byTo: 0,
    inside: 0,
    widths: [],
    domesticWidths: [],
    below: PUBLISHED.map(() => 0),
    atOrBelow: PUBLISHED.map(() => 0),
    confidence: { high: 0, medium: 0, low: 0 },
  };
}

/** Counts kept in memory as the repository keeps them in `transit_histograms`. */
class MemoryCounts implements TransitCountSource {
  private readonly cells = new Map<string, Map<string, number>>();

  add(cellKey: string, week: string, transit: number): void {
    let cell = this.cells.get(cellKey);
    if (!cell) {
      cell = new Map();
      this.cells.set(cellKey, cell);
    }
    const key = `${week}|${transit}`;
    cell.set(key, (cell.get(key) ?? 0) + 1);
  }

  async counts(_scope: string, cellKeys: readonly string[], sinceWeek: string): Promise<TransitCount[]> {
    const out: TransitCount[] = [];
    for (const cell_key of cellKeys) {
      for (const [key, shipments] of this.cells.get(cell_key) ?? []) {
        const [week, transit] = key.split('|');
        if (week >= sinceWeek) out.push({ cell_key, week, transit: Number(transit), shipments });
      }
    }
    return out;
  }
}

interface Case {
  shipment: SimulatedShipment;
  lane: Lane;
  accepted: string;
  /** Null: no first attempt known (lost, stuck, or still on its way at the history's end). */
  attempt: string | null;
  transit: number | null;
  /** Returned, lost or cancelled: not a transit sample, not scored. */
  excluded: boolean;
}

function caseOf(shipment: SimulatedShipment): Case | null {
  const truth = shipment.truth;
  if (!truth.acceptance_date || (truth.cut && truth.first_attempt_date === null)) return null;
  const lane = laneOf(shipment.carrier_id, {
    sender_address: shipment.sender_address,
    recipient_address: shipment.recipient_address,
    shipping_service: shipment.shipping_service,
  });
  const calendar = calendarFor(lane.carrierId, lane.service || null, lane.destinationCountry || null);
  const attempt = truth.first_attempt_date;
  return {
    shipment,
    lane,
    accepted: truth.acceptance_date,
    attempt,
    transit: attempt === null ? null : workingDaysAfter(truth.acceptance_date, attempt, calendar),
    excluded: truth.outcome === 'returned' || truth.outcome === 'lost',
  };
}

export interface Evaluation {
  overall: Score;
  byCarrier: Map<string, Score>;
  weeks: number;
  /** CPU per prediction, µs (process.cpuUsage over the evaluation's predictions). */
  cpuMicrosPerPrediction: number;
}

/**
 * Runs the walk-forward over `history`, scoring the weeks from `firstWeek` on (earlier weeks only train).
 * `predict` is the predictor under test; `useHistory: false` scores the cold-start table alone (the baseline).
 */
export async function walkForward(history: readonly SimulatedShipment[], firstWeek: string, useHistory = true): Promise<Evaluation> {
  const cases = history.map(caseOf).filter((c): c is Case => c !== null);
  cases.sort((a, b) => (a.accepted < b.accepted ? -1 : a.accepted > b.accepted ? 1 : 0));
  const learned = [...cases]
    .filter((c) => c.transit !== null && !c.excluded)
    .sort((a, b) => ((a.attempt as string) < (b.attempt as string) ? -1 : 1));
  const counts = new MemoryCounts();
  const overall = emptyScore();
  const byCarrier = new Map<string, Score>();
  let learnedUpTo = 0;
  let cpu = 0;
  let predictions = 0;
  let weeks = 0;
  let index = 0;
  while (index < cases.length) {
    const week = mondayOf(cases[index].accepted);
    const weekEnd = addCalendarDays(week, 7);
    // What happened before the week began, and nothing after.
    if (useHistory) {
      while (learnedUpTo < learned.length && (learned[learnedUpTo].attempt as string) < week) {
        const sample = learned[learnedUpTo++];
        for (const key of cellKeysOf(sample.lane)) if (key !== null) counts.add(key, mondayOf(sample.accepted), sample.transit as number);
      }
    }
    const predictor = new DeliveryPredictor(new TransitCells(() => 0));
    const scoring = week >= firstWeek;
    if (scoring) weeks++;
    for (; index < cases.length && cases[index].accepted < weekEnd; index++) {
      const c = cases[index];
      if (!scoring) continue;
      const request = { lane: c.lane, scope: '', acceptedDate: c.accepted, today: c.accepted };
      await predictor.predict(request, counts);
      // Measured on the second call: the cells cached, as for every shipment of a lane but the first in a minute.
      const started = process.cpuUsage();
      const window = await predictor.predict(request, counts);
      const used = process.cpuUsage(started);
      cpu += used.user + used.system;
      predictions++;
      let score = byCarrier.get(c.lane.carrierId);
      if (!score) {
        score = emptyScore();
        byCarrier.set(c.lane.carrierId, score);
      }
      for (const s of [overall, score]) record(s, c, window);
    }
  }
  return { overall, byCarrier, weeks, cpuMicrosPerPrediction: predictions > 0 ? cpu / predictions : 0 };
}

function record(score: Score, c: Case, window: PredictedWindow): void {
  score.accepted++;
  score.windows++;
  score.confidence[window.confidence]++;
  if (c.transit === null || c.excluded) return;
  const y = c.transit;
  score.scored++;
  if (y <= window.days.to) score.byTo++;
  if (y >= window.days.from && y <= window.days.to) score.inside++;
  const width = window.days.to - window.days.from;
  score.widths.push(width);
  if (c.lane.originCountry === c.lane.destinationCountry) score.domesticWidths.push(width);
  PUBLISHED.forEach((q, i) => {
    const bound = window.days[q.key];
    if (y < bound) score.below[i]++;
    if (y <= bound) score.atOrBelow[i]++;
  });
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Whether a published quantile is calibrated within `tolerance`: for whole-day transits, `Q` is the p-quantile
 * when P(T < Q) ≤ p ≤ P(T ≤ Q); the observed shares must bracket p within the tolerance.
 */
export function calibrated(score: Score, i: number, tolerance = 0.02): boolean {
  if (score.scored === 0) return false;
  const p = PUBLISHED[i].p;
  return score.below[i] / score.scored <= p + tolerance && score.atOrBelow[i] / score.scored >= p - tolerance;
}

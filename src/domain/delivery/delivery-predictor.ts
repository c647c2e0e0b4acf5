import { calendarFor } from './carrier-calendars.js';
import { cellKeysOf, type Lane } from './lane.js';
import type { TransitCells, TransitCountSource } from './transit-cells.js';
import { defaultTransit } from './transit-defaults.js';
import { MIN_BASIS_SHIPMENTS, pmfOf, smooth, windowOf } from './transit-model.js';
import { addWorkingDays, workingDaysAfter } from './working-calendar.js';

export type PredictionConfidence = 'high' | 'medium' | 'low';

/** The names of the cell levels (lane.ts, `cellKeysOf`), shown as a prediction's basis. */
export const LEVEL_NAMES = ['lane', 'lane_region', 'destination_region', 'country_pair', 'service', 'carrier_default'] as const;
export type BasisLevel = (typeof LEVEL_NAMES)[number] | 'out_for_delivery';

/** A window of dates `YYYY-MM-DD`. */
export interface PredictedWindow {
  from: string;
  likely: string;
  to: string;
  confidence: PredictionConfidence;
  basis: { level: BasisLevel; shipments: number };
  /** The same window in working days after acceptance. */
  days: { from: number; likely: number; to: number };
}

export interface PredictionRequest {
  lane: Lane;
  /** Where the histograms are pooled: '' over the instance, else an account's id. */
  scope: string;
  acceptedDate: string;
  /** The day the prediction is made: the window is conditional on the working days elapsed until then. */
  today: string;
}

/**
 * Predicts the first-attempt window of an accepted shipment from its lane's transit histograms, backed off
 * to coarser cells and smoothed toward them, over the carrier's published promise when nothing is known.
 */
export class DeliveryPredictor {
  constructor(private readonly cells: TransitCells) {}

  /** `source`: where histograms not cached are read (in a transaction, its repository). */
  async predict(request: PredictionRequest, source: TransitCountSource): Promise<PredictedWindow> {
    const { lane, acceptedDate, today } = request;
    const calendar = calendarFor(lane.carrierId, lane.service || null, lane.destinationCountry || null);
    const keys = cellKeysOf(lane);
    const present = keys.filter((key): key is string => key !== null);
    const histograms = await this.cells.histograms(source, request.scope, present, today);
    let pmf = pmfOf(defaultTransit(lane.carrierId, lane.service || null, lane.originCountry || null, lane.destinationCountry || null).pmf);
    for (let level = keys.length - 1; level >= 0; level--) {
      const key = keys[level];
      const histogram = key === null ? undefined : histograms.get(key);
      if (histogram && histogram.total > 0) pmf = smooth(histogram, pmf);
    }
    const finest = keys.findIndex((key) => key !== null);
    let basis: PredictedWindow['basis'] = { level: 'carrier_default', shipments: 0 };
    let confidence: PredictionConfidence = 'low';
    for (let level = 0; level < keys.length; level++) {
      const key = keys[level];
      const histogram = key === null ? undefined : histograms.get(key);
      if (histogram && histogram.total >= MIN_BASIS_SHIPMENTS) {
        basis = { level: LEVEL_NAMES[level], shipments: histogram.shipments };
        confidence = level === finest ? 'high' : 'medium';
        break;
      }
    }
    // Attempts happen on working days: on a day off, the next possible one is the next working day.
    let elapsed = today > acceptedDate ? workingDaysAfter(acceptedDate, today, calendar) : 0;
    if (today > acceptedDate && !calendar.isWorkingDay(today)) elapsed++;
    const window = windowOf(pmf, elapsed);
    return {
      from: addWorkingDays(acceptedDate, window.from, calendar),
      likely: addWorkingDays(acceptedDate, window.likely, calendar),
      to: addWorkingDays(acceptedDate, window.to, calendar),
      confidence,
      basis,
      days: window,
    };
  }
}

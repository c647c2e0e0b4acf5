/**
 * Transit distributions and the windows read from them (docs/delivery-intelligence.md, "Method"). Transit
 * is a whole number of working days, so a distribution is a probability mass function over 0..MAX_TRANSIT.
 */

/** Transits above this are counted here (a parcel a month late is late whichever the number). */
export const MAX_TRANSIT = 30;

/** Pseudo-shipments of the parent cell's shape mixed into a cell (empirical-Bayes smoothing). */
export const PRIOR_WEIGHT = 20;

/** Effective shipments a cell needs to be the basis of a window (the P95 of 59 samples covers 95% with 95% confidence). */
export const MIN_BASIS_SHIPMENTS = 59;

/** Shares of the window's ends and its likely date. */
export const WINDOW_FROM = 0.1;
export const WINDOW_TO = 0.95;
export const WINDOW_LIKELY = 0.5;

/** A cell's recency-weighted transit counts. */
export interface CellHistogram {
  /** Weighted shipments by transit (length MAX_TRANSIT + 1). */
  counts: Float64Array;
  /** Their sum: the effective number of shipments. */
  total: number;
  /** Shipments counted, unweighted (shown as the basis). */
  shipments: number;
}

export function emptyHistogram(): CellHistogram {
  return { counts: new Float64Array(MAX_TRANSIT + 1), total: 0, shipments: 0 };
}

/** Adds `shipments` of transit `transit` with weight `weight` (clamped to the histogram's range). */
export function addSamples(histogram: CellHistogram, transit: number, shipments: number, weight: number): void {
  const t = Math.max(0, Math.min(MAX_TRANSIT, Math.trunc(transit)));
  histogram.counts[t] += shipments * weight;
  histogram.total += shipments * weight;
  histogram.shipments += shipments;
}

/** A pmf from default shares (the cold-start table): normalised, padded to the histogram's range. */
export function pmfOf(shares: readonly number[]): Float64Array {
  const pmf = new Float64Array(MAX_TRANSIT + 1);
  let sum = 0;
  for (let t = 0; t < shares.length; t++) sum += shares[t];
  if (sum <= 0) {
    pmf[1] = 1;
    return pmf;
  }
  for (let t = 0; t < shares.length; t++) pmf[Math.min(MAX_TRANSIT, t)] += shares[t] / sum;
  return pmf;
}

/** `(h + κ·parent) / (n + κ)`: a cell with few shipments keeps its parent's shape, a busy one is its own data. */
export function smooth(histogram: CellHistogram, parent: Float64Array, priorWeight = PRIOR_WEIGHT): Float64Array {
  const out = new Float64Array(MAX_TRANSIT + 1);
  const denominator = histogram.total + priorWeight;
  for (let t = 0; t <= MAX_TRANSIT; t++) out[t] = (histogram.counts[t] + priorWeight * parent[t]) / denominator;
  return out;
}

/**
 * The smallest transit `t ≥ elapsed` whose share among transits of at least `elapsed` reaches `p`
 * (`P(T ≤ t | T ≥ elapsed) ≥ p`): the quantile once `elapsed` working days have passed without an attempt.
 */
export function quantile(pmf: Float64Array, p: number, elapsed = 0): number {
  const from = Math.max(0, Math.min(MAX_TRANSIT, elapsed));
  let remaining = 0;
  for (let t = from; t <= MAX_TRANSIT; t++) remaining += pmf[t];
  if (remaining <= 0) return from;
  let cumulative = 0;
  // A share a rounding error below p still reaches it.
  const target = p * remaining - 1e-12;
  for (let t = from; t <= MAX_TRANSIT; t++) {
    cumulative += pmf[t];
    if (cumulative >= target) return t;
  }
  return MAX_TRANSIT;
}

export interface TransitWindow {
  from: number;
  likely: number;
  to: number;
}

/** The window in working days after acceptance, given `elapsed` working days without an attempt. */
export function windowOf(pmf: Float64Array, elapsed = 0): TransitWindow {
  return {
    from: quantile(pmf, WINDOW_FROM, elapsed),
    likely: quantile(pmf, WINDOW_LIKELY, elapsed),
    to: quantile(pmf, WINDOW_TO, elapsed),
  };
}

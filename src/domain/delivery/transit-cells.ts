import type { TransitCount, TransitSample } from '../../db/repositories/transit-histograms.repository.js';
import { addSamples, type CellHistogram, emptyHistogram } from './transit-model.js';
import { addCalendarDays, mondayOf } from './working-calendar.js';

/** Where the counts come from: the repository, or an evaluation's own store. */
export interface TransitCountSource {
  counts(scope: string, cellKeys: readonly string[], sinceWeek: string): Promise<TransitCount[]>;
}

export interface RecencyOptions {
  /** A week's samples weigh half as much this many weeks later. */
  halfLifeWeeks: number;
  /** Samples of acceptance weeks older than this are not read. */
  windowWeeks: number;
}

export const DEFAULT_RECENCY: RecencyOptions = { halfLifeWeeks: 8, windowWeeks: 26 };

function weeksBetween(earlier: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / 604_800_000);
}

/** Recency-weighted histograms from counts, as of the week of `today`. */
export function weightedHistograms(
  cellKeys: readonly string[],
  counts: readonly TransitCount[],
  today: string,
  recency: RecencyOptions = DEFAULT_RECENCY,
): Map<string, CellHistogram> {
  const out = new Map<string, CellHistogram>(cellKeys.map((key) => [key, emptyHistogram()]));
  const current = mondayOf(today);
  for (const row of counts) {
    const histogram = out.get(row.cell_key);
    if (!histogram) continue;
    const age = Math.max(0, weeksBetween(row.week, current));
    addSamples(histogram, row.transit, row.shipments, 0.5 ** (age / recency.halfLifeWeeks));
  }
  return out;
}

interface Cached {
  histogram: CellHistogram;
  week: string;
  expiresAt: number;
}

/**
 * Lane cells' histograms, read from the store and kept for `ttlMs`: a prediction reads five cells, and busy
 * lanes are asked thousands of times a minute. A first attempt counted in another process shows here within
 * `ttlMs` (50 s: with the learner's 5 s between counts, within a minute of its event).
 */
export class TransitCells {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly nowMs: () => number,
    private readonly options: { ttlMs: number; maxEntries: number; recency: RecencyOptions } = {
      ttlMs: 50_000,
      maxEntries: 50_000,
      recency: DEFAULT_RECENCY,
    },
  ) {}

  /** `source` reads what is not cached: within a transaction, the transaction's repository. */
  async histograms(
    source: TransitCountSource,
    scope: string,
    cellKeys: readonly string[],
    today: string,
  ): Promise<Map<string, CellHistogram>> {
    const now = this.nowMs();
    const week = mondayOf(today);
    const out = new Map<string, CellHistogram>();
    const missing: string[] = [];
    for (const key of cellKeys) {
      const hit = this.cache.get(`${scope}\u0000${key}`);
      if (hit && hit.expiresAt > now && hit.week === week) out.set(key, hit.histogram);
      else missing.push(key);
    }
    if (missing.length === 0) return out;
    const since = addCalendarDays(week, -7 * this.options.recency.windowWeeks);
    const loaded = weightedHistograms(missing, await source.counts(scope, missing, since), today, this.options.recency);
    if (this.cache.size + missing.length > this.options.maxEntries) this.cache.clear();
    for (const [key, histogram] of loaded) {
      out.set(key, histogram);
      this.cache.set(`${scope}\u0000${key}`, { histogram, week, expiresAt: now + this.options.ttlMs });
    }
    return out;
  }

  /**
   * Counts samples written here into the cached cells they belong to, with the weight a reload would give them,
   * so that this process sees them at once without reading the cells again: a bulk write (a simulated history,
   * a poll of many first attempts) predicts between its samples, and forgetting the cells made each of those
   * predictions read five cells. A cell not cached, or expired, is left to be read.
   */
  record(scope: string, samples: readonly TransitSample[]): void {
    const now = this.nowMs();
    for (const sample of samples) {
      const id = `${scope}\u0000${sample.cell_key}`;
      const hit = this.cache.get(id);
      if (!hit) continue;
      if (hit.expiresAt <= now) {
        this.cache.delete(id);
        continue;
      }
      // As weightedHistograms and the read's window would count it.
      if (sample.week < addCalendarDays(hit.week, -7 * this.options.recency.windowWeeks)) continue;
      const age = Math.max(0, weeksBetween(sample.week, hit.week));
      addSamples(hit.histogram, sample.transit, sample.delta, 0.5 ** (age / this.options.recency.halfLifeWeeks));
    }
  }

  /** Forgets cells whose counts changed here, so that this process sees the change at once. */
  forget(scope: string, cellKeys: readonly string[]): void {
    for (const key of cellKeys) this.cache.delete(`${scope}\u0000${key}`);
  }
}

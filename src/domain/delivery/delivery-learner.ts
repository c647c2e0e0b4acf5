import { FINAL_PHASES, type PhaseKey } from '../../carriers/phases.js';
import type { DailyDelta, DailyTransitDelta, DeliveryFactRow } from '../../db/repositories/delivery-facts.repository.js';
import { DAILY_COUNTERS } from '../../db/repositories/delivery-facts.repository.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { TransitSample } from '../../db/repositories/transit-histograms.repository.js';
import { calendarFor } from './carrier-calendars.js';
import type { DeliveryPredictor, PredictedWindow } from './delivery-predictor.js';
import { analyticsLaneKey, cellKeysOf, type Lane, laneOf } from './lane.js';
import { type Milestones, milestonesOf } from './milestones.js';
import type { TransitCells } from './transit-cells.js';
import { mondayOf, workingDaysAfter } from './working-calendar.js';

type Json = Record<string, any>;

/** `delivery_prediction` as kept in the shipment's body and shown in v5.2 details. */
export interface StoredPrediction {
  source: 'waybill';
  from: string;
  to: string;
  likely: string;
  confidence: PredictedWindow['confidence'];
  issued_at: string;
  basis: PredictedWindow['basis'];
  original: { from: string; to: string };
  carrier: { from: string | null; to: string | null } | null;
}

export type PredictionScope = 'instance' | 'account';

/**
 * Follows tracking changes for delivery intelligence. In the transaction of the change it issues and re-issues
 * the shipment's predicted window (shown with the change) and queues the shipment for counting; `learn` counts
 * queued shipments in batches (src/jobs/delivery-learning.task.ts): each first attempt into the lane's transit
 * histograms once, and the daily aggregates of delivery analytics as the difference between the shipment's old
 * and new facts. Counting out of the change's transaction keeps the write of an event to one more row, and keeps
 * writers of the shared aggregate rows from locking them in different orders (a batch writes them in key order).
 */
export class DeliveryLearner {
  constructor(
    private readonly predictor: DeliveryPredictor,
    private readonly cells: TransitCells,
    private readonly scopeMode: PredictionScope,
  ) {}

  scopeOf(accountId: number): string {
    return this.scopeMode === 'account' ? String(accountId) : '';
  }

  /**
   * Brings the shipment's prediction up to date with its events and queues it for counting. Returns the row as
   * written (its body changed when the prediction did), or the row as given.
   */
  async observe(repos: Repositories, shipment: ShipmentRow, now: string, before?: ShipmentRow): Promise<ShipmentRow> {
    const body = await this.revise(repos, shipment, now, before);
    return body === null ? shipment : repos.shipments.update(shipment.id, { body });
  }

  /**
   * `observe` without its write, for a caller about to write the row itself in the same transaction (its events
   * stored already): queues the shipment for counting and returns the body with the prediction brought up to
   * date, or null when the body stays as it is. `shipment` is the row as it is about to be written.
   */
  async revise(repos: Repositories, shipment: ShipmentRow, now: string, before?: ShipmentRow): Promise<string | null> {
    if (!shipment.carrier_id) return null;
    if (before && sameJourneyToday(before, shipment, now)) return null;
    await repos.deliveryLearning.queue(shipment.id, now);
    const body: Json = JSON.parse(shipment.body);
    // Once the first attempt or the journey's end is reached, the window issued last is kept: nothing to read.
    if (body.delivery_prediction && WINDOW_KEPT.has(shipment.phase_key ?? '')) return null;
    const milestones = milestonesOf(await repos.events.phaseTimesOf(shipment.id));
    if (!milestones) return null;
    const prediction = await this.predictionOf(repos, shipment, body, milestones, now);
    if (prediction === null || JSON.stringify(prediction) === JSON.stringify(body.delivery_prediction ?? null)) return null;
    body.delivery_prediction = prediction;
    return JSON.stringify(body);
  }

  /** The prediction the shipment holds after these milestones: issued at acceptance, re-issued after each scan until the first attempt, then kept. */
  private async predictionOf(
    repos: Repositories,
    shipment: ShipmentRow,
    body: Json,
    milestones: Milestones,
    now: string,
  ): Promise<StoredPrediction | null> {
    let prediction: StoredPrediction | null = body.delivery_prediction ?? null;
    const final = FINAL_PHASES.includes(shipment.phase_key as PhaseKey);
    const accepted = milestones.acceptedDate;
    if (accepted === null || (prediction !== null && (milestones.firstAttempt !== null || final || milestones.excluded))) return prediction;
    const lane = laneOf(shipment.carrier_id as string, body);
    const scope = this.scopeOf(shipment.account_id);
    const today = now.slice(0, 10);
    // The first window is the one it had at acceptance, even when acceptance and attempt arrive together.
    const first = prediction === null ? await this.window(repos, lane, scope, accepted, accepted) : null;
    const original = prediction?.original ?? { from: (first as PredictedWindow).from, to: (first as PredictedWindow).to };
    let current: Omit<PredictedWindow, 'days'>;
    if (milestones.firstAttempt !== null || final || milestones.excluded) current = prediction ?? withoutDays(first as PredictedWindow);
    else if (milestones.outForDeliveryDate !== null) {
      const day = milestones.outForDeliveryDate;
      current = { from: day, likely: day, to: day, confidence: 'high', basis: { level: 'out_for_delivery', shipments: 0 } };
    } else if (first !== null && today <= accepted) {
      // Issued on the day of acceptance (or before it, by the carrier's clock): the first window, asked the same.
      current = withoutDays(first);
    } else current = withoutDays(await this.window(repos, lane, scope, accepted, today > accepted ? today : accepted));
    const next: StoredPrediction = {
      source: 'waybill',
      from: current.from,
      to: current.to,
      likely: current.likely,
      confidence: current.confidence,
      issued_at: now,
      basis: current.basis,
      original: { from: original.from, to: original.to },
      carrier: carrierWindow(body),
    };
    if (prediction === null || !sameWindow(prediction, next)) prediction = next;
    return prediction;
  }

  /**
   * Counts queued shipments (in the caller's transaction) and takes them off the queue: each one's facts from its
   * row and events as they are now, and what changed since it was last counted applied to the transit
   * histograms and the daily aggregates, each table in multi-row statements, its rows in key order. Returns how many
   * shipments changed the counts.
   */
  async learn(repos: Repositories, shipmentRowIds: readonly number[]): Promise<number> {
    if (shipmentRowIds.length === 0) return 0;
    const [shipments, events, olds] = [
      await repos.shipments.findByIds(shipmentRowIds),
      await repos.events.phaseTimesOfMany(shipmentRowIds),
      await repos.deliveryFacts.getMany(shipmentRowIds),
    ];
    const changes = new Changes();
    const facts: DeliveryFactRow[] = [];
    for (const shipment of shipments) {
      if (!shipment.carrier_id) continue;
      const milestones = milestonesOf(events.get(shipment.id) ?? []);
      if (!milestones) continue;
      const body: Json = JSON.parse(shipment.body);
      const lane = laneOf(shipment.carrier_id, body);
      const old = olds.get(shipment.id) ?? null;
      const fact = factOf(shipment, lane, milestones, body.delivery_prediction ?? null, old);
      if (old && sameFact(old, fact)) continue;
      facts.push(fact);
      const scope = this.scopeOf(shipment.account_id);
      if (
        fact.sampled !== (old?.sampled ?? 0) ||
        (fact.sampled === 1 && (old?.transit !== fact.transit || old?.accepted_date !== fact.accepted_date))
      ) {
        if (old?.sampled === 1 && old.transit !== null && old.accepted_date !== null)
          changes.samples(scope, samplesOf(lane, old.accepted_date, old.transit, -1));
        if (fact.sampled === 1) changes.samples(scope, samplesOf(lane, fact.accepted_date as string, fact.transit as number, 1));
      }
      changes.daily(dailyDeltas(old, fact));
    }
    await this.write(repos, changes, facts);
    await repos.deliveryLearning.remove(shipmentRowIds);
    return facts.length;
  }

  /**
   * Takes shipments out of the aggregates and histograms before they are deleted (their facts and queue rows go
   * with them), in the deleting transaction.
   */
  async forget(repos: Repositories, shipments: readonly ShipmentRow[]): Promise<void> {
    const ids = shipments.map((shipment) => shipment.id);
    // Waits for a learner counting them (PostgreSQL), whose facts are then the ones read here.
    await repos.deliveryLearning.remove(ids);
    const olds = await repos.deliveryFacts.getMany(ids);
    const changes = new Changes();
    for (const shipment of shipments) {
      const old = olds.get(shipment.id);
      if (!old) continue;
      if (old.sampled === 1 && old.transit !== null && old.accepted_date !== null && shipment.carrier_id) {
        const lane = laneOf(shipment.carrier_id, JSON.parse(shipment.body));
        changes.samples(this.scopeOf(shipment.account_id), samplesOf(lane, old.accepted_date, old.transit, -1));
      }
      changes.daily(dailyDeltas(old, null));
    }
    await this.write(repos, changes, []);
  }

  /** Writes in one order for every writer: histograms, facts, daily rows, their transits, rollups; each in key order. */
  private async write(repos: Repositories, changes: Changes, facts: readonly DeliveryFactRow[]): Promise<void> {
    const samples = changes.sampleList();
    for (const [scope, list] of samples) await repos.transitHistograms.add(scope, list);
    await repos.deliveryFacts.putMany(facts);
    const { rows, transits } = changes.dailyLists();
    await repos.deliveryFacts.applyDaily(rows, transits);
    for (const [scope, list] of samples) this.cells.record(scope, list);
  }

  private window(repos: Repositories, lane: Lane, scope: string, acceptedDate: string, today: string): Promise<PredictedWindow> {
    return this.predictor.predict({ lane, scope, acceptedDate, today }, repos.transitHistograms);
  }
}

/** Phases after which the window issued last is kept (the first attempt, the journey's end). */
const WINDOW_KEPT = new Set<string>(['delivered', 'failed_attempt', 'available_for_pickup', ...FINAL_PHASES]);

/** What a shipment's milestones say analytics count. */
function factOf(
  shipment: ShipmentRow,
  lane: Lane,
  milestones: Milestones,
  prediction: StoredPrediction | null,
  old: DeliveryFactRow | null,
): DeliveryFactRow {
  const accepted = milestones.acceptedDate;
  const transit =
    accepted !== null && milestones.firstAttempt !== null
      ? workingDaysAfter(
          accepted,
          milestones.firstAttempt.date,
          calendarFor(lane.carrierId, lane.service || null, lane.destinationCountry || null),
        )
      : null;
  return {
    shipment_row_id: shipment.id,
    account_id: shipment.account_id,
    day: accepted ?? old?.day ?? milestones.firstEventDate,
    lane_key: analyticsLaneKey(shipment.carrier_reference ?? lane.carrierId, lane),
    carrier_reference: shipment.carrier_reference ?? lane.carrierId,
    carrier_id: lane.carrierId,
    shipping_service: lane.service,
    origin_country: lane.originCountry,
    destination_country: lane.destinationCountry,
    destination_prefix: lane.destinationPostal.slice(0, 2),
    accepted_date: accepted,
    first_attempt_date: milestones.firstAttempt?.date ?? null,
    first_attempt_phase: milestones.firstAttempt?.phase ?? null,
    delivered: milestones.delivered ? 1 : 0,
    transit,
    promised_from: prediction?.original.from ?? null,
    promised_to: prediction?.original.to ?? null,
    exception: milestones.exception ? 1 : 0,
    returned: milestones.returned ? 1 : 0,
    sampled: transit !== null && !milestones.excluded ? 1 : 0,
    last_scan_at: milestones.lastScanAt,
  };
}

/** The changes of a batch to the shared rows, merged by key (a statement may change a row only once). */
class Changes {
  private readonly bySample = new Map<string, { scope: string; sample: TransitSample }>();
  private readonly rows = new Map<string, DailyDelta>();
  private readonly transits = new Map<string, DailyTransitDelta>();

  samples(scope: string, list: readonly TransitSample[]): void {
    for (const sample of list) {
      const key = JSON.stringify([scope, sample.cell_key, sample.week, sample.transit]);
      const existing = this.bySample.get(key);
      if (existing) existing.sample.delta += sample.delta;
      else this.bySample.set(key, { scope, sample: { ...sample } });
    }
  }

  daily({ rows, transits }: { rows: DailyDelta[]; transits: DailyTransitDelta[] }): void {
    for (const row of rows) {
      const key = JSON.stringify([row.account_id, row.day, row.lane_key]);
      const existing = this.rows.get(key);
      if (!existing) this.rows.set(key, { ...row });
      else for (const counter of DAILY_COUNTERS) existing[counter] += row[counter];
    }
    for (const transit of transits) {
      const key = JSON.stringify([transit.account_id, transit.day, transit.lane_key, transit.transit, transit.timing]);
      const existing = this.transits.get(key);
      if (existing) existing.delta += transit.delta;
      else this.transits.set(key, { ...transit });
    }
  }

  /** Samples by scope, scopes and each scope's samples in key order, those that net to zero left out. */
  sampleList(): Array<[string, TransitSample[]]> {
    const byScope = new Map<string, TransitSample[]>();
    for (const { scope, sample } of this.bySample.values()) {
      if (sample.delta === 0) continue;
      const list = byScope.get(scope) ?? [];
      list.push(sample);
      byScope.set(scope, list);
    }
    const order = (a: TransitSample, b: TransitSample) =>
      compare(a.cell_key, b.cell_key) || compare(a.week, b.week) || a.transit - b.transit;
    return [...byScope].sort(([a], [b]) => compare(a, b)).map(([scope, list]) => [scope, list.sort(order)]);
  }

  dailyLists(): { rows: DailyDelta[]; transits: DailyTransitDelta[] } {
    // A row whose counters net to zero is still written when its transits change: it locks the row, and its
    // week and month are found by it.
    const transitDays = new Set(
      [...this.transits.values()].filter((t) => t.delta !== 0).map((t) => JSON.stringify([t.account_id, t.day, t.lane_key])),
    );
    const rows = [...this.rows]
      .filter(([key, row]) => transitDays.has(key) || DAILY_COUNTERS.some((counter) => row[counter] !== 0))
      .map(([, row]) => row)
      .sort((a, b) => a.account_id - b.account_id || compare(a.day, b.day) || compare(a.lane_key, b.lane_key));
    const transits = [...this.transits.values()]
      .filter((t) => t.delta !== 0)
      .sort(
        (a, b) =>
          a.account_id - b.account_id ||
          compare(a.day, b.day) ||
          compare(a.lane_key, b.lane_key) ||
          a.transit - b.transit ||
          compare(a.timing, b.timing),
      );
    return { rows, transits };
  }
}

/** The one order in which every writer takes the shared rows (code unit order; what matters is that all use it). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether a change can leave the prediction and the facts as they are: another scan in the same phase and status
 * (most carrier updates: a parcel moving between hubs), on the number, carrier and body the shipment had, when the
 * window was issued today (it depends on the working days elapsed) or none is due yet (not accepted). Such a scan
 * changes only when the parcel was last seen, which the exception queue reads at the next change of its journey.
 */
function sameJourneyToday(before: ShipmentRow, after: ShipmentRow, now: string): boolean {
  if (
    before.phase_key !== after.phase_key ||
    before.status !== after.status ||
    before.carrier_id !== after.carrier_id ||
    before.tracking_number !== after.tracking_number ||
    before.carrier_reference !== after.carrier_reference ||
    before.body !== after.body
  )
    return false;
  if (after.phase_key === null || after.phase_key === 'info_received') return true;
  // Only on the way: a scan after the journey's end (a late delivery scan, an address corrected afterwards) is rare.
  if (after.phase_key !== 'in_transit') return false;
  const prediction = (JSON.parse(after.body) as Json).delivery_prediction as StoredPrediction | undefined;
  return prediction !== undefined && prediction.issued_at.slice(0, 10) === now.slice(0, 10);
}

function withoutDays(window: PredictedWindow): Omit<PredictedWindow, 'days'> {
  return { from: window.from, likely: window.likely, to: window.to, confidence: window.confidence, basis: window.basis };
}

/** The carrier's own window, as dates, when it gave one. */
function carrierWindow(body: Json): StoredPrediction['carrier'] {
  const window = body.carrier_expected_delivery;
  if (!window || (!window.from && !window.to)) return null;
  return { from: window.from ? String(window.from).slice(0, 10) : null, to: window.to ? String(window.to).slice(0, 10) : null };
}

function sameWindow(a: StoredPrediction, b: StoredPrediction): boolean {
  return (
    a.from === b.from &&
    a.to === b.to &&
    a.likely === b.likely &&
    a.confidence === b.confidence &&
    a.basis.level === b.basis.level &&
    JSON.stringify(a.carrier) === JSON.stringify(b.carrier) &&
    a.original.from === b.original.from &&
    a.original.to === b.original.to
  );
}

function sameFact(a: DeliveryFactRow, b: DeliveryFactRow): boolean {
  for (const key of Object.keys(b) as Array<keyof DeliveryFactRow>) {
    if (key === 'shipment_row_id' || key === 'account_id') continue;
    if (a[key] !== b[key]) return false;
  }
  return true;
}

function samplesOf(lane: Lane, acceptedDate: string, transit: number, delta: number): TransitSample[] {
  const week = mondayOf(acceptedDate);
  const samples: TransitSample[] = [];
  cellKeysOf(lane).forEach((cell_key, level) => {
    if (cell_key !== null) samples.push({ level, cell_key, week, transit, delta });
  });
  return samples;
}

/** Against the original window: before it, in it, after it, or none issued. */
export function timingOf(fact: Pick<DeliveryFactRow, 'first_attempt_date' | 'promised_from' | 'promised_to'>): string {
  const date = fact.first_attempt_date;
  if (date === null || fact.promised_to === null) return 'none';
  if (fact.promised_from !== null && date < fact.promised_from) return 'early';
  return date <= fact.promised_to ? 'on_time' : 'late';
}

function contribution(fact: DeliveryFactRow, sign: number): { row: DailyDelta; transit: DailyTransitDelta | null } {
  const attempted = fact.first_attempt_date !== null;
  const promised = attempted && fact.promised_to !== null;
  const row: DailyDelta = {
    account_id: fact.account_id,
    day: fact.day,
    lane_key: fact.lane_key,
    carrier_reference: fact.carrier_reference,
    carrier_id: fact.carrier_id,
    shipping_service: fact.shipping_service,
    origin_country: fact.origin_country,
    destination_country: fact.destination_country,
    destination_prefix: fact.destination_prefix,
    shipments: sign,
    accepted: fact.accepted_date !== null ? sign : 0,
    first_attempts: attempted ? sign : 0,
    first_attempt_successes: fact.first_attempt_phase === 'delivered' ? sign : 0,
    delivered: fact.delivered ? sign : 0,
    promised: promised ? sign : 0,
    on_time: promised && (fact.first_attempt_date as string) <= (fact.promised_to as string) ? sign : 0,
    exceptions: fact.exception ? sign : 0,
    returned_to_sender: fact.returned ? sign : 0,
  };
  const transit =
    fact.sampled === 1 && fact.transit !== null
      ? { account_id: fact.account_id, day: fact.day, lane_key: fact.lane_key, transit: fact.transit, timing: timingOf(fact), delta: sign }
      : null;
  return { row, transit };
}

/** What replacing `old` by `next` changes in the daily aggregates (Changes leaves out what nets to zero). */
function dailyDeltas(old: DeliveryFactRow | null, next: DeliveryFactRow | null): { rows: DailyDelta[]; transits: DailyTransitDelta[] } {
  const rows = new Map<string, DailyDelta>();
  const transits = new Map<string, DailyTransitDelta>();
  const add = (fact: DeliveryFactRow, sign: number) => {
    const part = contribution(fact, sign);
    const key = `${part.row.day}\u0000${part.row.lane_key}`;
    const existing = rows.get(key);
    if (!existing) rows.set(key, part.row);
    else for (const counter of DAILY_COUNTERS) existing[counter] += part.row[counter];
    if (part.transit) {
      const tkey = `${key}\u0000${part.transit.transit}\u0000${part.transit.timing}`;
      const t = transits.get(tkey);
      if (t) t.delta += part.transit.delta;
      else transits.set(tkey, part.transit);
    }
  };
  if (old) add(old, -1);
  if (next) add(next, 1);
  return { rows: [...rows.values()], transits: [...transits.values()] };
}

import { FINAL_PHASES, type PhaseKey } from '../../carriers/phases.js';
import type { DailyDelta, DailyTransitDelta, DeliveryFactRow } from '../../db/repositories/delivery-facts.repository.js';
import { DAILY_COUNTERS } from '../../db/repositories/delivery-facts.repository.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { TransitSample } from '../../db/repositories/transit-histograms.repository.js';
import { calendarFor } from './carrier-calendars.js';
import type { DeliveryPredictor, PredictedWindow } from './delivery-predictor.js';
import { analyticsLaneKey, cellKeysOf, type Lane, laneOf } from './lane.js';
import { milestonesOf } from './milestones.js';
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
 * Follows tracking changes for delivery intelligence, in the transaction of the change: issues and re-issues a
 * shipment's predicted window, counts its first attempt into the lane's transit histograms once, and keeps the
 * daily aggregates of delivery analytics as the difference between the shipment's old and new facts.
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
   * Brings the shipment's prediction and facts up to date with its events. Returns the row as written (its
   * body changed when the prediction did), or the row as given.
   */
  async observe(repos: Repositories, shipment: ShipmentRow, now: string, before?: ShipmentRow): Promise<ShipmentRow> {
    if (!shipment.carrier_id) return shipment;
    if (before && sameJourneyToday(before, shipment, now)) return shipment;
    const events = await repos.events.phaseTimesOf(shipment.id);
    const milestones = milestonesOf(events);
    if (!milestones) return shipment;
    const body: Json = JSON.parse(shipment.body);
    const lane = laneOf(shipment.carrier_id, body);
    const scope = this.scopeOf(shipment.account_id);
    const today = now.slice(0, 10);

    // The prediction: issued at acceptance, re-issued after each scan until the first attempt, then kept.
    let prediction: StoredPrediction | null = body.delivery_prediction ?? null;
    const final = FINAL_PHASES.includes(shipment.phase_key as PhaseKey);
    const accepted = milestones.acceptedDate;
    if (accepted !== null && (prediction === null || (milestones.firstAttempt === null && !final && !milestones.excluded))) {
      // The first window is the one it had at acceptance, even when acceptance and attempt arrive together.
      const first = prediction === null ? await this.window(repos, lane, scope, accepted, accepted) : null;
      const original = prediction?.original ?? { from: (first as PredictedWindow).from, to: (first as PredictedWindow).to };
      let current: Omit<PredictedWindow, 'days'>;
      if (milestones.firstAttempt !== null || final || milestones.excluded) current = prediction ?? withoutDays(first as PredictedWindow);
      else if (milestones.outForDeliveryDate !== null) {
        const day = milestones.outForDeliveryDate;
        current = { from: day, likely: day, to: day, confidence: 'high', basis: { level: 'out_for_delivery', shipments: 0 } };
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
    }
    let row = shipment;
    if (prediction !== null && JSON.stringify(prediction) !== JSON.stringify(body.delivery_prediction ?? null)) {
      body.delivery_prediction = prediction;
      row = await repos.shipments.update(shipment.id, { body: JSON.stringify(body) });
    }

    // The facts analytics count, and the transit sample predictions learn from.
    const old = await repos.deliveryFacts.get(shipment.id);
    const transit =
      accepted !== null && milestones.firstAttempt !== null
        ? workingDaysAfter(
            accepted,
            milestones.firstAttempt.date,
            calendarFor(lane.carrierId, lane.service || null, lane.destinationCountry || null),
          )
        : null;
    const sampled = transit !== null && !milestones.excluded;
    const fact: DeliveryFactRow = {
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
      sampled: sampled ? 1 : 0,
      last_scan_at: milestones.lastScanAt,
    };
    if (old && sameFact(old, fact)) return row;
    if (sampled !== (old?.sampled === 1) || (sampled && (old?.transit !== transit || old?.accepted_date !== accepted))) {
      const samples: TransitSample[] = [];
      if (old?.sampled === 1 && old.transit !== null && old.accepted_date !== null)
        samples.push(...samplesOf(lane, old.accepted_date, old.transit, -1));
      if (sampled && accepted !== null && transit !== null) samples.push(...samplesOf(lane, accepted, transit, 1));
      await repos.transitHistograms.add(scope, samples);
      this.cells.record(scope, samples);
    }
    await repos.deliveryFacts.put(fact);
    const { rows, transits } = dailyDeltas(old ?? null, fact);
    await repos.deliveryFacts.applyDaily(rows, transits);
    return row;
  }

  /**
   * Takes a shipment out of the aggregates and histograms before it is deleted (its facts go with the row).
   */
  async forget(repos: Repositories, shipment: ShipmentRow): Promise<void> {
    const old = await repos.deliveryFacts.get(shipment.id);
    if (!old) return;
    if (old.sampled === 1 && old.transit !== null && old.accepted_date !== null && shipment.carrier_id) {
      const lane = laneOf(shipment.carrier_id, JSON.parse(shipment.body));
      const scope = this.scopeOf(shipment.account_id);
      const samples = samplesOf(lane, old.accepted_date, old.transit, -1);
      await repos.transitHistograms.add(scope, samples);
      this.cells.record(scope, samples);
    }
    const { rows, transits } = dailyDeltas(old, null);
    await repos.deliveryFacts.applyDaily(rows, transits);
  }

  private window(repos: Repositories, lane: Lane, scope: string, acceptedDate: string, today: string): Promise<PredictedWindow> {
    return this.predictor.predict({ lane, scope, acceptedDate, today }, repos.transitHistograms);
  }
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

/** What replacing `old` by `next` changes in the daily aggregates (rows and transits that net to zero left out). */
export function dailyDeltas(
  old: DeliveryFactRow | null,
  next: DeliveryFactRow | null,
): { rows: DailyDelta[]; transits: DailyTransitDelta[] } {
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
  return {
    rows: [...rows.values()].filter((row) => DAILY_COUNTERS.some((counter) => row[counter] !== 0)),
    transits: [...transits.values()].filter((t) => t.delta !== 0),
  };
}

import type { Insertable } from 'kysely';
import { isPhaseKey, nextTrackingState, type PhaseKey } from '../../carriers/phases.js';
import type { ShipmentStatus } from '../../core/shipment-status.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { TrackingEventsTable } from '../../db/schema.js';

export type NewEvent = Omit<Insertable<TrackingEventsTable>, 'shipment_row_id' | 'created_at'>;

export interface RecordOptions {
  correction?: boolean;
  /** The caller read `shipment` under a row lock in this transaction, so it is current: no second read. */
  locked?: boolean;
}

/** What storing events changes on the shipment row, not written yet. */
export interface EventChanges {
  created: number;
  /** Columns to write, or null when no event was new. */
  changes: Pick<ShipmentRow, 'status' | 'phase_key' | 'updated_at' | 'last_tracking_update_at'> | null;
  /** The shipment the changes apply to (re-read under a lock unless the caller held one). */
  shipment: ShipmentRow;
  stateChanged: boolean;
}

/**
 * Stores events a shipment has not seen yet (by de-duplication key) and decides its status and phase from the
 * newest event that carries a phase, by the rules of `nextTrackingState` (never backwards from a final state unless
 * the event is a correction). Leaves writing the row to the caller, so that it can write everything it changes in
 * one statement. Runs inside the caller's transaction.
 */
export async function storeEvents(
  repos: Repositories,
  shipment: ShipmentRow,
  events: NewEvent[],
  now: string,
  options: RecordOptions = {},
): Promise<EventChanges> {
  // Re-read under a row lock: a poll and a manual event on one shipment must not overwrite each other's state. The
  // lock comes before the insert, whose trigger bumps the shipment's version: every writer takes the shipment's row
  // before its version's, so two writers of one shipment never wait for each other in a circle (on PostgreSQL).
  if (!options.locked) shipment = (await repos.shipments.lock(shipment.id)) ?? shipment;
  const created = await repos.events.insertNew(events.map((e) => ({ ...e, shipment_row_id: shipment.id, created_at: now })));
  if (created === 0) return { created, changes: null, shipment, stateChanged: false };
  const latest = await repos.events.latestWithPhase(shipment.id);
  return eventChanges(shipment, created, latest?.phase_key ?? null, now, options.correction);
}

/**
 * What storing `created` new events changes on a shipment whose newest event with a phase now has
 * `latestPhase`: status and phase by `nextTrackingState`, and the update times.
 */
export function eventChanges(
  shipment: ShipmentRow,
  created: number,
  latestPhase: string | null,
  now: string,
  correction?: boolean,
): EventChanges {
  if (created === 0) return { created, changes: null, shipment, stateChanged: false };
  const transition = nextTrackingState(
    { status: shipment.status as ShipmentStatus, phase_key: isPhaseKey(shipment.phase_key) ? shipment.phase_key : null },
    { phase_key: latestPhase !== null && isPhaseKey(latestPhase) ? (latestPhase as PhaseKey) : null, correction },
  );
  return {
    created,
    changes: { status: transition.status, phase_key: transition.phase_key, updated_at: now, last_tracking_update_at: now },
    shipment,
    stateChanged: transition.changed,
  };
}

/**
 * `storeEvents` for many shipments the caller holds locked, in few statements: every new event in multi-row
 * inserts, then the newest phase of those that got any. Returns, by shipment row id, how many events were
 * new and the phase of its newest event that has one (null: none has).
 */
export async function storeEventsOf(
  repos: Repositories,
  items: ReadonlyArray<{ shipment: ShipmentRow; events: readonly NewEvent[] }>,
  now: string,
): Promise<Map<number, { created: number; latestPhase: string | null }>> {
  const rows: Array<Insertable<TrackingEventsTable>> = [];
  for (const { shipment, events } of items) {
    for (const e of events) {
      // Written out, not spread: thousands of rows a second.
      rows.push({
        shipment_row_id: shipment.id,
        dedupe_key: e.dedupe_key,
        origin: e.origin,
        event: e.event,
        event_key: e.event_key,
        phase_key: e.phase_key,
        time_text: e.time_text,
        time_utc: e.time_utc,
        timezone: e.timezone,
        carrier_name: e.carrier_name,
        location: e.location,
        additional_info: e.additional_info,
        sequence: e.sequence,
        created_at: now,
      });
    }
  }
  const out = new Map<number, { created: number; latestPhase: string | null }>();
  for (const { shipment } of items) out.set(shipment.id, { created: 0, latestPhase: null });
  if (rows.length === 0) return out;
  for (const stored of await repos.events.insertNewOf(rows)) {
    const entry = out.get(Number(stored.shipment_row_id));
    if (entry) entry.created++;
  }
  const changed = [...out].filter(([, entry]) => entry.created > 0).map(([id]) => id);
  const latest = await repos.events.latestPhasesOf(changed);
  for (const id of changed) (out.get(id) as { latestPhase: string | null }).latestPhase = latest.get(id) ?? null;
  return out;
}

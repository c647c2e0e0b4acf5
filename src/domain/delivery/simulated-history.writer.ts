import type { Insertable } from 'kysely';
import { eventDescription, phaseOfEvent } from '../../carriers/phases.js';
import { SHIPMENT_STATUS } from '../../core/shipment-status.js';
import { timeOrderedUuid } from '../../core/time-ordered-uuid.js';
import type { Repositories } from '../../db/repositories/index.js';
import { type ShipmentRow, storedShipment } from '../../db/repositories/shipments.repository.js';
import { SimulatedHistoryRepository } from '../../db/repositories/simulated-history.repository.js';
import type { ShipmentsTable } from '../../db/schema.js';
import { randomToken } from '../../secrets.js';
import { ValidationError } from '../errors.js';
import { eventChanges, type NewEvent, storeEventsOf } from '../shipments/event-recorder.js';
import type { SimulatedShipment } from './simulated-history.js';

/**
 * The `source` of every simulated shipment: how a simulated history is told apart from real shipments, shown as
 * the shipment's `source`, and the one thing `deleteSimulatedHistory` deletes by.
 */
export const SIMULATION_SOURCE = 'simulation';
/** The `origin` of simulated events (carriers' are `carrier`, merchants' `manual`). */
export const SIMULATION_EVENT_ORIGIN = 'simulation';
/** Shipments per transaction: large enough to cost few commits, small enough not to hold the database long. */
export const SIMULATION_BATCH = 500;

/**
 * Told of each batch of simulated shipments in its transaction, after their events are stored and their status and
 * phase moved: what a carrier poll's followers would be told (delivery intelligence learns from them).
 */
export type SimulatedShipmentHook = (repos: Repositories, shipments: readonly ShipmentRow[], now: string) => Promise<void>;
/** Told of each batch of simulated shipments in the transaction that deletes them, before they go. */
export type SimulatedShipmentRemoval = (repos: Repositories, shipments: readonly ShipmentRow[]) => Promise<void>;

export interface WrittenHistory {
  shipments: number;
  events: number;
}

/**
 * Writes a simulated history into an account as shipments like any other, but untracked: the carrier's id is set
 * (its name and lanes show) and no carrier configuration, so nothing ever polls the `SIM…` numbers. Each shipment's
 * events are stored as `storeEvents` stores them, and its status and phase follow them by the same rule
 * (`eventChanges`), written for a batch of shipments in a few multi-row statements. `source` is
 * `simulation` (SIMULATION_SOURCE). A history whose tracking numbers the account already has as shipment ids (the
 * same seed written twice) is refused before anything is written. `now` is the time of the write.
 */
export async function writeSimulatedHistory(
  repos: Repositories,
  accountId: number,
  shipments: readonly SimulatedShipment[],
  onShipments?: SimulatedShipmentHook,
  now: string = new Date().toISOString(),
): Promise<WrittenHistory> {
  for (let start = 0; start < shipments.length; start += SIMULATION_BATCH) {
    const ids = shipments.slice(start, start + SIMULATION_BATCH).map((s) => s.tracking_number);
    const existing = await repos.shipments.existingShipmentIds(accountId, ids);
    if (existing.size > 0) {
      throw ValidationError.at(
        ['seed'],
        `The account already has this simulated history (shipment ${[...existing][0]}): delete it first or use another seed.`,
      );
    }
  }
  let events = 0;
  for (let start = 0; start < shipments.length; start += SIMULATION_BATCH) {
    const batch = shipments.slice(start, start + SIMULATION_BATCH);
    events += await repos.transaction(async (trx) => {
      // Status and phase are decided before the insert, by the rule `storeEvents` applies to a new shipment
      // whose events all arrive at once (eventChanges): one multi-row insert of shipments, then of events.
      const prepared = batch.map((shipment) => {
        const pending = shipmentRow(accountId, shipment);
        const stored = eventsOf(shipment);
        const latest = stored.at(-1)?.phase_key ?? null;
        const { changes } = eventChanges(storedShipment(pending, 0), stored.length, latest, now);
        return { row: { ...pending, ...(changes ?? {}) }, stored };
      });
      const inserted = await trx.shipments.insertMany(prepared.map((p) => p.row));
      const rows: ShipmentRow[] = prepared.map((p, k) => storedShipment(p.row, inserted[k].id));
      const created = await storeEventsOf(
        trx,
        rows.map((shipment, k) => ({ shipment, events: prepared[k].stored })),
        now,
      );
      let stored = 0;
      for (const [k, row] of rows.entries()) {
        const entry = created.get(row.id);
        if (entry?.created !== prepared[k].stored.length || entry.latestPhase !== row.phase_key) {
          throw new Error(`simulated shipment ${row.shipment_id}: its events were not stored as prepared`);
        }
        stored += entry.created;
      }
      if (onShipments) await onShipments(trx, rows, now);
      return stored;
    });
  }
  return { shipments: shipments.length, events };
}

/**
 * Deletes the account's simulated shipments (source `simulation`) and, through the foreign keys, everything that
 * belongs to them; nothing else. `beforeDelete` is told of each batch first, in the deleting transaction (delivery
 * intelligence takes it out of its aggregates). Answers how many shipments were deleted.
 */
export async function deleteSimulatedHistory(
  repos: Repositories,
  accountId: number,
  beforeDelete?: SimulatedShipmentRemoval,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await repos.transaction(async (trx) => {
      const simulated = new SimulatedHistoryRepository(trx.db);
      const page = await simulated.page(accountId, SIMULATION_SOURCE, 0, SIMULATION_BATCH);
      if (beforeDelete) await beforeDelete(trx, page);
      return simulated.delete(
        accountId,
        SIMULATION_SOURCE,
        page.map((s) => s.id),
      );
    });
    deleted += count;
    if (count < SIMULATION_BATCH) return deleted;
  }
}

function shipmentRow(accountId: number, shipment: SimulatedShipment): Insertable<ShipmentsTable> {
  return {
    account_id: accountId,
    shipment_uuid: timeOrderedUuid(),
    shipment_id: shipment.tracking_number,
    tracking_number: shipment.tracking_number,
    carrier_reference: null,
    carrier_id: shipment.carrier_id,
    order_row_id: null,
    status: SHIPMENT_STATUS.pending,
    phase_key: null,
    source: SIMULATION_SOURCE,
    shipment_type: null,
    tracking_page_reference: randomToken(16),
    body: JSON.stringify({
      sender_address: shipment.sender_address,
      recipient_address: shipment.recipient_address,
      shipping_service: shipment.shipping_service,
    }),
    created_at: shipment.created_at,
    updated_at: shipment.created_at,
    tracking_started_at: null,
    next_poll_at: null,
    last_tracking_update_at: null,
  };
}

function eventsOf(shipment: SimulatedShipment): NewEvent[] {
  return shipment.events.map((event, index) => ({
    dedupe_key: `simulation:${index}`,
    origin: SIMULATION_EVENT_ORIGIN,
    event: eventDescription(event.event_key),
    event_key: event.event_key,
    phase_key: phaseOfEvent(event.event_key),
    time_text: event.time,
    time_utc: new Date(Date.parse(event.time)).toISOString(),
    timezone: event.timezone,
    carrier_name: null,
    location: JSON.stringify(event.location),
    additional_info: '{}',
    sequence: index,
  }));
}

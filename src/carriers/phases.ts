/**
 * The standard tracking vocabulary every carrier maps into: phase keys (where a shipment is in its
 * journey), event keys (what happened, each inside one phase), the shipment status each phase implies,
 * and the rule that decides how a newly latest event moves a shipment's status and phase.
 */

/** Standard phase keys with their English names, in journey order. */
export const PHASES = {
  info_received: 'Information received',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  failed_attempt: 'Failed delivery attempt',
  available_for_pickup: 'Available for pickup',
  delivered: 'Delivered',
  exception: 'Exception',
  return_to_sender: 'Return to sender',
} as const;

export type PhaseKey = keyof typeof PHASES;

export const PHASE_KEYS = Object.keys(PHASES) as PhaseKey[];

interface EventDefinition {
  phase: PhaseKey;
  /** The standard English description, used as the event's `event` text. */
  description: string;
}

/** Standard event keys: the phase each belongs to and its standard English description. */
export const EVENTS = {
  info_received: { phase: 'info_received', description: 'Shipment information received' },
  label_created: { phase: 'info_received', description: 'Shipping label created' },
  pickup_failed: { phase: 'info_received', description: 'Pickup by the carrier failed' },
  picked_up: { phase: 'in_transit', description: 'Picked up by the carrier' },
  in_transit: { phase: 'in_transit', description: 'In transit' },
  arrived_at_facility: { phase: 'in_transit', description: 'Arrived at a carrier facility' },
  departed_facility: { phase: 'in_transit', description: 'Departed a carrier facility' },
  in_customs: { phase: 'in_transit', description: 'In customs' },
  customs_cleared: { phase: 'in_transit', description: 'Cleared customs' },
  rescheduled: { phase: 'in_transit', description: 'Delivery rescheduled' },
  out_for_delivery: { phase: 'out_for_delivery', description: 'Out for delivery' },
  delivery_attempt_failed: { phase: 'failed_attempt', description: 'Delivery attempt failed' },
  available_for_pickup: { phase: 'available_for_pickup', description: 'Available for pickup' },
  delivered: { phase: 'delivered', description: 'Delivered' },
  delivered_to_neighbour: { phase: 'delivered', description: 'Delivered to a neighbour' },
  delivered_to_pickup_point: { phase: 'delivered', description: 'Delivered to the pickup point chosen as delivery address' },
  collected_by_recipient: { phase: 'delivered', description: 'Collected by the recipient' },
  address_issue: { phase: 'exception', description: 'Problem with the delivery address' },
  damaged: { phase: 'exception', description: 'Damaged' },
  lost: { phase: 'exception', description: 'Lost' },
  delayed: { phase: 'exception', description: 'Delayed' },
  refused_by_recipient: { phase: 'exception', description: 'Refused by the recipient' },
  cancelled: { phase: 'exception', description: 'Shipment cancelled' },
  returning_to_sender: { phase: 'return_to_sender', description: 'Returning to sender' },
  returned_to_sender: { phase: 'return_to_sender', description: 'Returned to sender' },
} as const satisfies Record<string, EventDefinition>;

export type EventKey = keyof typeof EVENTS;

export const EVENT_KEYS = Object.keys(EVENTS) as EventKey[];

/** Shipment status values of the interface. */
export type ShipmentStatus = 'pending' | 'expired' | 'active' | 'inactive' | 'delivered' | 'return';

/**
 * The status a phase implies. `expired` and `inactive` are never implied by carrier data: they are set
 * by housekeeping (tracking given up, shipment closed).
 */
export const PHASE_STATUS: Record<PhaseKey, ShipmentStatus> = {
  info_received: 'pending',
  in_transit: 'active',
  out_for_delivery: 'active',
  failed_attempt: 'active',
  available_for_pickup: 'active',
  delivered: 'delivered',
  exception: 'active',
  return_to_sender: 'return',
};

/**
 * How far along the journey a phase is. A newly latest event never moves a shipment to a lower rank;
 * phases of equal rank (the phases of an active journey) replace each other freely, because parcels
 * do go from a failed attempt back out for delivery, or from an exception back into transit.
 */
export const PHASE_RANK: Record<PhaseKey, number> = {
  info_received: 0,
  in_transit: 1,
  out_for_delivery: 1,
  failed_attempt: 1,
  available_for_pickup: 1,
  exception: 1,
  delivered: 2,
  return_to_sender: 3,
};

/** Phases that end the journey: leaving them needs an explicit correction from the carrier. */
export const FINAL_PHASES: readonly PhaseKey[] = ['delivered', 'return_to_sender'];

export function isPhaseKey(value: unknown): value is PhaseKey {
  return typeof value === 'string' && Object.hasOwn(PHASES, value);
}

export function isEventKey(value: unknown): value is EventKey {
  return typeof value === 'string' && Object.hasOwn(EVENTS, value);
}

/** The English name of a phase (the `phase` field of an event, `current_phase.name`). */
export function phaseName(key: PhaseKey): string {
  return PHASES[key];
}

/** The phase an event key belongs to. */
export function phaseOfEvent(key: EventKey): PhaseKey {
  return EVENTS[key].phase;
}

/** The standard English description of an event key. */
export function eventDescription(key: EventKey): string {
  return EVENTS[key].description;
}

/** A shipment's tracking position: its status and current phase. */
export interface TrackingState {
  status: ShipmentStatus;
  /** Null until an event with a standard phase has been seen. */
  phase_key: PhaseKey | null;
}

/** What the state machine needs of the newly latest event. */
export interface LatestEvent {
  /** The event's phase; null for an event the carrier mapping could not place (it changes nothing). */
  phase_key: PhaseKey | null;
  /**
   * True when the carrier explicitly marks the event as overriding an earlier final state: a wrong
   * delivery scan corrected, or a delivered parcel sent back. Without it, final phases hold.
   */
  correction?: boolean;
}

export interface TrackingTransition extends TrackingState {
  /** True when status or phase differ from the current state. */
  changed: boolean;
}

/**
 * The status and phase after a newly latest event (the newest by event time).
 *
 * - An event without a phase changes nothing.
 * - A correction is taken as it is, in any direction.
 * - Otherwise a final phase (`delivered`, `return_to_sender`) holds: delivered stays delivered, and a
 *   parcel on its way back stays `return` even when the carrier reports the delivery back to sender.
 * - Otherwise the phase moves to any phase of the same or a higher rank and never to a lower one
 *   (a late "label created" does not undo "in transit").
 * - The status follows the resulting phase (`PHASE_STATUS`). This also revives `expired` or
 *   `inactive` shipments when the carrier reports again.
 *
 * @example nextTrackingState({ status: 'delivered', phase_key: 'delivered' }, { phase_key: 'in_transit' })
 *   // → { status: 'delivered', phase_key: 'delivered', changed: false }
 */
export function nextTrackingState(current: TrackingState, latest: LatestEvent): TrackingTransition {
  const unchanged: TrackingTransition = { ...current, changed: false };
  const next = latest.phase_key;
  if (next === null) return unchanged;

  if (!latest.correction && current.phase_key !== null) {
    if (FINAL_PHASES.includes(current.phase_key)) return unchanged;
    if (PHASE_RANK[next] < PHASE_RANK[current.phase_key]) return unchanged;
  }
  // Status and phase are kept together; a status already final (set by an earlier rule) also holds.
  if (!latest.correction && (current.status === 'delivered' || current.status === 'return')) return unchanged;

  const status = PHASE_STATUS[next];
  return { status, phase_key: next, changed: status !== current.status || next !== current.phase_key };
}

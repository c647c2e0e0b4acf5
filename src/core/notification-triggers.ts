/**
 * What a consumer can be told about: a shipment reaching a phase (every phase key of src/carriers/phases.ts), and
 * a return's course (requested, decided, received back, refunded).
 */
export const SHIPMENT_TRIGGERS = [
  'info_received',
  'in_transit',
  'out_for_delivery',
  'available_for_pickup',
  'failed_attempt',
  'exception',
  'delivered',
  'return_to_sender',
] as const;

export const RETURN_TRIGGERS = ['return_requested', 'return_approved', 'return_rejected', 'return_received', 'refund_issued'] as const;

export const TRIGGERS = [...SHIPMENT_TRIGGERS, ...RETURN_TRIGGERS] as const;
export type Trigger = (typeof TRIGGERS)[number];
export type ReturnTrigger = (typeof RETURN_TRIGGERS)[number];

export const CHANNELS = ['email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * On unless the merchant turns them off: the moments consumers most often ask "where is my parcel?". A return's
 * triggers are off until the merchant turns them on: an account that tells its consumers about returns its own way
 * (its shop system, the portal's own pages) would otherwise send each of them twice.
 */
export const DEFAULT_TRIGGERS: readonly Trigger[] = [
  'out_for_delivery',
  'available_for_pickup',
  'failed_attempt',
  'exception',
  'delivered',
];

export function isTrigger(value: string): value is Trigger {
  return (TRIGGERS as readonly string[]).includes(value);
}

/** Whether a trigger is about a return (its messages speak of the return and link to its status page). */
export function isReturnTrigger(trigger: string): trigger is ReturnTrigger {
  return (RETURN_TRIGGERS as readonly string[]).includes(trigger);
}

export function isChannel(value: string): value is Channel {
  return (CHANNELS as readonly string[]).includes(value);
}

/** The trigger a shipment's arrival at a phase fires (every phase is one). */
export function triggerOfPhase(phase: string | null): Trigger | null {
  return phase !== null && (SHIPMENT_TRIGGERS as readonly string[]).includes(phase) ? (phase as Trigger) : null;
}

/** The trigger a return ticket's state fires: approved, rejected, or completed (the merchant received it). */
export function triggerOfReturnStatus(status: string): ReturnTrigger | null {
  if (status === 'approved') return 'return_approved';
  if (status === 'rejected') return 'return_rejected';
  if (status === 'completed') return 'return_received';
  return null;
}

/**
 * The triggers a change of a return ticket fires: a return created pending approval is `return_requested` (one
 * created approved is `return_approved`), a state its trigger, and a recorded refund `refund_issued`. Each
 * (shipment, trigger, channel, recipient) is sent once, so a trigger fired again by a later change sends nothing.
 */
export function triggersOfReturn(
  change: 'created' | 'updated',
  ticket: { status: string; refund_issued_at: string | null },
): ReturnTrigger[] {
  const triggers: ReturnTrigger[] = [];
  if (change === 'created' && ticket.status === 'pending approval') triggers.push('return_requested');
  const decided = triggerOfReturnStatus(ticket.status);
  if (decided) triggers.push(decided);
  if (ticket.refund_issued_at) triggers.push('refund_issued');
  return triggers;
}

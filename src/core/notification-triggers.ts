/** What a consumer can be told about: a shipment reaching a phase (every phase key of src/carriers/phases.ts), and a return ticket's decisions. */
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

export const RETURN_TRIGGERS = ['return_approved', 'return_rejected', 'return_received'] as const;

export const TRIGGERS = [...SHIPMENT_TRIGGERS, ...RETURN_TRIGGERS] as const;
export type Trigger = (typeof TRIGGERS)[number];
export type ReturnTrigger = (typeof RETURN_TRIGGERS)[number];

export const CHANNELS = ['email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

/** On unless the merchant turns them off: the moments consumers most often ask "where is my parcel?". */
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

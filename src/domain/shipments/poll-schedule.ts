import type { PhaseKey } from '../../carriers/phases.js';

const MINUTE = 60_000;

/** How often a tracked shipment is polled, by its current phase; null phase = nothing known yet. */
const INTERVAL_BY_PHASE: Record<PhaseKey | 'none', number> = {
  none: 15 * MINUTE,
  info_received: 2 * 60 * MINUTE,
  in_transit: 30 * MINUTE,
  out_for_delivery: 15 * MINUTE,
  failed_attempt: 60 * MINUTE,
  available_for_pickup: 2 * 60 * MINUTE,
  exception: 2 * 60 * MINUTE,
  delivered: 0,
  return_to_sender: 6 * 60 * MINUTE,
};

/** The longest a shipment in this phase waits between polls when nothing holds it back. */
export function pollIntervalOf(phase: PhaseKey | null): number {
  return INTERVAL_BY_PHASE[phase ?? 'none'] || INTERVAL_BY_PHASE.none;
}

/** While the carrier pushes a shipment's events, polls are a safety net: this many times rarer, */
export const PUSHED_POLL_FACTOR = 8;
/** and never more than this far apart. */
export const PUSHED_POLL_MAX_MS = 12 * 60 * MINUTE;

export interface ScheduleOptions {
  /** A carrier configuration's `poll_interval_seconds`: polls at least this often. */
  maxIntervalMs?: number;
  /** The carrier pushes this shipment's events (a subscription runs): polls are rare. */
  pushed?: boolean;
  /** 0..1, from a random source; spreads polls so they do not arrive in waves. */
  jitter: number;
}

/** The next poll after a successful one, or null when tracking is over (delivered). */
export function nextPollAfterSuccess(now: Date, phase: PhaseKey | null, status: string, options: ScheduleOptions): Date | null {
  if (status === 'delivered') return null;
  let interval = INTERVAL_BY_PHASE[phase ?? 'none'];
  if (options.pushed) interval = Math.min(interval * PUSHED_POLL_FACTOR, Math.max(interval, PUSHED_POLL_MAX_MS));
  if (options.maxIntervalMs !== undefined) interval = Math.min(interval, options.maxIntervalMs);
  // ±10% jitter
  const jittered = interval * (0.9 + 0.2 * options.jitter);
  return new Date(now.getTime() + jittered);
}

/** Waiting for a number the carrier does not know yet: often on the first day, then every two hours. */
export function nextPollWhileUnknown(now: Date, trackingStartedAt: Date, options: ScheduleOptions): Date {
  const firstDay = now.getTime() - trackingStartedAt.getTime() < 24 * 60 * MINUTE;
  let interval = firstDay ? 15 * MINUTE : 2 * 60 * MINUTE;
  if (options.maxIntervalMs !== undefined) interval = Math.min(interval, options.maxIntervalMs);
  return new Date(now.getTime() + interval * (0.9 + 0.2 * options.jitter));
}

/** After a retryable failure: 30 s doubling up to an hour, or the carrier's own Retry-After if longer. */
export function nextPollAfterFailure(now: Date, failures: number, retryAfterSeconds?: number): Date {
  const backoff = Math.min(60 * MINUTE, 30_000 * 2 ** Math.max(0, failures - 1));
  return new Date(now.getTime() + Math.max(backoff, (retryAfterSeconds ?? 0) * 1000));
}

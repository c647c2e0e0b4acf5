/**
 * The milestones of a shipment's journey that predictions and analytics count (docs/delivery-intelligence.md,
 * "Definitions"), read from its events. Dates are in each event's local time.
 */

export interface MilestoneEvent {
  phase_key: string | null;
  event_key: string | null;
  time_text: string;
  time_utc: string;
  timezone: string | null;
}

export interface Milestones {
  /** The date of the first event. */
  firstEventDate: string;
  /** The newest event's instant (UTC). */
  lastScanAt: string;
  /** Acceptance: the first event in the in_transit phase or later on the way (picked_up or later). */
  acceptedDate: string | null;
  /** The first event in the delivered, failed_attempt or available_for_pickup phase, after acceptance. */
  firstAttempt: { date: string; phase: 'delivered' | 'failed_attempt' | 'available_for_pickup' } | null;
  /** The date of the newest event when it is out for delivery (the window collapses to that day). */
  outForDeliveryDate: string | null;
  delivered: boolean;
  exception: boolean;
  returned: boolean;
  /** Returned to sender, lost or cancelled: not a transit sample. */
  excluded: boolean;
}

const ON_THE_WAY = new Set(['in_transit', 'out_for_delivery', 'failed_attempt', 'available_for_pickup', 'delivered']);
const ATTEMPTS = new Set(['delivered', 'failed_attempt', 'available_for_pickup']);
const EXCLUDING_EVENTS = new Set(['lost', 'cancelled']);

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The event's calendar date where it happened: as written, or its UTC instant in its timezone. */
export function localDate(event: Pick<MilestoneEvent, 'time_text' | 'time_utc' | 'timezone'>): string {
  const text = event.time_text;
  if (event.timezone && (text.endsWith('Z') || text.endsWith('z'))) {
    let format = formatters.get(event.timezone);
    if (!format) {
      try {
        format = new Intl.DateTimeFormat('en-CA', { timeZone: event.timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
      } catch {
        return text.slice(0, 10);
      }
      formatters.set(event.timezone, format);
    }
    return format.format(new Date(event.time_utc));
  }
  return text.slice(0, 10);
}

/** The milestones of a shipment's events (in any order); null without events. */
export function milestonesOf(events: readonly MilestoneEvent[]): Milestones | null {
  if (events.length === 0) return null;
  const ordered = [...events].sort((a, b) => (a.time_utc < b.time_utc ? -1 : a.time_utc > b.time_utc ? 1 : 0));
  let acceptedDate: string | null = null;
  let firstAttempt: Milestones['firstAttempt'] = null;
  let delivered = false;
  let exception = false;
  let returned = false;
  let excluded = false;
  for (const event of ordered) {
    const phase = event.phase_key;
    if (phase === null) continue;
    if (acceptedDate === null && ON_THE_WAY.has(phase)) acceptedDate = localDate(event);
    if (firstAttempt === null && acceptedDate !== null && ATTEMPTS.has(phase)) {
      firstAttempt = { date: localDate(event), phase: phase as 'delivered' | 'failed_attempt' | 'available_for_pickup' };
    }
    if (phase === 'delivered') delivered = true;
    if (phase === 'exception') exception = true;
    if (phase === 'return_to_sender') {
      returned = true;
      excluded = true;
    }
    if (event.event_key !== null && EXCLUDING_EVENTS.has(event.event_key)) excluded = true;
  }
  const newest = ordered[ordered.length - 1];
  const newestWithPhase = [...ordered].reverse().find((e) => e.phase_key !== null);
  return {
    firstEventDate: localDate(ordered[0]),
    lastScanAt: newest.time_utc,
    acceptedDate,
    firstAttempt,
    outForDeliveryDate: newestWithPhase?.phase_key === 'out_for_delivery' ? localDate(newestWithPhase) : null,
    delivered,
    exception,
    returned,
    excluded,
  };
}

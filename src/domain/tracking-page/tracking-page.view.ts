import { isPhaseKey, type PhaseKey } from '../../carriers/phases.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { TrackingEventRow } from '../../db/repositories/tracking-events.repository.js';
import type { Language } from '../../i18n/languages.js';
import { shownExpectedDelivery } from '../delivery/expected-delivery.js';
import { type ShownTime, showEventTime, showWindowEnd } from './local-time.js';
import type { TrackingPageMessages } from './tracking-page.messages.js';

/** The steps of the progress line, in journey order. */
export const PROGRESS_STEPS = ['info_received', 'in_transit', 'out_for_delivery', 'delivered'] as const;
export type ProgressStepKey = (typeof PROGRESS_STEPS)[number];

export interface ProgressStep {
  key: ProgressStepKey;
  label: string;
  state: 'done' | 'current' | 'upcoming';
}

export type NoticeKind = keyof TrackingPageMessages['notices'];

export interface TrackingEventView {
  description: string;
  time: ShownTime;
  /** City and country only: never a street, a name or a house number. */
  place: string | null;
}

/**
 * Everything the public page shows of one shipment, and nothing more: no addresses beyond an event's
 * city and country, no prices, no contact details, no identifiers of the merchant's own.
 */
export interface TrackingPageView {
  language: Language;
  messages: TrackingPageMessages;
  trackingNumber: string | null;
  carrierName: string | null;
  phase: { key: PhaseKey | null; label: string };
  steps: ProgressStep[];
  /** Exceptions, returns, failed attempts and pickups: shown beside the line, distinctly. */
  notice: { kind: NoticeKind; text: string } | null;
  expectedDelivery: { from: ShownTime | null; to: ShownTime | null; label: string } | null;
  events: TrackingEventView[];
}

/** Where on the progress line a phase sits; phases off the line sit at the step they happen after. */
const STEP_OF_PHASE: Record<PhaseKey, ProgressStepKey> = {
  info_received: 'info_received',
  in_transit: 'in_transit',
  exception: 'in_transit',
  out_for_delivery: 'out_for_delivery',
  failed_attempt: 'out_for_delivery',
  available_for_pickup: 'out_for_delivery',
  delivered: 'delivered',
  return_to_sender: 'in_transit',
};

const NOTICE_PHASES: readonly PhaseKey[] = ['exception', 'return_to_sender', 'failed_attempt', 'available_for_pickup'];

export function buildTrackingPageView(input: {
  shipment: ShipmentRow;
  events: TrackingEventRow[];
  carrierName: string | null;
  language: Language;
  messages: TrackingPageMessages;
}): TrackingPageView {
  const { shipment, events, messages, language } = input;
  const phaseKey = isPhaseKey(shipment.phase_key) ? shipment.phase_key : null;
  return {
    language,
    messages,
    trackingNumber: shipment.tracking_number,
    carrierName: input.carrierName,
    phase: { key: phaseKey, label: phaseKey ? messages.phases[phaseKey] : messages.noInformation },
    steps: progressSteps(phaseKey, events, messages),
    notice:
      phaseKey && NOTICE_PHASES.includes(phaseKey)
        ? { kind: phaseKey as NoticeKind, text: messages.notices[phaseKey as NoticeKind] }
        : null,
    expectedDelivery: expectedDelivery(shipment, messages),
    // Rows come newest first (event time, then the carrier's order).
    events: events.map((event) => ({
      description: event.event,
      time: showEventTime(event.time_text, event.timezone, messages.locale),
      place: placeOf(event),
    })),
  };
}

function progressSteps(phaseKey: PhaseKey | null, events: TrackingEventRow[], messages: TrackingPageMessages): ProgressStep[] {
  // The furthest step reached: the current phase's, or further when an earlier event got there
  // (an exception after "out for delivery" does not move the line back).
  let reached = phaseKey ? PROGRESS_STEPS.indexOf(STEP_OF_PHASE[phaseKey]) : -1;
  if (phaseKey !== 'return_to_sender' && phaseKey !== 'delivered') {
    for (const event of events) {
      if (isPhaseKey(event.phase_key) && event.phase_key !== 'return_to_sender' && event.phase_key !== 'delivered') {
        reached = Math.max(reached, PROGRESS_STEPS.indexOf(STEP_OF_PHASE[event.phase_key]));
      }
    }
  }
  return PROGRESS_STEPS.map((key, index) => ({
    key,
    label: messages.steps[key],
    state: index < reached || (index === reached && key === 'delivered') ? 'done' : index === reached ? 'current' : 'upcoming',
  }));
}

function expectedDelivery(shipment: ShipmentRow, messages: TrackingPageMessages): TrackingPageView['expectedDelivery'] {
  if (shipment.phase_key === 'delivered' || shipment.phase_key === 'return_to_sender') return null;
  // The merchant's window, else the carrier's, else the predicted one.
  const window = shownExpectedDelivery(JSON.parse(shipment.body), shipment.phase_key);
  const from = window?.from ? showWindowEnd(window.from, messages.locale) : null;
  const to = window?.to ? showWindowEnd(window.to, messages.locale) : null;
  if (!from && !to) return null;
  const label =
    from && to && from.label !== to.label ? messages.expectedBetween(from.label, to.label) : messages.expectedOn((from ?? to)!.label);
  return { from, to, label };
}

function placeOf(event: TrackingEventRow): string | null {
  if (!event.location) return null;
  const location = JSON.parse(event.location) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
  const city = text(location.city);
  const country = text(location.country) ?? text(location.country_code)?.toUpperCase() ?? null;
  const parts = [city, country].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(', ') : null;
}

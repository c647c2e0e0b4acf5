import { createHash } from 'node:crypto';
import { toLocalDateTime } from '../../core/event-time.js';
import type { SandboxCode, SandboxScan, SandboxScanLocation, SandboxShipmentPayload } from './sandbox.payload.js';
import { ROUTES, type Route } from './sandbox.places.js';

/**
 * The sandbox carrier's histories. A tracking number's prefix picks the scenario; the rest of the
 * number, hashed, picks the route and spreads the times, so one number always tells the same story
 * (relative to when it was first polled).
 */

export type ScenarioName =
  | 'info_received'
  | 'in_transit'
  | 'out_for_delivery'
  | 'delivered'
  | 'returned_to_sender'
  | 'failed_attempt_then_exception'
  | 'not_found'
  | 'live'
  | 'transient_faults';

/** Tracking-number prefixes (case-insensitive) and their scenarios; any other number is not found. */
export const SCENARIO_PREFIXES: Readonly<Record<string, ScenarioName>> = {
  WB1: 'info_received',
  WB2: 'in_transit',
  WB3: 'out_for_delivery',
  WB4: 'delivered',
  WB5: 'returned_to_sender',
  WB6: 'failed_attempt_then_exception',
  WB7: 'not_found',
  WB8: 'live',
  WB9: 'transient_faults',
};

export function normalizeTrackingNumber(trackingNumber: string): string {
  return trackingNumber.replace(/\s+/g, '').toUpperCase();
}

export function scenarioOf(trackingNumber: string): ScenarioName {
  return SCENARIO_PREFIXES[normalizeTrackingNumber(trackingNumber).slice(0, 3)] ?? 'not_found';
}

/** The carrier's wording for each of its codes. */
const TEXTS: Record<SandboxCode, string> = {
  LBL: 'Parcel label printed by sender',
  EDI: 'Shipment data transmitted by sender',
  PCK: 'Collected from sender',
  ARR: 'Arrived at sort centre',
  DEP: 'Left sort centre',
  LNH: 'On linehaul to destination country',
  CUS: 'Held at customs for inspection',
  CLR: 'Released by customs',
  XDK: 'Transferred at cross-dock terminal',
  OFD: 'Loaded onto delivery vehicle',
  NDA: 'Recipient not at home, notice card left',
  PUP: 'Ready for collection at service point',
  DLV: 'Delivered to recipient',
  DLN: 'Delivered to neighbour',
  DSP: 'Delivered to service point',
  COL: 'Collected by recipient',
  ADR: 'Address incomplete or incorrect, recipient contacted',
  DMG: 'Parcel damaged in transit',
  LST: 'Parcel could not be located',
  DLY: 'Delayed due to operational reasons',
  REF: 'Acceptance refused by recipient',
  RTS: 'Not collected, being returned to sender',
  RTD: 'Returned to sender',
};

/** How the scanner reports time: date only, local time with its offset, or local time alone. */
type Precision = 'date' | 'offset' | 'local';

interface Step {
  code: SandboxCode;
  place: SandboxScanLocation | null;
  /** Minutes after the previous step (before jitter). */
  gap: number;
  precision: Precision;
}

/** Local hours [from, to) in which couriers do this; other steps happen around the clock. */
const COURIER_HOURS: Partial<Record<SandboxCode, [number, number]>> = {
  PCK: [9, 18],
  OFD: [6, 10],
  NDA: [9, 19],
  PUP: [9, 19],
  DLV: [9, 19],
  DLN: [9, 19],
  DSP: [9, 19],
  COL: [9, 19],
  RTD: [9, 17],
};

function step(code: SandboxCode, place: SandboxScanLocation | null, gap: number, precision: Precision): Step {
  return { code, place, gap, precision };
}

/** The scenario's variation, derived from the whole tracking number. */
class Variation {
  private readonly bytes: Buffer;
  constructor(trackingNumber: string) {
    this.bytes = createHash('sha256').update(normalizeTrackingNumber(trackingNumber)).digest();
  }
  /** A value in [0, modulo) from byte `index`. */
  pick(index: number, modulo: number): number {
    return this.bytes[index % this.bytes.length] % modulo;
  }
  get route(): Route {
    return ROUTES[this.pick(0, ROUTES.length)];
  }
}

function journeyToDestination(route: Route, withCrossDock: boolean): Step[] {
  const [first, second] = route.hubs;
  const steps = [
    step('LBL', null, 0, 'offset'),
    step('EDI', null, 5, 'date'),
    step('PCK', route.origin, 190, 'local'),
    ...(withCrossDock ? [step('XDK', route.origin, 75, 'offset')] : []),
    step('ARR', first, 240, 'offset'),
    step('DEP', first, 150, 'offset'),
  ];
  if (second) {
    steps.push(
      step('LNH', first, 60, 'offset'),
      step('ARR', second, 660, 'offset'),
      step('CUS', second, 35, 'offset'),
      step('CLR', second, 840, 'date'),
      step('DEP', second, 180, 'offset'),
    );
  }
  return steps;
}

function lastMile(route: Route): Step[] {
  return [step('ARR', route.destination, 300, 'offset'), step('OFD', route.destination, 260, 'local')];
}

function deliveryStep(route: Route, variation: Variation): Step {
  const kind = variation.pick(1, 4);
  if (kind === 2) return step('DLN', route.recipient, 170, 'local');
  if (kind === 3) return step('DSP', route.servicePoint, 150, 'local');
  return step('DLV', route.recipient, 170, 'local');
}

function senderAddress(route: Route): SandboxScanLocation {
  return { ...route.origin, facility: null, type: 'address', street: null };
}

/** The steps of a scenario with a fixed history. */
function stepsOf(scenario: ScenarioName, route: Route, variation: Variation): Step[] {
  switch (scenario) {
    case 'info_received':
      return journeyToDestination(route, false).slice(0, 2);
    case 'in_transit':
    case 'transient_faults':
      return journeyToDestination(route, true);
    case 'out_for_delivery':
      return [...journeyToDestination(route, false), ...lastMile(route)];
    case 'delivered':
    case 'live':
      return [...journeyToDestination(route, false), ...lastMile(route), deliveryStep(route, variation)];
    case 'returned_to_sender':
      return [
        ...journeyToDestination(route, false),
        ...lastMile(route),
        step('NDA', route.recipient, 180, 'local'),
        step('PUP', route.servicePoint, 140, 'local'),
        step('RTS', route.servicePoint, 7 * 24 * 60, 'offset'),
        step('ARR', route.destination, 320, 'offset'),
        step('ARR', route.hubs[0], 1500, 'offset'),
        step('RTD', senderAddress(route), 1260, 'local'),
      ];
    case 'failed_attempt_then_exception':
      return [
        ...journeyToDestination(route, false),
        ...lastMile(route),
        step('NDA', route.recipient, 180, 'local'),
        step('ADR', route.destination, 95, 'offset'),
      ];
    case 'not_found':
      return [];
  }
}

const MINUTE = 60_000;

/** Moves a courier step back into its working hours (never forward: histories end before the first poll). */
function withinCourierHours(instant: number, item: Step): number {
  const hours = COURIER_HOURS[item.code];
  if (!hours || !item.place) return instant;
  const [from, to] = hours;
  const hour = Number(toLocalDateTime(instant, item.place.tz).time.slice(0, 2));
  if (hour >= to) return instant - (hour - (to - 1)) * 60 * MINUTE;
  if (hour < from) return instant - (hour + 24 - (to - 1)) * 60 * MINUTE;
  return instant;
}

/**
 * Instants for a fixed history: the last step shortly before the first poll, the earlier ones spaced
 * back by their gaps with ±20% jitter, courier steps within working hours.
 */
function historyInstants(steps: Step[], firstPolledAt: number, variation: Variation): number[] {
  const instants = new Array<number>(steps.length);
  const lastIndex = steps.length - 1;
  instants[lastIndex] = withinCourierHours(firstPolledAt - (20 + variation.pick(2, 160)) * MINUTE, steps[lastIndex]);
  for (let index = lastIndex; index > 0; index--) {
    const jitter = 0.8 + variation.pick(index + 3, 41) / 100;
    const previous = instants[index] - Math.round(steps[index].gap * jitter) * MINUTE;
    instants[index - 1] = withinCourierHours(previous, steps[index - 1]);
  }
  return instants;
}

function toScan(item: Step, instant: number, fallbackTz: string): SandboxScan {
  const local = toLocalDateTime(instant, item.place?.tz ?? fallbackTz);
  return {
    code: item.code,
    text: TEXTS[item.code],
    date: local.date,
    time: item.precision === 'date' ? null : local.time,
    utcOffset: item.precision === 'offset' ? local.offset : null,
    location: item.place,
  };
}

function dateAfter(instant: number, days: number, timeZone: string): string {
  return toLocalDateTime(instant + days * 24 * 60 * MINUTE, timeZone).date;
}

function windowAround(instant: number, timeZone: string): { earliest: string; latest: string } {
  const at = (ms: number) => {
    const halfHour = Math.ceil(ms / (30 * MINUTE)) * 30 * MINUTE;
    const local = toLocalDateTime(halfHour, timeZone);
    return `${local.date}T${local.time}${local.offset}`;
  };
  return { earliest: at(instant + 45 * MINUTE), latest: at(instant + 4 * 60 * MINUTE) };
}

function estimatedDelivery(steps: Step[], instants: number[], route: Route): SandboxShipmentPayload['estimatedDelivery'] {
  const lastIndex = steps.length - 1;
  const last = steps[lastIndex];
  const tz = route.destination.tz;
  if (last.code === 'OFD') return windowAround(instants[lastIndex], tz);
  if (['LBL', 'EDI', 'PCK', 'XDK', 'ARR', 'DEP', 'LNH', 'CUS', 'CLR'].includes(last.code) && last.place !== route.destination) {
    const days = route.hubs.length === 2 ? 3 : 1;
    return { earliest: dateAfter(instants[lastIndex], days, tz), latest: dateAfter(instants[lastIndex], days + 2, tz) };
  }
  if (last.code === 'ARR') return { earliest: dateAfter(instants[lastIndex], 1, tz), latest: dateAfter(instants[lastIndex], 1, tz) };
  return null;
}

function payloadOf(trackingNumber: string, steps: Step[], instants: number[], route: Route, variation: Variation): SandboxShipmentPayload {
  const scans = steps.map((item, index) => toScan(item, instants[index], route.origin.tz)).reverse();
  const delivered = ['DLV', 'DLN', 'DSP'].includes(steps[steps.length - 1].code);
  return {
    trackingNumber: normalizeTrackingNumber(trackingNumber),
    service: variation.pick(4, 3) === 0 ? 'EXPRESS' : 'PARCEL',
    currentStatus: { code: scans[0].code, text: scans[0].text },
    estimatedDelivery: estimatedDelivery(steps, instants, route),
    scans,
    proofOfDelivery: delivered ? { documentId: proofOfDeliveryId(trackingNumber), format: 'PNG' } : null,
  };
}

export function proofOfDeliveryId(trackingNumber: string): string {
  return `POD-${normalizeTrackingNumber(trackingNumber)}`;
}

/**
 * The fixed history of a scenario as the carrier reports it, or null when the carrier knows nothing
 * (`not_found`). `transient_faults` yields its in-transit history; its faults are the transport's.
 */
export function fixedHistory(trackingNumber: string, scenario: ScenarioName, firstPolledAt: Date): SandboxShipmentPayload | null {
  if (scenario === 'not_found' || scenario === 'live') return null;
  const variation = new Variation(trackingNumber);
  const route = variation.route;
  const steps = stepsOf(scenario, route, variation);
  return payloadOf(trackingNumber, steps, historyInstants(steps, firstPolledAt.getTime(), variation), route, variation);
}

/**
 * The live history: label and data before the first poll, then one more step every `stepSeconds`
 * counted from the first poll, until delivered.
 */
export function liveHistory(trackingNumber: string, firstPolledAt: Date, now: Date, stepSeconds: number): SandboxShipmentPayload {
  const variation = new Variation(trackingNumber);
  const route = variation.route;
  const steps = stepsOf('live', route, variation);
  const first = firstPolledAt.getTime();
  const instants = steps.map((_, index) => (index < 2 ? first - (10 - index * 5) * MINUTE : first + (index - 1) * stepSeconds * 1000));
  const elapsedSteps = Math.floor(Math.max(0, now.getTime() - first) / (stepSeconds * 1000));
  const visible = Math.min(steps.length, 2 + elapsedSteps);
  return payloadOf(trackingNumber, steps.slice(0, visible), instants.slice(0, visible), route, variation);
}

/** How many scans the live scenario has in all (for documentation and tests). */
export function liveStepCount(trackingNumber: string): number {
  const variation = new Variation(trackingNumber);
  return stepsOf('live', variation.route, variation).length;
}

/**
 * What the carrier-polling scenario (bench/scenarios/carrier-polling.ts) and its local carriers
 * (bench/carrier-servers.ts, a child process) share: the carriers, their synthetic tracking numbers and
 * stories, the limits the local carriers enforce, and the shape of their configuration and counts.
 */
import { gs1CheckDigit } from '../src/carriers/detect/check-digits.js';
import { dhlExpressCheckDigit } from '../src/carriers/detect/dhl.js';
import { fedexExpressCheckDigit } from '../src/carriers/detect/fedex.js';
import { glsCheckDigit } from '../src/carriers/detect/gls.js';
import { upsCheckDigit } from '../src/carriers/detect/ups.js';

/** The seven carriers polled over HTTP, in the order shipments are dealt to them. */
export const POLLED_CARRIERS = ['upsglb', 'dhlglb', 'fdxglb', 'postnl', 'lapost', 'glsglb', 'uspsus'] as const;
export type PolledCarrier = (typeof POLLED_CARRIERS)[number];

export function isPolledCarrier(id: string): id is PolledCarrier {
  return (POLLED_CARRIERS as readonly string[]).includes(id);
}

/** Where a synthetic shipment stands: one in ten is out for delivery, one in twenty after a failed attempt. */
export type Story = 'in_transit' | 'out_for_delivery' | 'failed_attempt';

export function storyOf(serial: number): Story {
  const slot = serial % 20;
  return slot < 2 ? 'out_for_delivery' : slot === 2 ? 'failed_attempt' : 'in_transit';
}

/** Whether a story puts the shipment ahead when a credential's daily calls run short (src/domain/shipments/poll-priority.ts). */
export function isUrgent(story: Story): boolean {
  return story !== 'in_transit';
}

const pad = (serial: number, width: number) => String(serial).padStart(width, '0');

/**
 * The `serial`-th synthetic tracking number of a carrier, in the carrier's format with its check digit
 * (src/carriers/detect/): the serial sits at a fixed place, so `serialOf` reads it back.
 */
export function trackingNumber(carrier: PolledCarrier, serial: number): string {
  switch (carrier) {
    case 'upsglb': {
      // 1Z + shipper (6) + service (2) + package (7) + check digit.
      const body = `1ZBN4Y8103${pad(serial, 7)}`;
      return `${body}${upsCheckDigit(`${body}0`)}`;
    }
    case 'dhlglb': {
      // An Express waybill: nine digits and their remainder modulo 7.
      const body = `3${pad(serial, 8)}`;
      return `${body}${dhlExpressCheckDigit(body)}`;
    }
    case 'fdxglb': {
      // An Express number: eleven digits and the modulo-11 check digit.
      const body = `7999${pad(serial, 7)}`;
      return `${body}${fedexExpressCheckDigit(`${body}0`)}`;
    }
    case 'postnl':
      // A 3S barcode: 3S, a customer code of four letters, a serial of nine digits (no check digit).
      return `3SBNCH${pad(serial, 9)}`;
    case 'lapost':
      // A domestic Colissimo number: digit, letter, eleven digits (no published check digit).
      return `6A8${pad(serial, 10)}`;
    case 'glsglb': {
      // Depot (2) + product (2) + serial (7) + check digit.
      const body = `5610${pad(serial, 7)}`;
      return `${body}${glsCheckDigit(body)}`;
    }
    case 'uspsus': {
      // An IMpb of 22 digits with its GS1 check digit.
      const body = `9400111${pad(serial, 14)}`;
      return `${body}${gs1CheckDigit(body)}`;
    }
  }
}

/** The serial `trackingNumber` put into a number, or null when the number is not one of them. */
export function serialOf(carrier: PolledCarrier, number: string): number | null {
  const digits: Record<PolledCarrier, [number, number]> = {
    upsglb: [10, 17],
    dhlglb: [1, 9],
    fdxglb: [4, 11],
    postnl: [6, 15],
    lapost: [3, 13],
    glsglb: [4, 11],
    uspsus: [7, 21],
  };
  const [from, to] = digits[carrier];
  const text = number.slice(from, to);
  if (!/^\d+$/.test(text)) return null;
  const serial = Number(text);
  return trackingNumber(carrier, serial) === number ? serial : null;
}

export interface LocalCarriersConfig {
  controlPort: number;
  /** How long each tracking answer waits (a timer: no CPU anywhere), so that calls overlap as they do at a real carrier. */
  latencyMs: number;
  carriers: Array<{
    id: PolledCarrier;
    port: number;
    /** The credentials it knows (client id or API key), with the calls each has already made today. */
    credentials: Array<{ id: string; spentToday: number }>;
    /** Keep every answered number with its arrival time (for carriers whose daily quota binds). */
    recordNumbers: boolean;
  }>;
}

/** What a local carrier enforces on each credential. */
export interface EnforcedLimits {
  numbersPerCall: number;
  concurrentCalls: number;
  /** At most `max` calls in any `ms` milliseconds (a sliding window over arrival times). */
  windows: Array<{ ms: number; max: number }>;
  /** Calls per UTC day, or null. */
  dailyQuota: number | null;
  /** Where the figures come from. */
  source: string;
}

/**
 * The limits each local carrier enforces: the carrier's documented figures, and where it documents none the
 * figures the adapter declares (docs/carriers/<id>.md, "Limits"). A per-second rate is read strictly: at most
 * that many calls in any one second.
 */
export const ENFORCED: Record<PolledCarrier, EnforcedLimits> = {
  upsglb: {
    numbersPerCall: 1,
    concurrentCalls: 4,
    windows: [{ ms: 1000, max: 5 }],
    dailyQuota: null,
    source: 'one number per path (Tracking.yaml); UPS publishes no rate: the adapter’s 4 in flight, 5/s',
  },
  dhlglb: {
    numbersPerCall: 1,
    concurrentCalls: 1,
    windows: [{ ms: 1000, max: 1 }],
    dailyQuota: 250,
    source: 'Starter level: 1 call/s, 250 a day, reset 24:00 GMT; one trackingNumber per call; 1 in flight is the adapter’s',
  },
  fdxglb: {
    numbersPerCall: 30,
    concurrentCalls: 4,
    windows: [
      { ms: 1000, max: 10 },
      { ms: 10_000, max: 1400 },
    ],
    dailyQuota: 100_000,
    source: '30 numbers, 1,400 calls per 10 s, 100,000 a day (FedEx); 4 in flight and 10/s are the adapter’s',
  },
  postnl: {
    numbersPerCall: 1,
    concurrentCalls: 4,
    windows: [{ ms: 1000, max: 5 }],
    dailyQuota: null,
    source: 'one barcode per path; PostNL publishes no figures: the adapter’s 4 in flight, 5/s',
  },
  lapost: {
    numbersPerCall: 10,
    concurrentCalls: 4,
    windows: [{ ms: 1000, max: 10 }],
    dailyQuota: null,
    source: '10 numbers per call, 10 calls/s (the plan card); 4 in flight is the adapter’s',
  },
  glsglb: {
    numbersPerCall: 10,
    concurrentCalls: 2,
    windows: [{ ms: 1000, max: 1 }],
    dailyQuota: 500,
    source: '10 ids per call, 500 calls a day (portal default); 2 in flight and 1/s are the adapter’s (assumed)',
  },
  uspsus: {
    numbersPerCall: 35,
    concurrentCalls: 1,
    windows: [
      { ms: 60_000, max: 1 },
      { ms: 3_600_000, max: 60 },
    ],
    dailyQuota: 1440,
    source: '35 numbers per call, 60 calls an hour (integrators’ reports); one a minute, 1 in flight and 1,440 a day are the adapter’s',
  },
};

export interface CredentialStats {
  /** Tracking calls received, answered with tracking data, and the numbers in those answers. */
  calls: number;
  answered: number;
  numbers: number;
  tokens: number;
  maxInFlight: number;
  /** The most calls seen in any window of each of the carrier's `windows`. */
  maxInWindow: number[];
  /** For each window, the shortest time (ms) in which one call more than it allows arrived; null before there were that many. */
  tightestMs: Array<number | null>;
  /** Calls over a limit (each refused as the carrier refuses it). */
  violations: { numbersPerCall: number; concurrency: number; rate: number; quota: number };
  spentToday: number;
}

export interface LocalCarrierStats {
  id: PolledCarrier;
  url: string;
  limits: EnforcedLimits;
  credentials: Record<string, CredentialStats>;
  /** Calls with a key or token the carrier does not know. */
  unauthorized: number;
  /** [number, arrival (ms since the epoch), credential] of every answered number, when recorded. */
  answeredNumbers: Array<[string, number, string]>;
}

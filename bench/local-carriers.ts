/**
 * What the carrier-polling scenario (bench/scenarios/carrier-polling.ts) and its local carriers
 * (bench/carrier-servers.ts, a child process) share: what a local carrier is (`LocalCarrier`, one entry per
 * carrier in bench/carriers/), the synthetic shipments' stories, the limits the local carriers enforce, and the
 * shape of their configuration and counts.
 */
import type { CarrierDefinition } from './carrier-answers.js';

/**
 * One carrier of the benchmark: its synthetic numbers, the limits its local carrier enforces, a merchant's
 * settings, its answers and the fingerprint its adapter makes of them. bench/carriers/index.ts lists them.
 */
export interface LocalCarrier {
  /** The adapter's id (src/carriers/<id>/). */
  id: string;
  /**
   * The `serial`-th synthetic tracking number, in the carrier's format with its check digit
   * (src/carriers/detect/); the serial sits at `serialAt` (start and end of its digits), so `serialOf` reads it back.
   */
  number(serial: number): string;
  serialAt: [number, number];
  /** The form the adapter sends a number in, when it is not the number itself (DPD's without its check character). */
  askedAs?(number: string): string;
  limits: EnforcedLimits;
  /** A merchant's settings for the credential the local carrier knows as `credential`. */
  settings(credential: string, secret: string): Record<string, unknown>;
  /** Its paths, credentials and answers (read from the fixtures once per process). */
  answers(): CarrierDefinition;
  /**
   * The fingerprint the adapter makes of its carrier's data for `number` when the local carrier answers `body`
   * (`answerBody`); the scenario checks it against the adapter's own on the probe answers before seeding.
   */
  fingerprint(number: string, body: string): string | null;
}

/** A serial written in `width` digits. */
export const pad = (serial: number, width: number) => String(serial).padStart(width, '0');

/** The serial `carrier.number` put into a number (or into the form the adapter asks it in), or null when it is not one of them. */
export function serialOf(carrier: LocalCarrier, number: string): number | null {
  const [from, to] = carrier.serialAt;
  const text = number.slice(from, to);
  if (!/^\d+$/.test(text)) return null;
  const serial = Number(text);
  const made = carrier.number(serial);
  return made === number || carrier.askedAs?.(made) === number ? serial : null;
}

/** The body the carrier answers a call for this one number (whose story is `story`) with. */
export function answerBody(carrier: LocalCarrier, number: string, story: Story, answers = carrier.answers()): string {
  const asked = carrier.askedAs?.(number) ?? number;
  const request = { method: 'GET', path: '', query: new URLSearchParams(), headers: {}, body: '' };
  return answers.answer([asked], () => story, request).body;
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

export interface LocalCarriersConfig {
  controlPort: number;
  /** How long each tracking answer waits (a timer: no CPU anywhere), so that calls overlap as they do at a real carrier. */
  latencyMs: number;
  carriers: Array<{
    id: string;
    port: number;
    /** The credentials it knows (client id or API key), with the calls each has already made today. */
    credentials: Array<{ id: string; spentToday: number }>;
    /** Keep every answered number with its arrival time (for carriers whose daily quota binds). */
    recordNumbers: boolean;
    /** The serials of the numbers the scenario tracks: every one below `below`, and `also`. */
    serials: { below: number; also: number[] };
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
  id: string;
  url: string;
  limits: EnforcedLimits;
  credentials: Record<string, CredentialStats>;
  /** Calls with a key or token the carrier does not know. */
  unauthorized: number;
  /** [number, arrival (ms since the epoch), credential] of every answered number, when recorded. */
  answeredNumbers: Array<[string, number, string]>;
}

import { type Confidence, type DetectedCarrier, detectCarriers, formatName, readTrackingNumber } from '../../carriers/detect/index.js';

/** A carrier configuration of the account, as detection needs it. */
export interface ConfiguredCarrier {
  carrier_reference: string;
  carrier_id: string;
  /** 1 for the account's fallback (an aggregator tracking the numbers no other configuration claims). */
  fallback?: number;
}

/** The format a fallback configuration is named under among the candidates: it claims any number. */
export const FALLBACK_FORMAT = 'fallback';

/** A detected carrier with what the account has configured for it. */
export interface CarrierCandidate extends DetectedCarrier {
  configured: boolean;
  carrier_references: string[];
}

/** Why a shipment with a tracking number and no carrier_reference is not tracked. */
export type DetectionStatus =
  | 'ambiguous'
  | 'not_configured'
  | 'shared_format'
  | 'low_confidence'
  | 'check_digit_mismatch'
  | 'unknown_format';

export type TrackingRouting =
  | { routed: true; carrier_reference: string; carrier_id: string; candidates: CarrierCandidate[] }
  | { routed: false; status: DetectionStatus; candidates: CarrierCandidate[]; note: string };

/** Formats every postal operator or GS1 member issues: never enough to pick a carrier. */
const SHARED_FORMATS = new Set(['s10', 'sscc', 'fedex_smartpost']);

const LIKELY: ReadonlySet<Confidence> = new Set(['high', 'medium']);

/** The keys detection writes into a shipment's additional_info (custom fields: values of at most 150 characters). */
export const DETECTION_KEYS = ['tracking_detection', 'tracking_detection_candidates', 'tracking_detection_note'] as const;

/**
 * The candidates for a tracking number, each with the account's configurations of its carrier, and last the
 * account's fallback (an aggregator, which may know the number whatever its format).
 */
export function carrierCandidates(trackingNumber: string, configs: readonly ConfiguredCarrier[]): CarrierCandidate[] {
  const detected: CarrierCandidate[] = detectCarriers(trackingNumber).map((candidate) => {
    const references = configs.filter((config) => config.carrier_id === candidate.carrier_id).map((config) => config.carrier_reference);
    return { ...candidate, configured: references.length > 0, carrier_references: references };
  });
  const fallback = configs.find((config) => config.fallback === 1);
  if (!fallback) return detected;
  return [
    ...detected,
    {
      carrier_id: fallback.carrier_id,
      confidence: 'low',
      format: FALLBACK_FORMAT,
      check_digit: 'none',
      configured: true,
      carrier_references: [fallback.carrier_reference],
    },
  ];
}

/**
 * Which of the account's configurations tracks a number given without carrier_reference: the one configuration
 * of a likely (high or medium confidence) candidate, when there is exactly one. Low candidates (shared formats
 * such as S10 and SSCC, bare lengths without check digit) are never routed on.
 */
export function routeTrackingNumber(trackingNumber: string, configs: readonly ConfiguredCarrier[]): TrackingRouting {
  const candidates = carrierCandidates(trackingNumber, configs);
  const configured = (list: readonly CarrierCandidate[]) =>
    list.flatMap((candidate) =>
      candidate.carrier_references.map((reference) => ({ carrier_reference: reference, carrier_id: candidate.carrier_id })),
    );
  const likely = candidates.filter((candidate) => LIKELY.has(candidate.confidence));
  const matching = configured(likely);
  if (matching.length === 1) return { routed: true, ...matching[0], candidates };
  const untracked = (status: DetectionStatus, note: string): TrackingRouting => ({ routed: false, status, candidates, note });
  if (matching.length > 1) {
    return untracked(
      'ambiguous',
      `Several configured carriers match (${matching.map((m) => m.carrier_reference).join(', ')}): give carrier_reference to track it.`,
    );
  }
  // An S10 number of a post the account tracks directly (its country suffix names the post) goes there.
  const posts = configured(candidates.filter((candidate) => candidate.format === 's10'));
  if (posts.length === 1) return { routed: true, ...posts[0], candidates };
  // No configuration of the number's own carrier: the account's fallback, if it has one, tracks it.
  const fallback = candidates.find((candidate) => candidate.format === FALLBACK_FORMAT);
  if (fallback && posts.length === 0) {
    return { routed: true, carrier_reference: fallback.carrier_references[0], carrier_id: fallback.carrier_id, candidates };
  }
  if (likely.length > 0) {
    return untracked(
      'not_configured',
      `Looks like ${likely.map((c) => c.carrier_id).join(' or ')}, which the account has not configured: give carrier_reference to track it.`,
    );
  }
  if (candidates.length > 0) {
    const shared = candidates.every((candidate) => SHARED_FORMATS.has(candidate.format));
    const formats = [...new Set(candidates.map((candidate) => formatName(candidate.format)))].join(', ');
    return shared
      ? untracked(
          'shared_format',
          `${formats} numbers are shared by several carriers and never routed alone: give carrier_reference to track it.`,
        )
      : untracked('low_confidence', `The ${formats} format alone does not identify the carrier: give carrier_reference to track it.`);
  }
  const mistyped = readTrackingNumber(trackingNumber).find((match) => match.distinctive && match.check_digit === 'invalid');
  if (mistyped) {
    return untracked(
      'check_digit_mismatch',
      `Looks like a ${formatName(mistyped.format)} number, but its check digit does not match: check it for typing errors.`,
    );
  }
  return untracked('unknown_format', 'No known carrier format matches this tracking number: give carrier_reference to track it.');
}

/** The additional_info entries that explain an untracked shipment. */
export function detectionNote(routing: TrackingRouting & { routed: false }): Record<string, string> {
  const note: Record<string, string> = { tracking_detection: routing.status };
  if (routing.candidates.length > 0) {
    note.tracking_detection_candidates = clip(routing.candidates.map((c) => `${c.carrier_id}:${c.confidence}`).join(','));
  }
  note.tracking_detection_note = clip(routing.note);
  return note;
}

/**
 * A shipment's additional_info with detection's entries replaced by `note` (none when null). Keys the merchant
 * sent in this request (`given`) are theirs and stay as sent; the interface's limit of 100 custom fields is kept.
 */
export function withDetectionNote(
  info: Record<string, unknown> | undefined,
  note: Record<string, string> | null,
  given: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...info };
  const theirs = (key: string) => given != null && Object.hasOwn(given, key);
  for (const key of DETECTION_KEYS) if (!theirs(key)) delete out[key];
  for (const [key, value] of Object.entries(note ?? {})) {
    if (!theirs(key) && Object.keys(out).length < 100) out[key] = value;
  }
  return out;
}

/** Detection's entries in an additional_info, or null when it has none. */
export function detectionNoteOf(info: unknown): Record<string, string> | null {
  if (info === null || typeof info !== 'object') return null;
  const note: Record<string, string> = {};
  for (const key of DETECTION_KEYS) {
    const value = (info as Record<string, unknown>)[key];
    if (typeof value === 'string') note[key] = value;
  }
  return Object.keys(note).length > 0 ? note : null;
}

function clip(text: string): string {
  return text.length <= 150 ? text : `${text.slice(0, 149)}…`;
}

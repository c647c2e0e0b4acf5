import type { TObject } from '@sinclair/typebox';
import type { EventKey, PhaseKey } from './phases.js';
import type { CarrierLimits } from './sdk/limits.js';
import type { CarrierEnvironment } from './sdk/settings.js';

/** The descriptive Carrier record of the interface. */
export interface CarrierRecord {
  /** 6-character carrier identifier. */
  id: string;
  name: string;
  /** Operating countries, ISO 3166-1 alpha-2. */
  country_iso: string[];
  language: string[] | null;
  supported_languages: string[];
  contact: string | null;
  site_link: string | null;
}

/** What an adapter can do; callers check these before calling the matching methods. */
export interface CarrierCapabilities {
  /** `track` returns the carrier's events. */
  tracking: boolean;
  /** The carrier can book shipments and provide labels (booking methods arrive with the booking feature). */
  booking: boolean;
  /** The carrier has pick-up/drop-off locations to list. */
  pudo: boolean;
  /** The carrier pushes tracking updates to us (webhooks), so polling can be rare. */
  push: boolean;
}

/** A carrier configuration's settings, decrypted (credentials, account numbers, adapter options). */
export type CarrierSettings = Readonly<Record<string, unknown>>;

/** One tracking number to look up. */
export interface TrackRequest {
  tracking_number: string;
  /** When we first polled this number (ISO 8601): scenarios and back-off count from here. */
  first_polled_at: string;
  /** 0 for the first poll of the current retry sequence, then 1, 2, … while errors repeat. */
  attempt: number;
  /**
   * The `fingerprint` of the last answer for this number that the caller stored in full. An adapter that
   * finds the carrier's data for the number unchanged answers `unchanged` instead of mapping it again.
   */
  known_answer?: string | null;
}

/** Everything `track` needs besides the requests and settings; adapters never read the wall clock. */
export interface TrackOptions {
  now: Date;
  /** Cancels outstanding carrier calls (shutdown, job lease lost). */
  signal?: AbortSignal;
  /**
   * The longest a call waits for its credential's limits (a free slot, its turn at the carrier's rate).
   * What cannot be sent by then is held back, a wait and not a failure, so that one slow credential does
   * not hold up a poll of every carrier. Without it, calls wait until `signal`.
   */
  waitMs?: number;
}

/** The interface's EventLocationV52: `place` is always present (the v5 location holds only it). */
export interface CarrierEventLocation {
  /** Short human place, e.g. `Hamburg, DE`. */
  place: string;
  full: string | null;
  formatted_address: string | null;
  location_type: string | null;
  line1: string | null;
  line2: string | null;
  line3: string | null;
  postal_code: string | null;
  city: string | null;
  state_or_province: string | null;
  region: string | null;
  country: string | null;
  /** ISO 3166-1 alpha-2. */
  country_code: string | null;
  /** Decimal degrees, as text. */
  longitude: string | null;
  /** Decimal degrees, as text. */
  latitude: string | null;
  /** IANA timezone of the place. */
  timezone: string | null;
}

/** A tracking event as an adapter reports it, before it is stored. */
export interface CarrierEvent {
  /** The standard English description when mapped, else the carrier's own description. */
  event: string;
  event_key: EventKey | null;
  phase_key: PhaseKey | null;
  /** The time as the carrier gave it, in a form `parseEventTime` accepts (its precision is kept). */
  time: string;
  /** IANA timezone of the event, when known; places a `time` without offset. */
  timezone: string | null;
  location: CarrierEventLocation | null;
  /**
   * The carrier's own data about the event; always holds `carrier_code` (their status code, used for
   * de-duplication) and `carrier_description` (their text).
   */
  additional_info: { carrier_code: string; carrier_description: string; [key: string]: unknown };
  /** The carrier explicitly overrides an earlier final state with this event (see `nextTrackingState`). */
  correction?: boolean;
}

/** A delivery window; `from` and `to` are time texts of known precision (a date, or a date-time). */
export interface ExpectedDelivery {
  from: string;
  to: string;
}

/** An aggregator's courier of a parcel (src/carriers/aggregator.ts). */
export interface CarrierOfRecord {
  /** The courier's name: Waybill's own carrier's where the code maps to one, else the aggregator's. */
  name: string;
  /** The aggregator's code for the courier (Ship24 `royal-mail`, 17TRACK `11031`). */
  courier_code: string;
  /** Waybill's id of the same carrier where there is one (`royalm`), else null. */
  carrier_id: string | null;
}

/** A carrier failure, as data: adapters never throw for the carrier's or the network's faults. */
export interface CarrierError {
  status: 'error';
  /** True when the same call may succeed later (timeouts, 5xx, throttling); false for bad credentials etc. */
  retryable: boolean;
  /** The carrier's own hint (e.g. a 429's Retry-After); the scheduler's back-off applies otherwise. */
  retry_after_seconds?: number;
  /**
   * The carrier throttled the credential (`rate`: a 429; `quota`: the day's calls are spent). Not the
   * shipment's fault: it is polled again after the pause without counting a failure against it.
   */
  throttled?: 'rate' | 'quota';
  /** Set when our own limits kept the call back (nothing was sent): it must not pause the credential further. */
  held?: boolean;
  /** For logs and operators; may quote the carrier, never our secrets. */
  message: string;
}

/** A proof-of-delivery file the service can store and serve (`pod_url`). */
export interface ProofOfDelivery {
  /** Stable identifier of the file at the carrier: fetch again only when it changes. */
  reference: string;
  file_name: string;
  content_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'application/pdf';
  /** Who signed for the parcel, when the carrier says. */
  signed_by?: string;
  /**
   * Downloads the file; a failure is data, as for `track`. `content_type` in the answer overrides the one
   * above when the type is only known from the bytes.
   */
  fetch(options: {
    signal?: AbortSignal;
  }): Promise<{ status: 'ok'; content: Buffer; content_type?: ProofOfDelivery['content_type'] } | CarrierError>;
}

/** The carrier's answer for one tracking number. */
export type TrackResult =
  | {
      status: 'ok';
      tracking_number: string;
      /**
       * Oldest first (adapters reorder if their carrier sends newest first); an event's position breaks
       * ties between events at the same instant. May repeat events returned by earlier polls: callers
       * de-duplicate with `eventKey`.
       */
      events: CarrierEvent[];
      expected_delivery?: ExpectedDelivery;
      proof_of_delivery?: ProofOfDelivery;
      /**
       * Identifies the carrier's data this answer was made from (adapters that fingerprint it): kept with what
       * the caller stored and given back as `known_answer` in later requests.
       */
      fingerprint?: string;
      /** Aggregators: the courier that carries the parcel, shown as the shipment's carrier (src/carriers/aggregator.ts). */
      carrier_of_record?: CarrierOfRecord;
    }
  /**
   * The carrier's data for the number is exactly what the request's `known_answer` was made from: the answer
   * is the one the caller stored, so nothing in it is new (it is not mapped again).
   */
  | { status: 'unchanged'; tracking_number: string; fingerprint?: string }
  | { status: 'not_found'; tracking_number: string }
  | (CarrierError & { tracking_number: string });

/**
 * A carrier adapter. Each carrier is a pure mapping part (their payloads and codes ↔ our records and
 * standard keys) and a thin transport; this is the contract the rest of the service sees.
 *
 * Booking, cancelling, PUDO locations and labels join this contract with the booking feature, as
 * optional methods guarded by `capabilities.booking` and `capabilities.pudo`.
 */
export interface CarrierAdapter {
  /** The descriptive record, also the source of the 6-character id. */
  readonly record: CarrierRecord;
  readonly capabilities: CarrierCapabilities;
  /** The settings a configuration of this carrier holds (TypeBox; secrets marked with `secret()`). */
  readonly settingsSchema: TObject;
  /** `production`, and `sandbox` where the carrier has a test environment. */
  readonly environments: readonly CarrierEnvironment[];
  /** What the carrier allows one credential; absent for carriers we do not call over the network. */
  readonly limits?: CarrierLimits;
  /**
   * Event keys hash offset-less times by their UTC instant (the formula before carriers without offsets
   * arrived). Only the sandbox keeps it, so that events it stored earlier are not stored twice.
   */
  readonly legacyEventKeys?: boolean;
  /**
   * Carrier calls this credential may still make today, or null without a daily quota (the poller
   * spends what is left on the most urgent shipments first).
   */
  callsLeftToday?(settings: CarrierSettings): number | null;
  /** The settings in force: a configuration's over the operator's (`WAYBILL_CARRIER_<ID>_<SETTING>`). */
  effectiveSettings?(settings: CarrierSettings): Record<string, unknown>;

  /**
   * Looks up tracking numbers in one call (adapters batch or split as their carrier allows).
   * Resolves with exactly one result per request, in request order; never rejects for carrier or
   * network faults (those are `status: 'error'` results).
   *
   * @example
   * const [result] = await adapter.track(
   *   [{ tracking_number: 'WB4000123', first_polled_at: '2026-03-29T08:00:00Z', attempt: 0 }],
   *   config.settings,
   *   { now: clock.now() },
   * );
   * if (result.status === 'ok') store(result.events);
   */
  track(requests: readonly TrackRequest[], settings: CarrierSettings, options: TrackOptions): Promise<TrackResult[]>;
}

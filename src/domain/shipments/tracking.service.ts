import type { Updateable } from 'kysely';
import type { CarrierAdapter, TrackResult } from '../../carriers/carrier.js';
import { isPhaseKey } from '../../carriers/phases.js';
import type { Clock } from '../../clock.js';
import { SHIPMENT_STATUS } from '../../core/shipment-status.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { PollClaim, PolledShipment, ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { ShipmentsTable } from '../../db/schema.js';
import { recordCarrierOfRecord } from './carrier-of-record.js';
import { eventChanges, type NewEvent, storeEventsOf } from './event-recorder.js';
import { answerOf } from './keyed-answer.js';
import { nextPollAfterFailure, nextPollAfterSuccess, nextPollWhileUnknown } from './poll-schedule.js';
import type { ProofOfDeliveryService } from './proof-of-delivery.service.js';
import type { ShipmentWriteFollowers } from './tracking-followers.js';
import type { TrackingStops } from './tracking-stops.js';

export interface TrackingOptions {
  /** No carrier update for this long ends tracking (expired, or inactive if the carrier never knew the number). */
  windowMs: number;
  random?: () => number;
}

export interface ApplyContext {
  adapter: CarrierAdapter;
  /** From the carrier configuration's `poll_interval_seconds`. */
  maxIntervalMs?: number;
  /** The carrier asks not to be polled for one number more often than this (`limits.min_poll_interval_seconds`). */
  minIntervalMs?: number;
}

/** Spread of the polls put off to a quota's reset, so that they do not all fall due at once. */
const DEFER_SPREAD_MS = 600_000;
/** Polls put off per statement when a configuration's whole due set waits for the reset. */
const DEFER_CHUNK = 1_000;
/** Spread of the polls held back by a throttle (ours or the carrier's). */
const THROTTLE_SPREAD_MS = 30_000;

/**
 * Applies carrier answers to shipments: stores new events, moves status and phase, records the expected
 * delivery, and decides the next poll — or ends tracking when the window has passed.
 */
export class TrackingService {
  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
    private readonly options: TrackingOptions,
    private readonly proofs: ProofOfDeliveryService,
    /**
     * Told in the same transaction when tracking changed what a shipment shows (new events, status, phase,
     * expected delivery): returns follow it, webhooks announce it.
     */
    private readonly followers: ShipmentWriteFollowers,
    /** Told in the same transaction when tracking ends, for the aggregators that bill until it is stopped. */
    private readonly stops: TrackingStops,
  ) {}

  /**
   * Applies a batch of answers in one transaction (one commit for the batch, not one per shipment): the rows
   * locked in at most two statements, every new event of the batch in multi-row inserts, one write per shipment. If
   * the batch fails, each shipment is applied on its own, so one bad answer does not hold the others back.
   */
  async applyBatch(claimed: PollClaim[], results: TrackResult[], context: ApplyContext): Promise<void> {
    const podFiles = await Promise.all(claimed.map((row, i) => this.capturePod(row, results[i])));
    try {
      await this.repos.transaction((repos) => this.applyLocked(repos, claimed, results, context, podFiles));
    } catch {
      let firstError: unknown = null;
      for (const [i, row] of claimed.entries()) {
        await this.apply(row, results[i], context).catch((error) => {
          firstError ??= error;
        });
      }
      if (firstError) throw firstError;
    }
  }

  async apply(claimed: PollClaim, result: TrackResult, context: ApplyContext): Promise<void> {
    // The proof is fetched before the transaction: no carrier call runs while rows are locked.
    const podFile = await this.capturePod(claimed, result);
    await this.repos.transaction((repos) => this.applyLocked(repos, [claimed], [result], context, [podFile]));
  }

  private async capturePod(claimed: PollClaim, result: TrackResult): Promise<string | null> {
    return result.status === 'ok' && result.proof_of_delivery ? this.proofs.capture(claimed, result.proof_of_delivery) : null;
  }

  /**
   * Applies answers to shipments within the caller's transaction: locks their rows (in at most two statements), stores
   * the new events of all of them, then writes each row once and tells the followers of each change. The rows
   * of answers that cannot change what a shipment shows (the carrier's data as stored, a failed call: most
   * polls) are read in the columns that decide the next poll only; a row read so that changes after all (its
   * tracking window ran out) is read in full before its followers are told.
   */
  private async applyLocked(
    repos: Repositories,
    claimed: readonly PollClaim[],
    results: readonly TrackResult[],
    context: ApplyContext,
    podFiles: ReadonlyArray<string | null>,
  ): Promise<void> {
    const now = this.clock.now();
    const nowText = now.toISOString();
    const whole = new Set(claimed.filter((_, i) => results[i].status === 'ok' || results[i].status === 'not_found').map((row) => row.id));
    const locked = await repos.shipments.lockPolled(
      claimed.map((row) => row.id),
      whole,
    );
    const storing: Array<{ shipment: ShipmentRow; events: NewEvent[] }> = [];
    const digests = new Map<number, string>();
    for (const [i, row] of claimed.entries()) {
      const before = locked.get(row.id);
      const result = results[i];
      if (before && isWhole(before) && result.status === 'ok' && sameIdentity(before, row)) {
        const answer = answerOf(context.adapter, before.tracking_number ?? '', result.events);
        // Only what the last answer stored did not hold: nothing at all for the same answer (most polls).
        const events = answer.rowsSince(before.tracking_digest);
        if (events === null) continue;
        storing.push({ shipment: before, events });
        digests.set(row.id, answer.digest);
      }
    }
    const stored = await storeEventsOf(repos, storing, nowText);
    for (const [i, row] of claimed.entries()) {
      let before = locked.get(row.id);
      // Deleted since it was claimed: nothing to apply it to.
      if (!before) continue;
      const jitter = (this.options.random ?? Math.random)();
      const changes = this.decide(before, row, results[i], context, podFiles[i], stored.get(row.id), now, jitter);
      // Written with the events it stands for, in the same transaction (set only for a locked row of the same identity).
      const digest = digests.get(row.id);
      if (digest !== undefined) changes.tracking_digest = digest;
      const fingerprint = this.fingerprintOf(before, row, results[i], podFiles[i]);
      if (fingerprint !== undefined && fingerprint !== before.tracking_fingerprint) changes.tracking_fingerprint = fingerprint;
      const shown = changesWhatItShows(before, changes);
      // Read before the write: the followers compare the row as it was with the row as it is.
      if (shown && !isWhole(before)) before = (await repos.shipments.lock(row.id)) ?? before;
      // What the followers add to the row (the prediction in its body) is written with the answer's changes, in one write.
      const whole = shown && isWhole(before) ? before : null;
      const after = whole && (await this.followers.prepare(repos, whole, { ...whole, ...changes } as ShipmentRow, nowText));
      if (whole && after && after.body !== (changes.body ?? whole.body)) changes.body = after.body;
      if (Object.keys(changes).length > 0) await repos.shipments.write(row.id, changes);
      // A polled shipment was being tracked: no next poll now means its tracking ended.
      if (changes.next_poll_at === null) await this.stops.queue(repos, { ...before, carrier_id: context.adapter.record.id }, nowText);
      if (whole && after) await this.followers.announce(repos, whole, after, nowText);
    }
  }

  /**
   * The fingerprint the row keeps after this answer (undefined: as it is): that of an answer applied in full
   * (its events stored with the same transaction, its proof of delivery held), else none, so that the next
   * poll maps the carrier's data again. `before` is the row as read under the lock.
   */
  private fingerprintOf(
    before: PolledShipment,
    claimed: PollClaim,
    result: TrackResult,
    podFile: string | null,
  ): string | null | undefined {
    if (result.status !== 'ok' || !sameIdentity(before, claimed)) return undefined;
    const proof = result.proof_of_delivery;
    if (proof && podFile === null && !this.proofs.holds(before, proof)) return null;
    return result.fingerprint ?? null;
  }

  /**
   * Decides everything an answer changes on the shipment row, to be written in one update (the events are
   * stored already: `stored`). `before` is the row as read under the lock.
   */
  private decide(
    before: PolledShipment,
    claimed: PollClaim,
    result: TrackResult,
    context: ApplyContext,
    podFile: string | null,
    stored: { created: number; latestPhase: string | null } | undefined,
    now: Date,
    jitter: number,
  ): Updateable<ShipmentsTable> {
    const nowText = now.toISOString();
    const changes: Updateable<ShipmentsTable> = {};
    /** The row as it will be once `changes` are written (a copy: `before` stays as it was read). */
    const shipment: PolledShipment = { ...before };
    const change = (more: Updateable<ShipmentsTable>) => {
      Object.assign(changes, more);
      Object.assign(shipment, more);
    };
    const done = (more: Updateable<ShipmentsTable> = {}) => {
      change(more);
      return changes;
    };
    if (podFile) change({ pod_file: podFile });
    // The tracking identity changed while the carrier was asked: this answer is for the old one.
    if (!sameIdentity(shipment, claimed)) return done();

    if (result.status === 'error' && result.throttled) {
      // The credential was throttled, not this shipment: it waits out the pause without a failure counted.
      const waitMs = Math.max(1, result.retry_after_seconds ?? 60) * 1000 + Math.floor(jitter * THROTTLE_SPREAD_MS);
      return done({ next_poll_at: new Date(now.getTime() + waitMs).toISOString() });
    }
    if (result.status === 'error') {
      const failures = shipment.poll_failures + 1;
      const next = result.retryable ? nextPollAfterFailure(now, failures, result.retry_after_seconds) : nextPollAfterFailure(now, 8);
      return done({ poll_failures: failures, next_poll_at: next.toISOString() });
    }

    if (shipment.poll_deferred_since) change({ poll_deferred_since: null });
    // The carrier's data is what the stored answer was made from: as an answer with nothing new.
    const answer = result.status === 'unchanged' ? null : result;
    if (answer?.status === 'not_found') {
      const started = new Date(shipment.tracking_started_at ?? nowText);
      if (now.getTime() - started.getTime() >= this.options.windowMs) {
        const status = shipment.status === SHIPMENT_STATUS.pending ? SHIPMENT_STATUS.inactive : shipment.status;
        return done({ status, next_poll_at: null, poll_failures: 0, updated_at: nowText });
      }
      const next = nextPollWhileUnknown(now, started, { jitter, maxIntervalMs: context.maxIntervalMs });
      const earliest = now.getTime() + (context.minIntervalMs ?? 0);
      return done({ next_poll_at: new Date(Math.max(next.getTime(), earliest)).toISOString(), poll_failures: 0 });
    }

    // The answers that can change what the shipment shows are applied to the whole row (see applyLocked).
    if (stored && answer && isWhole(shipment)) {
      const correction = answer.events.some((e) => e.correction === true);
      const events = eventChanges(shipment, stored.created, stored.latestPhase, nowText, correction);
      if (events.changes) change(events.changes);
    }
    const signedBy = answer?.proof_of_delivery?.signed_by?.trim();
    const expected = answer?.expected_delivery;
    const courier = answer?.carrier_of_record;
    if ((expected || signedBy || courier) && isWhole(shipment)) {
      // The body is read once for all; written back only if something in it changed.
      const body = JSON.parse(shipment.body);
      let bodyChanged = false;
      // An aggregator's courier, shown as the shipment's carrier (carrier-of-record.ts).
      if (courier && recordCarrierOfRecord(body, courier)) {
        bodyChanged = true;
        change({ updated_at: nowText });
      }
      if (expected) {
        const window = { from: expected.from, to: expected.to };
        // Kept apart from the merchant's own window, which it never overwrites (src/domain/delivery/expected-delivery.ts).
        if (JSON.stringify(body.carrier_expected_delivery) !== JSON.stringify(window)) {
          body.carrier_expected_delivery = window;
          bodyChanged = true;
          change({ updated_at: nowText, last_tracking_update_at: nowText });
        }
      }
      // Who signed, as the carrier says, in the interface's parcel_recipient_information, unless the merchant set it.
      if (signedBy && (body.parcel_recipient_information === undefined || body.parcel_recipient_information === null)) {
        body.parcel_recipient_information = signedBy.slice(0, 1000);
        bodyChanged = true;
        change({ updated_at: nowText });
      }
      if (bodyChanged) change({ body: JSON.stringify(body) });
    }
    const lastUpdate = new Date(shipment.last_tracking_update_at ?? shipment.tracking_started_at ?? nowText);
    if (shipment.status !== SHIPMENT_STATUS.delivered && now.getTime() - lastUpdate.getTime() >= this.options.windowMs) {
      const status = shipment.status === SHIPMENT_STATUS.pending ? SHIPMENT_STATUS.inactive : SHIPMENT_STATUS.expired;
      return done({ status, next_poll_at: null, poll_failures: 0, updated_at: nowText });
    }
    const phase = isPhaseKey(shipment.phase_key) ? shipment.phase_key : null;
    // While the carrier pushes this number's events, polls only catch what a push missed.
    const pushed = shipment.push_subscribed_until !== null && shipment.push_subscribed_until > nowText;
    const next = nextPollAfterSuccess(now, phase, shipment.status, { jitter, maxIntervalMs: context.maxIntervalMs, pushed });
    const earliest = now.getTime() + (context.minIntervalMs ?? 0);
    const due = next && next.getTime() < earliest ? new Date(earliest) : next;
    return done({ next_poll_at: due?.toISOString() ?? null, poll_failures: 0 });
  }

  /**
   * Puts polls off until the credential's quota resets (spread over ten minutes after it), keeping when
   * the first deferral happened so that the scheduler can serve the longest-waiting before they starve.
   * One statement for the lot: a quota-bound credential can put off thousands at a time.
   */
  async defer(rows: ReadonlyArray<{ id: number }>, until: Date): Promise<void> {
    await this.repos.shipments.reschedulePolls(
      rows.map((row) => row.id),
      spreadTimes(until.getTime(), DEFER_SPREAD_MS),
      { deferredSince: this.clock.now().toISOString() },
    );
  }

  /** Moves the next poll of these shipments to `until`, nothing else changed (answers that could not be applied). */
  async holdBack(rows: ReadonlyArray<{ id: number }>, until: Date): Promise<void> {
    await this.repos.shipments.reschedulePolls(
      rows.map((row) => row.id),
      [until.toISOString()],
    );
  }

  /**
   * Puts off every due poll of one carrier configuration until its credential's quota resets (as `defer`), a
   * thousand per statement, but those of `polled` (polled with the day's last calls): other work (carrier
   * calls waiting for their turn) runs between the statements.
   */
  async deferAllDue(accountId: number, carrierReference: string, until: Date, polled: readonly number[] = []): Promise<number> {
    const now = this.clock.now().toISOString();
    const times = spreadTimes(until.getTime(), DEFER_SPREAD_MS);
    let deferred = 0;
    for (;;) {
      const done = await this.repos.shipments.deferDuePollsOf(accountId, carrierReference, now, times, DEFER_CHUNK, polled);
      deferred += done;
      if (done < DEFER_CHUNK) return deferred;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Ends tracking of shipments whose carrier configuration is gone (or whose carrier does not track, or without a number). */
  async stop(shipments: ReadonlyArray<{ id: number }>): Promise<void> {
    await this.repos.shipments.reschedulePolls(
      shipments.map((row) => row.id),
      [null],
    );
  }
}

/** Whether writing `changes` changes what the shipment shows (its followers are told then). */
function changesWhatItShows(before: PolledShipment, changes: Updateable<ShipmentsTable>): boolean {
  return (
    (changes.updated_at !== undefined && changes.updated_at !== before.updated_at) ||
    (changes.status !== undefined && changes.status !== before.status) ||
    (changes.phase_key !== undefined && changes.phase_key !== before.phase_key)
  );
}

/** Whether a row locked for an answer was read in full. */
function isWhole(row: PolledShipment): row is ShipmentRow {
  return 'body' in row;
}

/** Whether the row still tracks the number and carrier it was claimed with. */
function sameIdentity(row: PollClaim, claimed: PollClaim): boolean {
  return row.tracking_number === claimed.tracking_number && row.carrier_reference === claimed.carrier_reference;
}

/** Sixteen times from `fromMs` over `spreadMs` (one when there is no spread), as ISO texts. */
function spreadTimes(fromMs: number, spreadMs: number): string[] {
  if (spreadMs <= 0) return [new Date(fromMs).toISOString()];
  return Array.from({ length: 16 }, (_, i) => new Date(fromMs + Math.floor((spreadMs * i) / 16)).toISOString());
}

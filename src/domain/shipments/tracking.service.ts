import type { Updateable } from 'kysely';
import type { CarrierAdapter, CarrierEvent, TrackResult } from '../../carriers/carrier.js';
import { eventKey } from '../../carriers/event-key.js';
import { isPhaseKey } from '../../carriers/phases.js';
import type { Clock } from '../../clock.js';
import { parseEventTime } from '../../core/event-time.js';
import { SHIPMENT_STATUS } from '../../core/shipment-status.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { ShipmentsTable } from '../../db/schema.js';
import { type NewEvent, storeEvents } from './event-recorder.js';
import { nextPollAfterFailure, nextPollAfterSuccess, nextPollWhileUnknown } from './poll-schedule.js';
import type { ProofOfDeliveryService } from './proof-of-delivery.service.js';
import type { ShipmentChangeListener } from './tracking-followers.js';

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

/** Carrier events turned into stored events; events whose time cannot be read are left out and reported. */
export function toNewEvents(
  adapter: CarrierAdapter,
  trackingNumber: string,
  events: CarrierEvent[],
): { rows: NewEvent[]; unreadable: number } {
  const rows: NewEvent[] = [];
  let unreadable = 0;
  events.forEach((event, index) => {
    const time = parseEventTime(event.time, { timezone: event.timezone });
    if (!time.ok) {
      unreadable++;
      return;
    }
    rows.push({
      dedupe_key: eventKey(adapter.record.id, trackingNumber, event, time, { legacy: adapter.legacyEventKeys === true }),
      origin: 'carrier',
      event: event.event,
      event_key: event.event_key,
      phase_key: event.phase_key,
      time_text: time.time.text,
      time_utc: time.time.utc,
      timezone: event.timezone,
      carrier_name: adapter.record.name,
      location: event.location ? JSON.stringify(event.location) : null,
      additional_info: JSON.stringify(event.additional_info),
      sequence: index,
    });
  });
  return { rows, unreadable };
}

/**
 * Applies one carrier answer to one shipment: stores new events, moves status and phase, records the
 * expected delivery, and decides the next poll — or ends tracking when the window has passed.
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
    private readonly followers: ShipmentChangeListener,
  ) {}

  /**
   * Applies a batch of answers in one transaction (one commit for the batch, not one per shipment). If the
   * batch fails, each shipment is applied on its own, so one bad answer does not hold the others back.
   */
  async applyBatch(claimed: ShipmentRow[], results: TrackResult[], context: ApplyContext): Promise<void> {
    const podFiles = await Promise.all(claimed.map((row, i) => this.capturePod(row, results[i])));
    const nowText = this.clock.now().toISOString();
    try {
      await this.repos.transaction(async (repos) => {
        const locked = await repos.shipments.lockMany(claimed.map((row) => row.id));
        for (const [i, row] of claimed.entries()) {
          await this.applyLocked(repos, row, results[i], context, podFiles[i], nowText, locked.get(row.id) ?? null);
        }
      });
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

  private async capturePod(claimed: ShipmentRow, result: TrackResult): Promise<string | null> {
    return result.status === 'ok' && result.proof_of_delivery ? this.proofs.capture(claimed, result.proof_of_delivery) : null;
  }

  private async applyLocked(
    repos: Repositories,
    claimed: ShipmentRow,
    result: TrackResult,
    context: ApplyContext,
    podFile: string | null,
    nowText: string,
    /** The row already read under a lock in this transaction (null: gone), or undefined to read it here. */
    lockedRow?: ShipmentRow | null,
  ): Promise<ShipmentRow> {
    const before = lockedRow === undefined ? await repos.shipments.lock(claimed.id) : (lockedRow ?? undefined);
    const after = await this.applyIn(repos, before, claimed, result, context, podFile);
    if (before && (after.updated_at !== before.updated_at || after.status !== before.status || after.phase_key !== before.phase_key)) {
      await this.followers.shipmentChanged(repos, before, after, nowText);
    }
    return after;
  }

  async apply(claimed: ShipmentRow, result: TrackResult, context: ApplyContext): Promise<ShipmentRow> {
    const nowText = this.clock.now().toISOString();
    // The proof is fetched before the transaction: no carrier call runs while rows are locked.
    const podFile = await this.capturePod(claimed, result);
    return this.repos.transaction((repos) => this.applyLocked(repos, claimed, result, context, podFile, nowText));
  }

  /**
   * Decides everything an answer changes on the shipment row and writes it in one update at the end
   * (the events go in first). `before` is the row as read under the lock; undefined if it is gone.
   */
  private async applyIn(
    repos: Repositories,
    before: ShipmentRow | undefined,
    claimed: ShipmentRow,
    result: TrackResult,
    context: ApplyContext,
    podFile: string | null,
  ): Promise<ShipmentRow> {
    const now = this.clock.now();
    const nowText = now.toISOString();
    const jitter = (this.options.random ?? Math.random)();
    const id = (before ?? claimed).id;
    const changes: Updateable<ShipmentsTable> = {};
    /** The row as it will be once `changes` are written. */
    let shipment: ShipmentRow = before ?? claimed;
    const change = (more: Updateable<ShipmentsTable>) => {
      Object.assign(changes, more);
      shipment = { ...shipment, ...(more as Partial<ShipmentRow>) };
    };
    const write = async (more: Updateable<ShipmentsTable> = {}): Promise<ShipmentRow> => {
      change(more);
      return Object.keys(changes).length > 0 ? repos.shipments.update(id, changes) : shipment;
    };
    if (podFile && before) change({ pod_file: podFile });
    // The tracking identity changed while the carrier was asked: this answer is for the old one.
    if (shipment.tracking_number !== claimed.tracking_number || shipment.carrier_reference !== claimed.carrier_reference) return write();

    if (result.status === 'error' && result.throttled) {
      // The credential was throttled, not this shipment: it waits out the pause without a failure counted.
      const waitMs = Math.max(1, result.retry_after_seconds ?? 60) * 1000 + Math.floor(jitter * 30_000);
      return write({ next_poll_at: new Date(now.getTime() + waitMs).toISOString() });
    }
    if (result.status === 'error') {
      const failures = shipment.poll_failures + 1;
      const next = result.retryable ? nextPollAfterFailure(now, failures, result.retry_after_seconds) : nextPollAfterFailure(now, 8);
      return write({ poll_failures: failures, next_poll_at: next.toISOString() });
    }

    if (shipment.poll_deferred_since) change({ poll_deferred_since: null });
    if (result.status === 'not_found') {
      const started = new Date(shipment.tracking_started_at ?? nowText);
      if (now.getTime() - started.getTime() >= this.options.windowMs) {
        const status = shipment.status === SHIPMENT_STATUS.pending ? SHIPMENT_STATUS.inactive : shipment.status;
        return write({ status, next_poll_at: null, poll_failures: 0, updated_at: nowText });
      }
      const next = nextPollWhileUnknown(now, started, { jitter, maxIntervalMs: context.maxIntervalMs });
      const earliest = now.getTime() + (context.minIntervalMs ?? 0);
      return write({ next_poll_at: new Date(Math.max(next.getTime(), earliest)).toISOString(), poll_failures: 0 });
    }

    const { rows } = toNewEvents(context.adapter, shipment.tracking_number ?? '', result.events);
    const correction = result.events.some((e) => e.correction === true);
    const stored = await storeEvents(repos, shipment, rows, nowText, { correction, locked: before !== undefined });
    if (stored.changes) {
      // Without a lock held, storeEvents read the row again; nothing was changed before that point then.
      shipment = stored.shipment;
      change(stored.changes);
    }
    if (result.expected_delivery) {
      const body = JSON.parse(shipment.body);
      const window = { from: result.expected_delivery.from, to: result.expected_delivery.to };
      if (JSON.stringify(body.expected_delivery) !== JSON.stringify(window)) {
        body.expected_delivery = window;
        change({ body: JSON.stringify(body), updated_at: nowText, last_tracking_update_at: nowText });
      }
    }
    const signedBy = result.proof_of_delivery?.signed_by?.trim();
    if (signedBy) {
      // Who signed, as the carrier says, in the interface's parcel_recipient_information, unless the merchant set it.
      const body = JSON.parse(shipment.body);
      if (body.parcel_recipient_information === undefined || body.parcel_recipient_information === null) {
        body.parcel_recipient_information = signedBy.slice(0, 1000);
        change({ body: JSON.stringify(body), updated_at: nowText });
      }
    }
    const lastUpdate = new Date(shipment.last_tracking_update_at ?? shipment.tracking_started_at ?? nowText);
    if (shipment.status !== SHIPMENT_STATUS.delivered && now.getTime() - lastUpdate.getTime() >= this.options.windowMs) {
      const status = shipment.status === SHIPMENT_STATUS.pending ? SHIPMENT_STATUS.inactive : SHIPMENT_STATUS.expired;
      return write({ status, next_poll_at: null, poll_failures: 0, updated_at: nowText });
    }
    const phase = isPhaseKey(shipment.phase_key) ? shipment.phase_key : null;
    // While the carrier pushes this number's events, polls only catch what a push missed.
    const pushed = shipment.push_subscribed_until !== null && shipment.push_subscribed_until > nowText;
    const next = nextPollAfterSuccess(now, phase, shipment.status, { jitter, maxIntervalMs: context.maxIntervalMs, pushed });
    const earliest = now.getTime() + (context.minIntervalMs ?? 0);
    const due = next && next.getTime() < earliest ? new Date(earliest) : next;
    return write({ next_poll_at: due?.toISOString() ?? null, poll_failures: 0 });
  }

  /**
   * Puts polls off until the credential's quota resets (spread over ten minutes after it), keeping when
   * the first deferral happened so that the scheduler can serve the longest-waiting before they starve.
   */
  async defer(rows: readonly ShipmentRow[], until: Date): Promise<void> {
    const nowText = this.clock.now().toISOString();
    const random = this.options.random ?? Math.random;
    // One commit for the lot: a quota-bound credential can put off hundreds at a time.
    await this.repos.transaction(async (repos) => {
      for (const row of rows) {
        const at = new Date(until.getTime() + Math.floor(random() * 600_000)).toISOString();
        await repos.shipments.update(row.id, { next_poll_at: at, poll_deferred_since: row.poll_deferred_since ?? nowText });
      }
    });
  }

  /** Ends tracking of a shipment whose carrier configuration is gone. */
  async stop(shipment: ShipmentRow): Promise<void> {
    await this.repos.shipments.update(shipment.id, { next_poll_at: null });
  }
}

import type { Logger } from 'pino';
import type { CarrierAdapter, TrackResult } from '../carriers/carrier.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import { type PollCapacity, sizesPolls } from '../carriers/sdk/http-carrier.js';
import { nextReset } from '../carriers/sdk/limits.js';
import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import type { PollClaim } from '../db/repositories/shipments.repository.js';
import type { CarrierConfigsService } from '../domain/carrier-configs.service.js';
import { choosePolls, pollRanking } from '../domain/shipments/poll-priority.js';
import type { TrackingService } from '../domain/shipments/tracking.service.js';
import type { PeriodicTask } from './worker.js';

export interface PollerOptions {
  /** Shipments claimed per round across every carrier (oldest due first). */
  batchSize?: number;
  /** Tracking numbers per carrier batch (rounded down to whole carrier calls), applied in one transaction. */
  carrierBatchSize?: number;
  /** Carrier batches in flight at once, per credential. */
  perCarrierConcurrency?: number;
  /** How long a carrier call may wait for its credential's limits before its numbers are held back (TrackOptions.waitMs). */
  limitWaitMs?: number;
  leaseMs?: number;
  /** A round claims for each credential at most what its limits let it serve in this long. */
  roundMs?: number;
  /** While credentials have more due than a round serves, the claim across every carrier runs this often at most. */
  sweepMs?: number;
  /** The most shipments claimed for one credential in a round. */
  maxPerCredential?: number;
}

/** A credential whose numbers left today are fewer than this is checked for a due set its quota cannot cover. */
const QUOTA_CHECK_BELOW = 20_000;

/** The shipments of one carrier configuration in a round. */
interface Group {
  accountId: number;
  carrierReference: string | null;
  /** Claimed by the claim across every carrier. */
  swept: PollClaim[];
}

/** A configuration known to have more due polls than one round serves: claimed for on its own each round. */
interface Backlog {
  accountId: number;
  carrierReference: string;
}

/**
 * Polls carriers for shipments whose next poll is due. Claims are leased in the database, so any number of
 * workers share the due set. A round claims the oldest due shipments of every carrier, and for each
 * credential no more than its limits let it serve in the round (`roundMs`): a credential with more due than
 * that is claimed for on its own, round after round, until it has caught up, and the claim across every
 * carrier then runs only every `sweepMs`. A credential whose day's calls cannot cover its due set spends them
 * on the most urgent of all of them (src/domain/shipments/poll-priority.ts) and puts the rest off to its reset.
 * Each credential's batches run with bounded concurrency; a round ends when its last batch is applied.
 */
export class TrackingPoller implements PeriodicTask {
  readonly name = 'tracking-poller';
  private readonly batchSize: number;
  private readonly carrierBatchSize: number;
  private readonly perCarrierConcurrency: number;
  private readonly leaseMs: number;
  private readonly waitMs: number;
  private readonly roundMs: number;
  private readonly sweepMs: number;
  private readonly maxPerCredential: number;
  private readonly backlog = new Map<string, Backlog>();
  private nextSweepAt = 0;

  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly carrierConfigs: CarrierConfigsService,
    private readonly tracking: TrackingService,
    private readonly clock: Clock,
    private readonly log: Logger,
    options: PollerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 200;
    this.carrierBatchSize = options.carrierBatchSize ?? 100;
    this.perCarrierConcurrency = options.perCarrierConcurrency ?? 4;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.waitMs = options.limitWaitMs ?? 5_000;
    this.roundMs = options.roundMs ?? 2_000;
    this.sweepMs = options.sweepMs ?? 5_000;
    this.maxPerCredential = options.maxPerCredential ?? 1_000;
  }

  /** One round; returns the shipments it polled, put off to a quota's reset, or stopped tracking (0: idle). */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const round: Round = {
      now,
      nowText: now.toISOString(),
      leaseUntil: new Date(now.getTime() + this.leaseMs).toISOString(),
      sweptFull: false,
      allotted: new Map(),
      lanes: new Map(),
      done: 0,
    };
    const groups = new Map<string, Group>();
    if (this.backlog.size === 0 || performance.now() >= this.nextSweepAt) {
      this.nextSweepAt = performance.now() + this.sweepMs;
      const claimed = await this.repos.shipments.claimDuePolls(round.nowText, round.leaseUntil, this.batchSize);
      round.sweptFull = claimed.length >= this.batchSize;
      for (const row of claimed) {
        const key = groupKey(row.account_id, row.carrier_reference);
        let group = groups.get(key);
        if (!group) {
          group = { accountId: row.account_id, carrierReference: row.carrier_reference, swept: [] };
          groups.set(key, group);
        }
        group.swept.push(row);
      }
    }
    for (const [key, backlog] of this.backlog) if (!groups.has(key)) groups.set(key, { ...backlog, swept: [] });
    for (const [key, group] of groups) await this.plan(key, group, round);
    await Promise.all([...round.lanes.values()].map((calls) => runLimited(calls, this.perCarrierConcurrency)));
    return round.done;
  }

  /** Decides what one configuration polls in this round (claiming more, handing back, putting off) and queues its batches. */
  private async plan(key: string, group: Group, round: Round): Promise<void> {
    const config = group.carrierReference !== null ? await this.carrierConfigs.resolve(group.accountId, group.carrierReference) : undefined;
    const adapter = config ? this.carriers.get(config.carrier_id) : undefined;
    if (!config || !adapter?.capabilities.tracking) {
      this.backlog.delete(key);
      await this.tracking.stop(group.swept);
      round.done += group.swept.length;
      return;
    }
    const untracked = group.swept.filter((row) => !row.tracking_number);
    if (untracked.length > 0) {
      await this.tracking.stop(untracked);
      round.done += untracked.length;
    }
    const reference = config.carrier_reference;
    let rows = group.swept.filter((row) => row.tracking_number);
    const capacity = sizesPolls(adapter) ? adapter.pollCapacity(config.settings, this.roundMs) : null;
    if (capacity) {
      const room = Math.max(0, Math.min(capacity.numbers, this.maxPerCredential) - (round.allotted.get(capacity.credential) ?? 0));
      if (await this.quotaShort(group.accountId, reference, capacity, rows.length, round)) {
        rows = await this.withinQuota(
          adapter,
          key,
          { accountId: group.accountId, carrierReference: reference },
          rows,
          room,
          capacity,
          round,
        );
      } else if (rows.length > room) {
        // Known to be behind: what the credential cannot serve in this round is handed back, to be claimed when
        // it can be. Seen behind for the first time, all is asked for (what cannot be sent in time is held back).
        if (this.backlog.has(key)) {
          await this.tracking.release(rows.slice(room), new Date(round.now.getTime() + this.roundMs), this.roundMs);
          rows = rows.slice(0, room);
        }
        this.backlog.set(key, { accountId: group.accountId, carrierReference: reference });
      } else if (rows.length < room && (this.backlog.has(key) || round.sweptFull)) {
        const wanted = room - rows.length;
        const more = await this.repos.shipments.claimDuePollsOf(group.accountId, reference, round.nowText, round.leaseUntil, wanted);
        rows = rows.concat(more);
        if (more.length < wanted) this.backlog.delete(key);
        else this.backlog.set(key, { accountId: group.accountId, carrierReference: reference });
      }
      round.allotted.set(capacity.credential, (round.allotted.get(capacity.credential) ?? 0) + rows.length);
    }
    if (rows.length === 0) return;
    round.done += rows.length;
    const interval = Number(config.settings.poll_interval_seconds);
    const intervals = {
      maxIntervalMs: Number.isFinite(interval) && interval >= 10 ? interval * 1000 : undefined,
      minIntervalMs: adapter.limits ? adapter.limits.min_poll_interval_seconds * 1000 : undefined,
    };
    // Whole carrier calls per batch: 30 numbers a call make batches of 30, not 50 (a call of 30 and one of 20).
    const perCall = Math.max(1, adapter.limits?.numbers_per_call ?? 1);
    const size = perCall >= this.carrierBatchSize ? perCall : perCall * Math.floor(this.carrierBatchSize / perCall);
    const lane = capacity?.credential ?? adapter.record.id;
    const calls = round.lanes.get(lane) ?? [];
    round.lanes.set(lane, calls);
    for (let i = 0; i < rows.length; i += size) {
      const batch = rows.slice(i, i + size);
      calls.push(() => this.pollBatch(adapter, config.settings, batch, intervals));
    }
  }

  /**
   * Whether a configuration's credential has fewer numbers left today than it has due polls (those claimed in
   * this round included). Only credentials close to their quota are checked (QUOTA_CHECK_BELOW).
   */
  private async quotaShort(accountId: number, reference: string, capacity: PollCapacity, claimed: number, round: Round): Promise<boolean> {
    const today = capacity.numbersToday;
    if (today === null || today >= QUOTA_CHECK_BELOW) return false;
    if (claimed > today) return true;
    const due = await this.repos.shipments.countDuePollsOf(accountId, reference, round.nowText, today - claimed + 1);
    return claimed + due > today;
  }

  /**
   * The shipments a credential whose day's calls cannot cover its due set polls in this round: the most
   * urgent of all its due shipments (those this round claimed compete too), as many as the round serves; when
   * the round spends the last calls of the day, every other due shipment waits for the quota's reset.
   */
  private async withinQuota(
    adapter: CarrierAdapter,
    key: string,
    backlog: Backlog,
    swept: PollClaim[],
    room: number,
    capacity: PollCapacity,
    round: Round,
  ): Promise<PollClaim[]> {
    const today = capacity.numbersToday ?? 0;
    const { accountId, carrierReference } = backlog;
    if (swept.length > 0) await this.tracking.release(swept, round.now);
    const take = Math.min(room, today);
    const chosen =
      take > 0
        ? await this.repos.shipments.claimRankedPollsOf(
            accountId,
            carrierReference,
            round.nowText,
            round.leaseUntil,
            take,
            pollRanking(round.now),
          )
        : [];
    let deferred = 0;
    if (today <= room) {
      const reset = adapter.limits ? nextReset(round.now.getTime(), adapter.limits.quota_reset_utc) : round.now.getTime() + 86_400_000;
      deferred = await this.tracking.deferAllDue(accountId, carrierReference, new Date(reset));
      this.backlog.delete(key);
      round.done += deferred;
    } else {
      this.backlog.set(key, backlog);
    }
    if (deferred > 0) {
      this.log.info({ carrier: adapter.record.id, polled: chosen.length, deferred }, 'daily carrier quota: polls deferred to its reset');
    }
    // Most urgent first, so that the first calls of the round go to them.
    return choosePolls(chosen, chosen.length, round.now).poll;
  }

  private async pollBatch(
    adapter: CarrierAdapter,
    settings: Record<string, unknown>,
    rows: PollClaim[],
    intervals: { maxIntervalMs?: number; minIntervalMs?: number },
  ): Promise<void> {
    let results: TrackResult[];
    // Carrier calls end before the claim's lease does, so no other worker polls these shipments meanwhile.
    const signal = AbortSignal.timeout(Math.max(1000, Math.floor(this.leaseMs * 0.75)));
    try {
      results = await adapter.track(
        rows.map((row) => ({
          tracking_number: row.tracking_number as string,
          first_polled_at: row.tracking_started_at ?? this.clock.now().toISOString(),
          attempt: row.poll_failures,
          known_answer: row.tracking_fingerprint,
        })),
        settings,
        // A credential that cannot call within a few seconds (its rate, its slots) holds those numbers back for
        // later instead of holding up this round for every other carrier.
        { now: this.clock.now(), signal, waitMs: this.waitMs },
      );
    } catch (error) {
      // The contract says adapters do not throw; one that does is treated as a retryable failure.
      this.log.error({ err: error, carrier: adapter.record.id }, 'carrier adapter threw');
      results = rows.map((row) => ({
        status: 'error',
        retryable: true,
        message: 'adapter failure',
        tracking_number: row.tracking_number as string,
      }));
    }
    try {
      await this.tracking.applyBatch(rows, results, { adapter, ...intervals });
    } catch (error) {
      // Left as claimed: the lease runs out and the shipments are polled again.
      this.log.error({ err: error, carrier: adapter.record.id }, 'applying tracking results failed');
    }
  }
}

/** What the configurations of one round share. */
interface Round {
  now: Date;
  nowText: string;
  leaseUntil: string;
  /** The claim across every carrier came back full: there may be more due than it took. */
  sweptFull: boolean;
  /** Numbers given to each credential in this round (configurations may share one). */
  allotted: Map<string, number>;
  /** Carrier batches by credential (or carrier, for carriers without limits), run with bounded concurrency each. */
  lanes: Map<string, Array<() => Promise<void>>>;
  done: number;
}

function groupKey(accountId: number, carrierReference: string | null): string {
  return `${accountId}\u0000${carrierReference ?? ''}`;
}

/** Runs tasks with at most `limit` in flight. */
async function runLimited(tasks: Array<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, tasks.length) }, async () => {
    while (next < tasks.length) await tasks[next++]();
  });
  await Promise.all(lanes);
}

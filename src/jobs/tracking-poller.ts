import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { registersNumbers, type TrackingRegistrar } from '../carriers/aggregator.js';
import type { CarrierAdapter, TrackResult } from '../carriers/carrier.js';
import { normalizeTrackingNumber } from '../carriers/detect/index.js';
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
  /** What the configurations of carriers without limits claim in a round, in all (each at least one). */
  batchSize?: number;
  /** Configurations with polls due that a walk lists at most (the longest due first). */
  configurationsPerWalk?: number;
  /** Tracking numbers per carrier batch (rounded down to whole carrier calls), applied in one transaction. */
  carrierBatchSize?: number;
  /** Carrier batches in flight at once, per credential. */
  perCarrierConcurrency?: number;
  /** How long a carrier call may wait for its credential's limits before its numbers are held back (TrackOptions.waitMs). */
  limitWaitMs?: number;
  leaseMs?: number;
  /** A round claims for each credential at most what its limits let it serve in this long. */
  roundMs?: number;
  /** While configurations have more due than a round serves, the walk over every configuration runs this often at most. */
  sweepMs?: number;
  /** The most shipments claimed for one credential in a round. */
  maxPerCredential?: number;
}

/** A credential whose numbers left today are fewer than this is checked for a due set its quota cannot cover. */
const QUOTA_CHECK_BELOW = 20_000;

/** A walk over more configurations than this (a few milliseconds) runs less often when it finds little due. */
const WALK_FREE_STEPS = 500;
/** A walk that costs something runs at most this share of the time (1 in 50). */
const WALK_SHARE = 50;

/** A carrier configuration polled in a round: found due by the walk, or known to be behind. */
interface Configuration {
  accountId: number;
  carrierReference: string;
}

/**
 * Polls carriers for shipments whose next poll is due. A worker polls a carrier configuration while it holds
 * the configuration's lease in the database (PollLeasesRepository): any number of workers share the
 * configurations, and the due shipments are read without a write each. A round walks the configurations with
 * due polls (the longest due first, one index step each), takes the lease of each and claims for each: for a
 * credential with limits, no more than they let it serve in the round (`roundMs`); for a carrier without, a
 * share of `batchSize`. A configuration whose claim came back full is behind: it is claimed for round after
 * round until it has caught up, and the walk then runs only every `sweepMs`. A credential whose day's calls
 * cannot cover its due set spends them on the most urgent of all of them (src/domain/shipments/poll-priority.ts)
 * and puts the rest off to its reset. Each credential's batches run with bounded concurrency; a round ends when
 * its last batch is applied. An aggregator's batch first has the aggregator track again the numbers it was told
 * to stop following (`resumeStopped`).
 */
export class TrackingPoller implements PeriodicTask {
  readonly name = 'tracking-poller';
  private readonly batchSize: number;
  private readonly configurationsPerWalk: number;
  private readonly carrierBatchSize: number;
  private readonly perCarrierConcurrency: number;
  private readonly leaseMs: number;
  private readonly waitMs: number;
  private readonly roundMs: number;
  private readonly sweepMs: number;
  private readonly maxPerCredential: number;
  /** Configurations known to have more due than their last claim took. */
  private readonly backlog = new Map<string, Configuration>();
  /** While configurations are behind, the walk runs again from then. */
  private nextSweepAt = 0;
  /** The walk runs again from then at the earliest (its cost bounds how often it runs). */
  private nextWalkAt = 0;
  /** The last walk listed as many configurations as it lists at most: more may be due. */
  private walkFull = false;
  /**
   * Configurations left leased by a round whose answers could be neither applied nor put off, with the
   * lease's end: this poller's own lease would let it in again, so it leaves them to that end as another
   * worker does.
   */
  private readonly kept = new Map<string, number>();
  /** Who holds this poller's configuration leases. */
  private readonly holder = randomUUID();

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
    this.configurationsPerWalk = options.configurationsPerWalk ?? 1_000;
    this.carrierBatchSize = options.carrierBatchSize ?? 100;
    this.perCarrierConcurrency = options.perCarrierConcurrency ?? 4;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.waitMs = options.limitWaitMs ?? 5_000;
    this.roundMs = options.roundMs ?? 2_000;
    this.sweepMs = options.sweepMs ?? 5_000;
    this.maxPerCredential = options.maxPerCredential ?? 1_000;
  }

  /** Behind: a configuration's claim came back full, or the walk did (the worker runs the next round at once). */
  behind(): boolean {
    return this.backlog.size > 0 || this.walkFull;
  }

  /** One round; returns the shipments it polled, put off to a quota's reset, or stopped tracking (0: idle). */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const round: Round = {
      now,
      nowText: now.toISOString(),
      leaseUntil: new Date(now.getTime() + this.leaseMs).toISOString(),
      share: this.batchSize,
      allotted: new Map(),
      lanes: new Map(),
      held: new Map(),
      done: 0,
    };
    for (const [key, until] of this.kept) if (until <= now.getTime()) this.kept.delete(key);
    const configurations = new Map<string, Configuration>();
    const started = performance.now();
    if (started >= this.nextWalkAt && (this.backlog.size === 0 || started >= this.nextSweepAt)) {
      const { due, walked } = await this.repos.shipments.dueConfigurations(round.nowText, this.configurationsPerWalk);
      const ended = performance.now();
      this.walkFull = due.length >= this.configurationsPerWalk;
      this.nextSweepAt = ended + this.sweepMs;
      // A step per configuration with tracked shipments: over many of them, a walk that did not find as many due
      // configurations as it lists waits in proportion to its cost (one that did has work enough to pay for it).
      this.nextWalkAt =
        walked > WALK_FREE_STEPS && due.length < this.configurationsPerWalk ? ended + (ended - started) * (WALK_SHARE - 1) : 0;
      for (const row of due) {
        configurations.set(groupKey(row.account_id, row.carrier_reference), {
          accountId: row.account_id,
          carrierReference: row.carrier_reference,
        });
      }
    }
    for (const [key, behind] of this.backlog) if (!configurations.has(key)) configurations.set(key, behind);
    round.share = Math.max(1, Math.ceil(this.batchSize / Math.max(1, configurations.size)));
    try {
      for (const [key, configuration] of configurations) await this.plan(key, configuration, round);
      await Promise.all([...round.lanes.values()].map((calls) => runLimited(calls, this.perCarrierConcurrency)));
    } finally {
      // Given back as soon as the round is done with them, unless answers could not be applied (kept to the lease's end).
      for (const [key, { accountId, carrierReference }] of round.held) {
        if (this.kept.has(key)) continue;
        await this.repos.pollLeases.release(accountId, carrierReference, this.holder).catch((error) => {
          this.log.error({ err: error }, 'releasing a poll lease failed');
        });
      }
    }
    return round.done;
  }

  /** Decides what one configuration polls in this round (claiming, putting off) and queues its batches. */
  private async plan(key: string, configuration: Configuration, round: Round): Promise<void> {
    const { accountId, carrierReference } = configuration;
    if (this.kept.has(key)) {
      this.backlog.delete(key);
      return;
    }
    if (!(await this.repos.pollLeases.acquire(accountId, carrierReference, this.holder, round.nowText, round.leaseUntil))) {
      // Another worker polls it.
      this.backlog.delete(key);
      return;
    }
    round.held.set(key, configuration);
    const config = await this.carrierConfigs.resolve(accountId, carrierReference);
    const adapter = config ? this.carriers.get(config.carrier_id) : undefined;
    if (!config || !adapter?.capabilities.tracking) {
      // Removed, or a carrier that does not track: its shipments' tracking ends as they fall due.
      const ended = await this.claim(key, configuration, this.batchSize, round);
      await this.tracking.stop(ended);
      round.done += ended.length;
      return;
    }
    let rows: PollClaim[];
    const capacity = sizesPolls(adapter) ? adapter.pollCapacity(config.settings, this.roundMs) : null;
    if (capacity) {
      const room = Math.max(0, Math.min(capacity.numbers, this.maxPerCredential) - (round.allotted.get(capacity.credential) ?? 0));
      rows = (await this.quotaShort(accountId, carrierReference, capacity, round))
        ? await this.withinQuota(adapter, key, configuration, room, capacity, round)
        : await this.claim(key, configuration, room, round);
      round.allotted.set(capacity.credential, (round.allotted.get(capacity.credential) ?? 0) + rows.length);
    } else {
      rows = await this.claim(key, configuration, round.share, round);
    }
    const untracked = rows.filter((row) => !row.tracking_number);
    if (untracked.length > 0) {
      await this.tracking.stop(untracked);
      round.done += untracked.length;
      rows = rows.filter((row) => row.tracking_number);
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
      calls.push(() => this.pollBatch(adapter, config.settings, batch, intervals, key, round, configuration));
    }
  }

  /**
   * Up to `wanted` due polls of a configuration this poller holds, oldest due first; one whose claim comes back
   * full is behind (claimed for again next round), one whose claim does not has caught up.
   */
  private async claim(key: string, configuration: Configuration, wanted: number, round: Round): Promise<PollClaim[]> {
    const { accountId, carrierReference } = configuration;
    const rows = await this.repos.shipments.duePollsOf(accountId, carrierReference, round.nowText, wanted);
    if (rows.length >= wanted) this.backlog.set(key, configuration);
    else this.backlog.delete(key);
    return rows;
  }

  /**
   * Whether a configuration's credential has fewer numbers left today than it has due polls. Only credentials
   * close to their quota are checked (QUOTA_CHECK_BELOW).
   */
  private async quotaShort(accountId: number, reference: string, capacity: PollCapacity, round: Round): Promise<boolean> {
    const today = capacity.numbersToday;
    if (today === null || today >= QUOTA_CHECK_BELOW) return false;
    return (await this.repos.shipments.countDuePollsOf(accountId, reference, round.nowText, today + 1)) > today;
  }

  /**
   * The shipments a credential whose day's calls cannot cover its due set polls in this round: the most
   * urgent of all its due shipments, as many as the round serves; when the round spends the last calls of the
   * day, every other due shipment waits for the quota's reset.
   */
  private async withinQuota(
    adapter: CarrierAdapter,
    key: string,
    configuration: Configuration,
    room: number,
    capacity: PollCapacity,
    round: Round,
  ): Promise<PollClaim[]> {
    const today = capacity.numbersToday ?? 0;
    const { accountId, carrierReference } = configuration;
    const take = Math.min(room, today);
    const chosen =
      take > 0 ? await this.repos.shipments.rankedDuePollsOf(accountId, carrierReference, round.nowText, take, pollRanking(round.now)) : [];
    let deferred = 0;
    if (today <= room) {
      const reset = adapter.limits ? nextReset(round.now.getTime(), adapter.limits.quota_reset_utc) : round.now.getTime() + 86_400_000;
      deferred = await this.tracking.deferAllDue(
        accountId,
        carrierReference,
        new Date(reset),
        chosen.map((row) => row.id),
      );
      this.backlog.delete(key);
      round.done += deferred;
    } else {
      this.backlog.set(key, configuration);
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
    key: string,
    round: Round,
    configuration: Configuration,
  ): Promise<void> {
    let results: TrackResult[];
    // Carrier calls end before the configuration's lease does, so no other worker polls these shipments meanwhile.
    const signal = AbortSignal.timeout(Math.max(1000, Math.floor(this.leaseMs * 0.75)));
    if (registersNumbers(adapter)) await this.resumeStopped(adapter, settings, rows, configuration, signal);
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
      this.log.error({ err: error, carrier: adapter.record.id }, 'applying tracking results failed');
      // Polled again when the lease would have ended, not at the next round; if even that cannot be written,
      // the configuration is kept until its lease ends.
      await this.tracking.holdBack(rows, new Date(round.leaseUntil)).catch(() => this.kept.set(key, Date.parse(round.leaseUntil)));
    }
  }

  /**
   * Has an aggregator track again the numbers of a batch it was told to stop following (`tracking_stops`, written
   * by a `carrier.stop` that succeeded), before they are asked for: a stopped number answers what the aggregator
   * had when it stopped. One read on that table's key per batch; the stops go once the aggregator said yes. A
   * failure leaves them to the next poll, and the batch is tracked all the same.
   */
  private async resumeStopped(
    adapter: CarrierAdapter & TrackingRegistrar,
    settings: Record<string, unknown>,
    rows: PollClaim[],
    { accountId, carrierReference }: Configuration,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      const numbers = new Map<string, string>();
      for (const row of rows) numbers.set(normalizeTrackingNumber(row.tracking_number as string), row.tracking_number as string);
      const stops = await this.repos.trackingStops.stoppedAmong(accountId, carrierReference, [...numbers.keys()]);
      if (stops.length === 0) return;
      const resumed = await adapter.resumeTracking(
        stops.map((stop) => numbers.get(stop.tracking_key) as string),
        settings,
        { now: this.clock.now(), signal },
      );
      if (resumed.status === 'ok') {
        await this.repos.trackingStops.remove(accountId, carrierReference, stops);
        return;
      }
      this.log.warn({ carrier: adapter.record.id, numbers: stops.length, error: resumed.message }, 'tracking stopped numbers again failed');
    } catch (error) {
      this.log.error({ err: error, carrier: adapter.record.id }, 'tracking stopped numbers again failed');
    }
  }
}

/** What the configurations of one round share. */
interface Round {
  now: Date;
  nowText: string;
  leaseUntil: string;
  /** What a configuration of a carrier without limits claims at most in this round. */
  share: number;
  /** Numbers given to each credential in this round (configurations may share one). */
  allotted: Map<string, number>;
  /** Carrier batches by credential (or carrier, for carriers without limits), run with bounded concurrency each. */
  lanes: Map<string, Array<() => Promise<void>>>;
  /** The configurations whose lease this round took. */
  held: Map<string, Configuration>;
  done: number;
}

function groupKey(accountId: number, carrierReference: string): string {
  return `${accountId}\u0000${carrierReference}`;
}

/** Runs tasks with at most `limit` in flight. */
async function runLimited(tasks: Array<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, tasks.length) }, async () => {
    while (next < tasks.length) await tasks[next++]();
  });
  await Promise.all(lanes);
}

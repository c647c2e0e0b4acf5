import type { Logger } from 'pino';
import type { CarrierAdapter, TrackResult } from '../carriers/carrier.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import { nextReset } from '../carriers/sdk/limits.js';
import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import type { ShipmentRow } from '../db/repositories/shipments.repository.js';
import type { CarrierConfigsService } from '../domain/carrier-configs.service.js';
import { choosePolls } from '../domain/shipments/poll-priority.js';
import type { TrackingService } from '../domain/shipments/tracking.service.js';
import type { PeriodicTask } from './worker.js';

export interface PollerOptions {
  /** Shipments claimed per round. */
  batchSize?: number;
  /** Tracking numbers per carrier call. */
  carrierBatchSize?: number;
  /** Carrier calls in flight at once, per carrier. */
  perCarrierConcurrency?: number;
  /** How long a carrier call may wait for its credential's limits before its numbers are held back (TrackOptions.waitMs). */
  limitWaitMs?: number;
  leaseMs?: number;
}

/**
 * Polls carriers for shipments whose next poll is due. Claims are leased in the database, so any number of
 * workers share the due set; each carrier gets batched calls with bounded concurrency.
 */
export class TrackingPoller implements PeriodicTask {
  readonly name = 'tracking-poller';
  private readonly batchSize: number;
  private readonly carrierBatchSize: number;
  private readonly perCarrierConcurrency: number;
  private readonly leaseMs: number;
  private readonly waitMs: number;

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
    this.carrierBatchSize = options.carrierBatchSize ?? 50;
    this.perCarrierConcurrency = options.perCarrierConcurrency ?? 4;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.waitMs = options.limitWaitMs ?? 5_000;
  }

  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.repos.shipments.claimDuePolls(
      now.toISOString(),
      new Date(now.getTime() + this.leaseMs).toISOString(),
      this.batchSize,
    );
    if (claimed.length === 0) return 0;
    const groups = new Map<string, ShipmentRow[]>();
    for (const row of claimed) {
      const key = `${row.account_id}\u0000${row.carrier_reference}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const byCarrier = new Map<string, Array<() => Promise<void>>>();
    for (const rows of groups.values()) {
      const first = rows[0];
      const config = first.carrier_reference ? await this.carrierConfigs.resolve(first.account_id, first.carrier_reference) : undefined;
      const adapter = config ? this.carriers.get(config.carrier_id) : undefined;
      if (!config || !adapter?.capabilities.tracking || !first.tracking_number) {
        await Promise.all(rows.map((row) => this.tracking.stop(row)));
        continue;
      }
      const interval = Number(config.settings.poll_interval_seconds);
      const maxIntervalMs = Number.isFinite(interval) && interval >= 10 ? interval * 1000 : undefined;
      const minIntervalMs = adapter.limits ? adapter.limits.min_poll_interval_seconds * 1000 : undefined;
      const due = await this.withinQuota(adapter, config.settings, rows, now);
      for (let i = 0; i < due.length; i += this.carrierBatchSize) {
        const batch = due.slice(i, i + this.carrierBatchSize);
        const calls = byCarrier.get(adapter.record.id) ?? [];
        calls.push(() => this.pollBatch(adapter, config.settings, batch, { maxIntervalMs, minIntervalMs }));
        byCarrier.set(adapter.record.id, calls);
      }
    }
    await Promise.all([...byCarrier.values()].map((calls) => runLimited(calls, this.perCarrierConcurrency)));
    return claimed.length;
  }

  /**
   * The shipments one credential can be polled for today: when its daily calls cannot cover every due
   * shipment, the most urgent are polled and the rest wait for the quota's reset (src/domain/shipments/poll-priority.ts).
   */
  private async withinQuota(
    adapter: CarrierAdapter,
    settings: Record<string, unknown>,
    rows: ShipmentRow[],
    now: Date,
  ): Promise<ShipmentRow[]> {
    const callsLeft = adapter.callsLeftToday?.(settings) ?? null;
    if (callsLeft === null || !adapter.limits) return rows;
    const { poll, defer } = choosePolls(rows, callsLeft * adapter.limits.numbers_per_call, now);
    if (defer.length > 0) {
      await this.tracking.defer(defer, new Date(nextReset(now.getTime(), adapter.limits.quota_reset_utc)));
      this.log.info(
        { carrier: adapter.record.id, polled: poll.length, deferred: defer.length },
        'daily carrier quota: polls deferred to its reset',
      );
    }
    return poll;
  }

  private async pollBatch(
    adapter: CarrierAdapter,
    settings: Record<string, unknown>,
    rows: ShipmentRow[],
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

/** Runs tasks with at most `limit` in flight. */
async function runLimited(tasks: Array<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, tasks.length) }, async () => {
    while (next < tasks.length) await tasks[next++]();
  });
  await Promise.all(lanes);
}

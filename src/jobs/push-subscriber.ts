import type { Logger } from 'pino';
import type { CarrierError } from '../carriers/carrier.js';
import { type PushHook, type SubscribingPush, type SubscriptionResult, subscribesToPush } from '../carriers/push.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import type { ShipmentRow } from '../db/repositories/shipments.repository.js';
import type { CarrierConfigsService } from '../domain/carrier-configs.service.js';
import type { PeriodicTask } from './worker.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Gives a configuration's push URL and hook token, for carriers told where to push in each subscription. */
export interface HookSource {
  hookFor(accountId: number, carrierReference: string, carrierId: string): Promise<PushHook | null>;
}

export interface PushSubscriberOptions {
  /** Shipments claimed per round. */
  batchSize?: number;
  leaseMs?: number;
  /** How often the due set is looked at when the last round found nothing more to do. */
  intervalMs?: number;
  /** A subscription is renewed when it ends within this. */
  renewBeforeMs?: number;
}

/**
 * Keeps push subscriptions for carriers that push only the numbers subscribed to, for a while (UPS Track
 * Alert: 14 days). Tracked shipments of such carriers whose subscription is missing or ends within two days
 * are claimed (a lease in the database, so several workers share the work), grouped per configuration and
 * subscribed in the carrier's batches, through the adapter's transport, token cache and limits.
 *
 * A number the carrier refuses, or a configuration that cannot subscribe, is asked again after a day; a
 * carrier fault after an hour (or its Retry-After). Polls go on meanwhile: they are how such a shipment is
 * tracked until a subscription runs, and the safety net after.
 */
export class PushSubscriber implements PeriodicTask {
  readonly name = 'push-subscriber';
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly intervalMs: number;
  private readonly renewBeforeMs: number;
  private nextRunAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly carrierConfigs: CarrierConfigsService,
    private readonly clock: Clock,
    private readonly log: Logger,
    options: PushSubscriberOptions = {},
    private readonly hooks?: HookSource,
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.leaseMs = options.leaseMs ?? 2 * MINUTE_MS;
    this.intervalMs = options.intervalMs ?? MINUTE_MS;
    this.renewBeforeMs = options.renewBeforeMs ?? 2 * DAY_MS;
  }

  async runOnce(): Promise<number> {
    const now = this.clock.now();
    if (now.getTime() < this.nextRunAt) return 0;
    const carrierIds = this.carriers
      .all()
      .filter((adapter) => adapter.capabilities.push && subscribesToPush(adapter))
      .map((adapter) => adapter.record.id);
    const claimed = await this.repos.shipments.claimDueSubscriptions(carrierIds, {
      now: now.toISOString(),
      renewBefore: new Date(now.getTime() + this.renewBeforeMs).toISOString(),
      leaseUntil: new Date(now.getTime() + this.leaseMs).toISOString(),
      limit: this.batchSize,
    });
    // A full batch may leave more due: the next round looks again at once.
    this.nextRunAt = claimed.length >= this.batchSize ? now.getTime() : now.getTime() + this.intervalMs;
    if (claimed.length === 0) return 0;
    const groups = new Map<string, ShipmentRow[]>();
    for (const row of claimed) {
      const key = `${row.account_id}\u0000${row.carrier_reference}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    for (const rows of groups.values()) {
      try {
        await this.subscribeGroup(rows, now);
      } catch (error) {
        // Left as claimed: the lease runs out and they are tried again.
        this.log.error({ err: error }, 'push subscription failed');
      }
    }
    return claimed.length;
  }

  private async subscribeGroup(rows: ShipmentRow[], now: Date): Promise<void> {
    const first = rows[0];
    const config = first.carrier_reference ? await this.carrierConfigs.resolve(first.account_id, first.carrier_reference) : undefined;
    const adapter = config ? this.carriers.get(config.carrier_id) : undefined;
    if (!config || !adapter?.capabilities.push || !subscribesToPush(adapter)) {
      await this.retryAt(rows, now.getTime() + DAY_MS);
      return;
    }
    const byNumber = new Map<string, ShipmentRow[]>();
    for (const row of rows) {
      const number = row.tracking_number as string;
      byNumber.set(number, [...(byNumber.get(number) ?? []), row]);
    }
    // The hook (push URL and token) is handed to every adapter; those told by the merchant elsewhere ignore it.
    const hook = (await this.hooks?.hookFor(first.account_id, config.carrier_reference, config.carrier_id)) ?? undefined;
    const numbers = [...byNumber.keys()];
    const size = Math.max(1, adapter.subscription.numbers_per_call);
    for (let i = 0; i < numbers.length; i += size) {
      const batch = numbers.slice(i, i + size);
      const outcome = await this.call(adapter, batch, config.settings, now, hook);
      const rowsOf = (list: readonly string[]) => list.flatMap((n) => byNumber.get(n) ?? []);
      if ('status' in outcome) {
        const waitMs = outcome.throttled
          ? Math.max(60, outcome.retry_after_seconds ?? 60) * 1000
          : outcome.retryable
            ? Math.max(60 * MINUTE_MS, (outcome.retry_after_seconds ?? 0) * 1000)
            : DAY_MS;
        this.log.warn({ carrier: adapter.record.id, numbers: batch.length, message: outcome.message }, 'push subscription not made');
        await this.retryAt(rowsOf(batch), now.getTime() + waitMs);
        continue;
      }
      await this.repos.shipments.setPushSubscription(
        rowsOf(outcome.accepted).map((r) => r.id),
        { push_subscribed_until: outcome.until.toISOString(), push_retry_at: null },
      );
      if (outcome.refused.length > 0) {
        this.log.info({ carrier: adapter.record.id, refused: outcome.refused.length }, 'carrier refused push subscriptions');
        await this.retryAt(rowsOf(outcome.refused.map((r) => r.tracking_number)), now.getTime() + DAY_MS);
      }
    }
  }

  private async call(
    adapter: SubscribingPush,
    numbers: string[],
    settings: Record<string, unknown>,
    now: Date,
    hook: PushHook | undefined,
  ): Promise<SubscriptionResult | CarrierError> {
    // Carrier calls end before the claim's lease does, so no other worker subscribes these meanwhile.
    const signal = AbortSignal.timeout(Math.max(1000, Math.floor(this.leaseMs * 0.75)));
    try {
      return await adapter.subscribe(numbers, settings, { now, signal, hook });
    } catch (error) {
      const message = error instanceof Error ? error.message.slice(0, 200) : 'adapter failure';
      return { status: 'error', retryable: true, message };
    }
  }

  private async retryAt(rows: readonly ShipmentRow[], at: number): Promise<void> {
    await this.repos.shipments.setPushSubscription(
      rows.map((r) => r.id),
      { push_retry_at: new Date(at).toISOString() },
    );
  }
}

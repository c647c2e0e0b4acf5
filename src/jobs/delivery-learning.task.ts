import type { Repositories } from '../db/repositories/index.js';
import type { DeliveryLearner } from '../domain/delivery/delivery-learner.js';
import type { PeriodicTask } from './worker.js';

export interface DeliveryLearningOptions {
  /** How often the queue is looked at when the last look emptied it. */
  intervalMs?: number;
  /** Shipments counted per transaction. */
  batchSize?: number;
}

/**
 * Counts the shipments tracking changes queued for delivery intelligence (`delivery_learning`), a batch per
 * transaction: every `intervalMs` (5 s), and again at once while batches come back full. With the transit cells
 * read again at most every 50 s (TransitCells), a first attempt counts in every process's predictions within a
 * minute. Several workers share the queue: each claims rows the others do not hold (PostgreSQL).
 */
export class DeliveryLearningTask implements PeriodicTask {
  readonly name = 'delivery-learning';
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private nextRunAt = 0;

  constructor(
    private readonly repos: Repositories,
    private readonly learner: DeliveryLearner,
    options: DeliveryLearningOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 5_000;
    this.batchSize = options.batchSize ?? 500;
  }

  /** The last batch came back full: more may be queued. */
  behind(): boolean {
    return this.nextRunAt === 0;
  }

  async runOnce(): Promise<number> {
    const started = performance.now();
    if (started < this.nextRunAt) return 0;
    const counted = await this.batch();
    this.nextRunAt = counted >= this.batchSize ? 0 : started + this.intervalMs;
    return counted;
  }

  /** Counts everything queued until the queue is empty (tests, tools); returns how many shipments were taken. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const counted = await this.batch();
      total += counted;
      if (counted < this.batchSize) return total;
    }
  }

  private batch(): Promise<number> {
    return this.repos.transaction(async (trx) => {
      const ids = await trx.deliveryLearning.claim(this.batchSize);
      await this.learner.learn(trx, ids);
      return ids.length;
    });
  }
}

import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { JOB_KINDS } from '../../src/db/repositories/jobs.repository.js';
import type { AnyJobHandler } from '../../src/jobs/job-handler.js';
import { TrackingPoller } from '../../src/jobs/tracking-poller.js';
import { type PeriodicTask, Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A periodic task that finds work in every round, behind or not (or without saying). */
function busyTask(behind: boolean | undefined) {
  const task: PeriodicTask & { rounds: number } = {
    name: 'busy',
    rounds: 0,
    async runOnce() {
      task.rounds++;
      // A round waits for I/O, as a real one does: the loop never runs on microtasks alone.
      await new Promise((resolve) => setImmediate(resolve));
      return 1;
    },
  };
  if (behind !== undefined) task.behind = () => behind;
  return task;
}

describe('rounds of the periodic tasks', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp({ clock: new ManualClock(new Date('2026-11-23T08:00:00Z')) });
    acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
  });
  afterAll(() => t.close());

  // Every kind needs a handler; none is enqueued here.
  const handlers = JOB_KINDS.map(
    (kind) => ({ kind, maxAttempts: 1, backoffMs: () => 1000, run: async () => ({ result: 'done' }) }) as AnyJobHandler,
  );

  async function roundsIn(task: PeriodicTask & { rounds: number }, ms: number): Promise<number> {
    const worker = new Worker(t.context.repos, t.context.clock, log, handlers, [task], { idleDelayMs: 20, roundGapMs: 300 });
    worker.start();
    await sleep(ms);
    await worker.stop();
    return task.rounds;
  }

  it('wait the round gap after a round that found work and left none behind', async () => {
    // At 0, 300, 600 and 900 ms; timers never fire early, so a slower machine only runs fewer.
    const rounds = await roundsIn(busyTask(false), 1_000);
    expect(rounds).toBeGreaterThanOrEqual(1);
    expect(rounds).toBeLessThanOrEqual(4);
  });

  it('run again at once while a task is behind, or does not say whether it is', async () => {
    expect(await roundsIn(busyTask(true), 300)).toBeGreaterThan(20);
    expect(await roundsIn(busyTask(undefined), 300)).toBeGreaterThan(20);
  });

  it("the poller is behind while a configuration's claim comes back full", async () => {
    const { repos, carriers, carrierConfigs, tracking, clock } = t.context;
    const poller = new TrackingPoller(repos, carriers, carrierConfigs, tracking, clock, log, { batchSize: 2 });
    for (let i = 0; i < 5; i++) {
      const res = await t.as(acct)('POST', '/v5/shipment/', {
        shipment_id: `gap-${i}`,
        tracking_number: `WB2${String(300_000 + i)}`,
        carrier_reference: 'sb',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await poller.runOnce()).toBe(2);
    expect(poller.behind()).toBe(true);
    expect(await poller.runOnce()).toBe(2);
    expect(poller.behind()).toBe(true);
    expect(await poller.runOnce()).toBe(1);
    expect(poller.behind()).toBe(false);
  });
});

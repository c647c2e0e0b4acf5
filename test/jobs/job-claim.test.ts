import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** The claim every worker runs: which jobs it takes, in which order, and how many. */
describe('claiming jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 12, minute)).toISOString();
  const add = async (
    kind: 'label.render' | 'webhook.deliver',
    status: 'queued' | 'running' | 'done',
    runAt: string,
    lockedUntil: string | null = null,
  ) => {
    const row = await t.context.database.db
      .insertInto('jobs')
      .values({
        kind,
        payload: '{}',
        status,
        run_at: runAt,
        max_attempts: 5,
        locked_by: lockedUntil ? 'another-worker' : null,
        locked_until: lockedUntil,
        created_at: runAt,
        updated_at: runAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };
  /** Which jobs a claim took (the order of the returned rows is not the claim's order). */
  const ids = (jobs: Array<{ id: number | bigint | string }>) => jobs.map((job) => Number(job.id)).sort((a, b) => a - b);
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);

  it('takes due queued jobs and expired leases, oldest first, up to the limit, of the kinds asked for only', async () => {
    const repo = t.context.repos.jobs;
    const queuedLate = await add('webhook.deliver', 'queued', at(20));
    const queuedEarly = await add('webhook.deliver', 'queued', at(5));
    const leaseExpired = await add('label.render', 'running', at(10), at(29));
    await add('label.render', 'running', at(1), at(45)); // its worker's lease still holds
    await add('webhook.deliver', 'queued', at(40)); // not due yet
    await add('webhook.deliver', 'done', at(2));
    const otherKind = await add('label.render', 'queued', at(3));
    const sameTimeA = await add('webhook.deliver', 'queued', at(25));
    const sameTimeB = await add('webhook.deliver', 'queued', at(25));

    const now = at(30);
    const first = await repo.claim('w1', now, at(31), 3, ['webhook.deliver', 'label.render']);
    expect(ids(first)).toEqual(sorted([otherKind, queuedEarly, leaseExpired]));
    expect(first.every((job) => job.status === 'running' && job.locked_by === 'w1' && job.locked_until === at(31))).toBe(true);

    // A worker that does not handle label renders never takes one.
    const second = await repo.claim('w2', now, at(31), 10, ['webhook.deliver']);
    expect(ids(second)).toEqual(sorted([queuedLate, sameTimeA, sameTimeB]));
    expect(await repo.claim('w3', now, at(31), 10, ['webhook.deliver', 'label.render'])).toEqual([]);

    // Once w1's lease has run out, its jobs are taken over, with their attempt counted again.
    const later = await repo.claim('w4', at(32), at(33), 2, ['webhook.deliver', 'label.render']);
    expect(ids(later)).toEqual(sorted([otherKind, queuedEarly]));
    expect(later.map((job) => Number(job.attempts))).toEqual([2, 2]);
  });
});

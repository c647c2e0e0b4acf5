import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Repositories } from '../../src/db/repositories/index.js';
import { GroupedWrites } from '../../src/jobs/grouped-writes.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('grouped writes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const job = (repos: Repositories, key: string) =>
    repos.jobs.insert({
      kind: 'label.render',
      payload: '{}',
      status: 'done',
      run_at: '2026-11-26T00:00:00.000Z',
      max_attempts: 1,
      dedupe_key: key,
      created_at: '2026-11-26T00:00:00.000Z',
      updated_at: '2026-11-26T00:00:00.000Z',
    });
  const keys = async (prefix: string) =>
    (await t.context.database.db.selectFrom('jobs').select('dedupe_key').where('dedupe_key', 'like', `${prefix}%`).execute())
      .map((row) => row.dedupe_key)
      .sort();

  it('commits the writes queued in one turn in one transaction, each resolved once committed', async () => {
    const writes = new GroupedWrites(t.context.repos);
    const transactions = new Set<Repositories>();
    const write = (key: string) => (repos: Repositories) => {
      transactions.add(repos);
      return job(repos, key);
    };
    await Promise.all(['g-1', 'g-2', 'g-3'].map((key) => writes.commit(write(key))));
    expect(transactions.size).toBe(1);
    expect(await keys('g-')).toEqual(['g-1', 'g-2', 'g-3']);
  });

  it('splits a large group, and a failing write fails only its own commit', async () => {
    const writes = new GroupedWrites(t.context.repos, 2);
    const outcomes = await Promise.allSettled([
      writes.commit((repos) => job(repos, 'h-1')),
      writes.commit(async (repos) => {
        await job(repos, 'h-2');
        throw new Error('this write fails');
      }),
      writes.commit((repos) => job(repos, 'h-3')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // h-2 was rolled back with its transaction; h-1 was written again alone, once.
    expect(await keys('h-')).toEqual(['h-1', 'h-3']);
  });
});

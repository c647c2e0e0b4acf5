import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from '../returns/fixtures.js';

describe('housekeeping', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['returns'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
  });
  afterAll(() => t.close());

  const count = async (table: 'jobs' | 'request_replays') => (await t.context.database.db.selectFrom(table).select('id').execute()).length;

  it('removes expired replay records and week-old finished jobs, and keeps what is still live', async () => {
    await t.as(acct)('POST', '/v5/return/', standardReturn('HK-1'));
    await t.app.inject({
      method: 'POST',
      url: '/v5/shipment/',
      payload: { shipment_id: 'HK-2' },
      headers: { authorization: `Bearer ${acct.token}`, 'idempotency-key': 'hk-key' },
    });
    await t.context.database.db
      .insertInto('jobs')
      .values({
        kind: 'label.render',
        payload: '{}',
        status: 'done',
        run_at: '2026-01-01T00:00:00.000Z',
        max_attempts: 1,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: t.clock.now().toISOString(),
      })
      .execute();
    expect(await count('request_replays')).toBe(2);
    expect(await count('jobs')).toBe(1);

    await t.context.worker.runOnce();
    expect(await count('request_replays')).toBe(2);
    expect(await count('jobs')).toBe(1);

    // After 31 minutes the return's de-duplication record has expired; the Idempotency-Key record has not.
    t.clock.advance(31 * 60_000 + 60 * 60_000);
    await t.context.worker.runOnce();
    expect(await count('request_replays')).toBe(1);
    expect(await count('jobs')).toBe(1);

    t.clock.advance(8 * 24 * 60 * 60_000);
    await t.context.worker.runOnce();
    expect(await count('request_replays')).toBe(0);
    expect(await count('jobs')).toBe(0);
  });
});

import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestAccount, type TestApp, usingPostgres } from '../helpers/app.js';
import { settled } from '../helpers/settled.js';

const route = '/v5/carrier-configs/';

/** fs.fdatasync answering through `answer` (its callback) instead of syncing. */
const mockSync = (answer: (done: (error: Error | null) => void) => void) =>
  vi.spyOn(fs, 'fdatasync').mockImplementation(((_fd: number, done: (error: Error | null) => void) => {
    answer(done);
  }) as unknown as typeof fs.fdatasync);

const references = (body: string) => (JSON.parse(body).data as Array<{ carrier_reference: string }>).map((c) => c.carrier_reference);

// Prepared reads on the embedded database run their statement directly when nothing is in their way; these
// are the cases where something is, and the answer must wait or fail as the query layer's path would.
describe.skipIf(usingPostgres)('SQLite reads without the query layer', () => {
  let t: TestApp;
  let account: TestAccount;
  beforeEach(async () => {
    // Every request reads the configurations from the database (none is answered from the list kept in memory).
    t = await createTestApp({ env: { WAYBILL_CARRIER_CONFIG_CACHE_SECONDS: '0' } });
    account = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
    // The token and credential caches are warm: the configurations are the request's only read.
    expect((await t.as(account)('GET', route)).statusCode).toBe(200);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.close();
  });

  it('answers GET /v5/carrier-configs/ by running its cached statement, without the query layer', async () => {
    const executed = vi.spyOn(t.context.database.db.getExecutor(), 'executeQuery');
    const res = await t.as(account)('GET', route);
    expect(res.statusCode).toBe(200);
    expect(references(res.body)).toEqual(['sandbox']);
    expect(executed).not.toHaveBeenCalled();
  });

  it('reads beside a transaction that holds the connection: the answer does not wait for it and never shows what it wrote', async () => {
    const { db } = t.context.database;
    const { id } = await db.selectFrom('accounts').select('id').where('account_uuid', '=', account.accountUuid).executeTakeFirstOrThrow();
    let rollBack = () => {};
    const rolledBack = new Promise<void>((resolve) => (rollBack = resolve));
    let inserted = () => {};
    const insertedRow = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db
      .transaction()
      .execute(async (trx) => {
        const at = new Date().toISOString();
        await trx
          .insertInto('carrier_configs')
          .values({
            account_id: id,
            carrier_reference: 'uncommitted',
            carrier_id: 'sandbx',
            booking_outbound: 0,
            booking_return: 0,
            settings_sealed: null,
            push_token_hash: null,
            created_at: at,
            updated_at: at,
          })
          .execute();
        inserted();
        await rolledBack;
        throw new Error('rolled back');
      })
      .catch(() => 'rolled back');
    await insertedRow;
    // Read on the second connection, which sees the last commit: not the row the open transaction wrote.
    const res = await t.as(account)('GET', route);
    expect(res.statusCode).toBe(200);
    expect(references(res.body)).toEqual(['sandbox']);
    rollBack();
    expect(await transaction).toBe('rolled back');
    const after = await t.as(account)('GET', route);
    expect(references(after.body)).toEqual(['sandbox']);
  });

  it('hands back no read while a commit made before it is not on disk', async () => {
    // Syncs wait until released by hand, then run at once.
    const pending: Array<() => void> = [];
    let held = true;
    mockSync((done) => {
      if (held) pending.push(() => done(null));
      else setImmediate(() => done(null));
    });
    const write = t.admin('POST', `/admin/v1/accounts/${account.accountUuid}/carrier-configs/`, {
      carrier_reference: 'second',
      carrier_id: 'sandbx',
    });
    for (let i = 0; i < 50 && pending.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(pending.length).toBe(1);
    // The row is committed (the connection is free) but not on disk yet: the read must wait for the sync.
    // It still runs its statement directly (it does not queue behind the write), and waits for that one sync.
    const executed = vi.spyOn(t.context.database.db.getExecutor(), 'executeQuery');
    const read = t.as(account)('GET', route);
    const reads = () => executed.mock.calls.filter(([query]) => query.query.kind === 'SelectQueryNode').length;
    expect(await settled(read)).toBe(false);
    expect(reads()).toBe(0);
    held = false;
    for (const finish of pending.splice(0)) finish();
    expect((await write).statusCode).toBe(201);
    const res = await read;
    expect(res.statusCode).toBe(200);
    expect(references(res.body)).toEqual(['sandbox', 'second']);
    expect(reads()).toBe(0);
  });

  it('answers no read after a failed sync: what it covered may be lost', async () => {
    mockSync((done) => setImmediate(() => done(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }))));
    const write = await t.admin('POST', `/admin/v1/accounts/${account.accountUuid}/carrier-configs/`, {
      carrier_reference: 'second',
      carrier_id: 'sandbx',
    });
    expect(write.statusCode).toBe(500);
    const res = await t.as(account)('GET', route);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ api_response: '500' });
    expect(res.body).not.toContain('second');
  });
});

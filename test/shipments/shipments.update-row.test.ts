import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

// An update answers the row it wrote without reading it back: the row it builds must be the row stored, and the
// body it writes must be built on the one committed last.
describe('an updated shipment row', () => {
  let t: TestApp;
  let account: TestAccount;
  let accountId: number;
  beforeAll(async () => {
    t = await createTestApp();
    account = await t.account({ carriers: [{ carrier_reference: 'sandbox' }, { carrier_reference: 'sandbox-2', carrier_id: 'sandbx' }] });
    ({ id: accountId } = await t.context.database.db
      .selectFrom('accounts')
      .select('id')
      .where('account_uuid', '=', account.accountUuid)
      .executeTakeFirstOrThrow());
  });
  afterAll(() => t.close());

  const create = async (shipmentId: string) => {
    const res = await t.call(account.token, 'POST', '/v5/shipment/', {
      shipment_id: shipmentId,
      tracking_number: 'SBX0000000001',
      carrier_reference: 'sandbox',
      order_id: `ORD-${shipmentId}`,
      tags: ['a'],
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.shipment_uuid as string;
  };
  const storedRow = (shipmentUuid: string) =>
    t.context.database.db.selectFrom('shipments').selectAll().where('shipment_uuid', '=', shipmentUuid).executeTakeFirstOrThrow();

  const cases: Array<[string, Record<string, unknown>]> = [
    ['a note', { note: 'at the back door' }],
    ['another number and carrier', { tracking_number: 'SBX0000000002', carrier_reference: 'sandbox-2' }],
    ['no number any more', { tracking_number: null }],
    ['another order and its fields', { order_id: 'ORD-OTHER', order_reference: '#2' }],
    ['no order', { order_id: null }],
    ['tags and an address', { tags: ['b', 'c'], recipient_address: { first_name: 'Ada', country_code: 'NL' } }],
  ];

  const tagged = async (tag: string) =>
    (await t.call(account.token, 'GET', '/v5/shipment/list/', undefined, { tag, limit: '100' }))
      .json()
      .data.map((shipment: { shipment_uuid: string }) => shipment.shipment_uuid);
  /**
   * On SQLite, what `act` made the database do: UPDATEs of shipments that set a column one of its indexes holds,
   * and statements that deleted or inserted tags (counted by triggers of this connection alone). Null elsewhere.
   */
  const writesOnSqlite = async (act: () => Promise<void>) => {
    const db = t.context.database.db;
    if (t.context.database.dialect !== 'sqlite') {
      await act();
      return null;
    }
    await sql`create temp table if not exists seen_writes (kind text)`.execute(db);
    await sql`delete from seen_writes`.execute(db);
    await sql`create temp trigger if not exists seen_indexed_set after update of tracking_number, carrier_reference, carrier_id, order_row_id on main.shipments
      begin insert into seen_writes values ('indexed'); end`.execute(db);
    await sql`create temp trigger if not exists seen_tag_insert after insert on main.shipment_tags begin insert into seen_writes values ('tag'); end`.execute(
      db,
    );
    await sql`create temp trigger if not exists seen_tag_delete after delete on main.shipment_tags begin insert into seen_writes values ('tag'); end`.execute(
      db,
    );
    try {
      await act();
      const rows = await sql<{ kind: string }>`select kind from seen_writes`.execute(db);
      return {
        indexedColumnsSet: rows.rows.filter((row) => row.kind === 'indexed').length,
        tagsWritten: rows.rows.filter((row) => row.kind === 'tag').length,
      };
    } finally {
      await sql`drop trigger seen_indexed_set`.execute(db);
      await sql`drop trigger seen_tag_insert`.execute(db);
      await sql`drop trigger seen_tag_delete`.execute(db);
    }
  };

  it.each(cases)('with %s is the row read back, column for column', async (name, fields) => {
    const shipmentUuid = await create(`upd-${name.replaceAll(' ', '-')}`);
    const updated = await t.context.shipments.update({ accountId } as never, { shipment_uuid: shipmentUuid }, fields as never);
    expect(updated.row).toEqual(await storedRow(shipmentUuid));
  });

  it('sent back as stored with a new note, sets no indexed column and writes no tag; the tag filter still finds it', async () => {
    const shipmentUuid = await create('upd-sent-back');
    const details = await t.call(account.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid: shipmentUuid });
    const shown = details.json().data;
    const written = await writesOnSqlite(async () => {
      const res = await t.call(
        account.token,
        'POST',
        '/v5-2-0/shipment/update/',
        {
          tracking_number: shown.tracking_number,
          carrier_reference: shown.carrier_reference,
          order_id: shown.order_id,
          tags: ['a'],
          note: 'sent back',
        },
        { shipment_uuid: shipmentUuid },
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.note).toBe('sent back');
      expect(res.json().data.tags).toEqual(['a']);
    });
    // SQLite rewrites the entries of every index on a column an UPDATE sets, even to its own value.
    if (written) expect(written).toEqual({ indexedColumnsSet: 0, tagsWritten: 0 });
    expect(await tagged('a')).toContain(shipmentUuid);
    expect(
      (await t.call(account.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid: shipmentUuid })).json().data.note,
    ).toBe('sent back');
  });

  it('with other tags, or none, moves the tag filter with them', async () => {
    const shipmentUuid = await create('upd-retagged');
    const update = (tags: string[]) => t.call(account.token, 'POST', '/v5-2-0/shipment/update/', { tags }, { shipment_uuid: shipmentUuid });
    expect((await update(['b', 'a'])).statusCode).toBe(200);
    expect(await tagged('a')).toContain(shipmentUuid);
    expect(await tagged('b')).toContain(shipmentUuid);
    expect((await update(['b'])).statusCode).toBe(200);
    expect(await tagged('a')).not.toContain(shipmentUuid);
    expect(await tagged('b')).toContain(shipmentUuid);
    const written = await writesOnSqlite(async () => expect((await update([])).statusCode).toBe(200));
    if (written) expect(written.tagsWritten).toBe(1);
    expect(await tagged('b')).not.toContain(shipmentUuid);
  });

  it("keeps a change another writer committed while the update waited for the row's lock", async () => {
    const shipmentUuid = await create('upd-concurrent');
    const { id } = await storedRow(shipmentUuid);
    const window = { from: '2026-12-03T09:00:00Z', to: '2026-12-03T17:00:00Z' };
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // Another writer (as the poller does) locks the row, changes its body and holds the lock a while.
    const other = t.context.repos.transaction(async (repos) => {
      const row = await repos.shipments.lock(id);
      const body = JSON.parse(row?.body ?? '{}');
      body.carrier_expected_delivery = window;
      await repos.shipments.write(id, { body: JSON.stringify(body) });
      locked();
      await held;
    });
    await holding;
    const update = t.call(account.token, 'POST', '/v5-2-0/shipment/update/', { note: 'ring twice' }, { shipment_uuid: shipmentUuid });
    // Long enough for the update to have read the row and to wait for the lock (PostgreSQL) or the connection (SQLite).
    await sleep(150);
    release();
    await other;
    const res = await update;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.note).toBe('ring twice');
    const body = JSON.parse((await storedRow(shipmentUuid)).body);
    expect(body.note).toBe('ring twice');
    expect(body.carrier_expected_delivery).toEqual(window);
  });
});

import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { reachablePostgres } from '../reliability/postgres.js';
import { migratedTo, onPostgres, onSqlite, upgradedAccount, versionOf } from './upgraded-database.js';

/**
 * Migration 0026 and its triggers: every shipment has a version (those written before the upgrade too), and every
 * write to what a shipment's rendering is made from (its row, its order, its events, documents and return ticket)
 * changes it in the same transaction; a write rolled back leaves it as it was. Kept renderings rely on it
 * (src/domain/shipments/shipment-json-cache.ts).
 */
const postgres = await reachablePostgres();
const now = '2026-11-29T10:00:00.000Z';

async function shipment(db: Kysely<any>, accountId: number, orderId: number | null, n: number): Promise<number> {
  const row = await db
    .insertInto('shipments')
    .values({
      account_id: accountId,
      shipment_uuid: `00000000-0000-4000-8000-00000000000${n}`,
      shipment_id: `S-${n}`,
      order_row_id: orderId,
      status: 'pending',
      source: 'api',
      tracking_page_reference: `ref-${n}`,
      body: '{}',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function check(db: Kysely<any>): Promise<void> {
  const migrator = await migratedTo(db, '0024_delivery_learning_queue');
  const accountId = await upgradedAccount(db, 'acc-0026', now);
  const order = await db
    .insertInto('orders')
    .values({ account_id: accountId, order_uuid: 'ord-0026', order_id: 'O-1', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const orderId = Number(order.id);
  const old = await shipment(db, accountId, orderId, 1);

  // Up to the release before 0030, which dropped the insert trigger on SQLite (test/db/migration-0030.test.ts):
  // the shipments below are inserted here as rows, not by the repository that writes their versions since.
  const after = await migrator.migrateTo('0029_shipment_tags_without_rowid');
  if (after.error) throw after.error;
  expect(await versionOf(db, old)).toBe(0);

  const sibling = await shipment(db, accountId, orderId, 2);
  const other = await shipment(db, accountId, null, 3);
  expect(await versionOf(db, sibling)).toBe(0);

  // Each write moves the version of the shipment it belongs to, and of no other.
  let last = 0;
  const moved = async (id: number, write: () => Promise<unknown>) => {
    const was = (await versionOf(db, id)) as number;
    const untouched = (await versionOf(db, other)) as number;
    await write();
    const is = (await versionOf(db, id)) as number;
    expect(is).toBeGreaterThan(was);
    if (id !== other) expect(await versionOf(db, other)).toBe(untouched);
    last = is;
  };
  await moved(old, () => db.updateTable('shipments').set({ status: 'active' }).where('id', '=', old).execute());
  await moved(old, () =>
    db
      .insertInto('tracking_events')
      .values({
        shipment_row_id: old,
        dedupe_key: 'e-1',
        origin: 'manual',
        event: 'Scanned',
        time_text: now,
        time_utc: now,
        additional_info: '{}',
        sequence: 0,
        created_at: now,
      })
      .execute(),
  );
  const document = {
    account_id: accountId,
    document_uuid: 'doc-0026',
    shipment_row_id: old,
    document_id: 'label-1',
    name: 'Label',
    type: 'label',
    file_format: 'pdf',
    content_type: 'application/pdf',
    status: 'pending',
    additional_info: '{}',
    created_at: now,
    updated_at: now,
  };
  await moved(old, () => db.insertInto('documents').values(document).execute());
  await moved(old, () => db.updateTable('documents').set({ status: 'ready' }).where('document_uuid', '=', 'doc-0026').execute());
  await moved(old, () => db.deleteFrom('documents').where('document_uuid', '=', 'doc-0026').execute());
  const ticket = {
    account_id: accountId,
    return_uuid: 'ret-0026',
    shipment_row_id: old,
    status: 'pending approval',
    details: '{}',
    requested_at: now,
    created_at: now,
    updated_at: now,
  };
  await moved(old, () => db.insertInto('returns').values(ticket).execute());
  await moved(old, () => db.updateTable('returns').set({ status: 'approved' }).where('return_uuid', '=', 'ret-0026').execute());
  // The order shows in both of its shipments.
  const siblingBefore = (await versionOf(db, sibling)) as number;
  await moved(old, () => db.updateTable('orders').set({ source_name: 'Shop' }).where('id', '=', orderId).execute());
  expect(await versionOf(db, sibling)).toBeGreaterThan(siblingBefore);

  // A write rolled back takes its bump with it.
  await expect(
    db.transaction().execute(async (trx) => {
      await trx.updateTable('shipments').set({ status: 'inactive' }).where('id', '=', old).execute();
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  expect(await versionOf(db, old)).toBe(last);

  // A deleted shipment leaves no version behind.
  await db.deleteFrom('returns').where('shipment_row_id', '=', old).execute();
  await db.deleteFrom('tracking_events').where('shipment_row_id', '=', old).execute();
  await db.deleteFrom('shipments').where('id', '=', old).execute();
  expect(await versionOf(db, old)).toBeUndefined();
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from shipment_versions`.execute(db);
  expect(Number(rows[0].n)).toBe(2);
}

describe('migration 0026: shipment versions kept by triggers', () => {
  it('SQLite', () => onSqlite(check));

  it.skipIf(postgres.url === null)('PostgreSQL', () => onPostgres(postgres.url as string, check));
});

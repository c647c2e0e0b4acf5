import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrdersRepository } from '../../src/db/repositories/orders.repository.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * `OrdersRepository.insertOrGet` on the service's database (SQLite without `returning`, its id and whether it
 * inserted taken from the statement's own result; PostgreSQL with it): a new order_id is inserted and answered
 * with the id it was given, a taken one answers the account's order as stored, by the prepared statement and by the
 * query builder (a value that cannot be bound as it is) alike.
 */
describe('an order inserted unless its order_id is taken', () => {
  let t: TestApp;
  let accountId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const account = await t.account();
    const row = await t.context.database.db
      .selectFrom('accounts')
      .select('id')
      .where('account_uuid', '=', account.accountUuid)
      .executeTakeFirstOrThrow();
    accountId = row.id;
  });
  afterAll(() => t.close());

  const order = (orderId: string, uuid: string, reference?: string) => ({
    account_id: accountId,
    order_uuid: uuid,
    order_id: orderId,
    order_reference: reference,
    source_type: null,
    source_name: null,
    created_at: '2026-12-06T10:00:00.000Z',
    updated_at: '2026-12-06T10:00:00.000Z',
  });

  it.each([
    ['by the prepared statement', 'R-1'],
    ['by the query builder', undefined],
  ])('%s', async (_, reference) => {
    const orders = new OrdersRepository(t.context.database.db, t.context.database.dialect);
    const orderId = `O-${reference ?? 'built'}`;
    const first = await orders.insertOrGet(order(orderId, `uuid-${orderId}-1`, reference));
    expect(first.created).toBe(true);
    expect(await orders.findById(first.order.id)).toMatchObject({ order_id: orderId, order_uuid: `uuid-${orderId}-1` });

    // Another insert in between: a taken order_id must not answer the connection's last row id.
    const other = await orders.insertOrGet(order(`${orderId}-other`, `uuid-${orderId}-other`, reference));
    const again = await orders.insertOrGet(order(orderId, `uuid-${orderId}-2`, reference));
    expect(again.created).toBe(false);
    expect(again.order).toMatchObject({ id: first.order.id, order_uuid: `uuid-${orderId}-1` });
    expect(other.order.id).not.toBe(first.order.id);
  });
});

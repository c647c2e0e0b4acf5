import type { DatabaseConnection } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Repositories } from '../../src/db/repositories/index.js';
import { createTestApp, type TestAccount, type TestApp, usingPostgres } from '../helpers/app.js';

const shipment = (shipmentId: string, orderId: string) => ({
  shipment_id: shipmentId,
  tracking_number: `WB${shipmentId.toUpperCase()}`,
  carrier_reference: 'sandbox',
  order_id: orderId,
  tags: ['direct'],
});

// A transaction's prepared statements run on the connection it holds without the query layer (embedded SQLite);
// each still belongs to the transaction, and nothing runs after it ended.
describe('statements of a transaction without the query layer', () => {
  let t: TestApp;
  let account: TestAccount;
  beforeEach(async () => {
    t = await createTestApp();
    account = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.close();
  });

  it.skipIf(usingPostgres)('a create writes its shipment, order and tags without handing their statements to the query layer', async () => {
    // The connection's own executeQuery is where the query layer hands every statement over.
    const prototype = await t.context.database.db
      .getExecutor()
      .provideConnection(async (connection: DatabaseConnection) => Object.getPrototypeOf(connection) as DatabaseConnection);
    const executed = vi.spyOn(prototype, 'executeQuery');
    const res = await t.as(account)('POST', '/v5/shipment/', shipment('direct-1', 'ORD-direct-1'));
    expect(res.statusCode).toBe(200);
    const statements = executed.mock.calls.map(([query]) => query.sql);
    expect(statements.filter((sql) => /^insert into "(shipments|orders|shipment_tags)"/.test(sql))).toEqual([]);
    executed.mockRestore();

    const { shipment_uuid } = JSON.parse(res.body).data;
    const details = await t.as(account)('GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid });
    expect(details.statusCode).toBe(200);
    expect(JSON.parse(details.body).data).toMatchObject({ shipment_id: 'direct-1', tags: ['direct'] });
    const order = await t.context.database.db.selectFrom('orders').select('order_id').where('order_id', '=', 'ORD-direct-1').execute();
    expect(order).toHaveLength(1);
  });

  it('a refused create leaves nothing of what its transaction wrote before the refusal (the new order)', async () => {
    expect((await t.as(account)('POST', '/v5/shipment/', shipment('direct-2', 'ORD-first'))).statusCode).toBe(200);
    // The order is inserted, then the shipment's insert fails on its taken shipment_id.
    const again = await t.as(account)('POST', '/v5/shipment/', shipment('direct-2', 'ORD-second'));
    expect(again.statusCode).toBe(400);
    expect(again.json().api_response).toBe('4030');
    const orders = await t.context.database.db.selectFrom('orders').select('order_id').where('order_id', 'like', 'ORD-%').execute();
    expect(orders.map((o) => o.order_id)).toEqual(['ORD-first']);
  });

  it('a statement sent on a transaction after it ended is refused, not run outside it', async () => {
    const { id } = await t.context.database.db
      .selectFrom('accounts')
      .select('id')
      .where('account_uuid', '=', account.accountUuid)
      .executeTakeFirstOrThrow();
    let kept: Repositories | null = null;
    const inside = await t.context.repos.transaction(async (repos) => {
      kept = repos;
      return repos.carrierConfigs.carrierOf(id, 'sandbox');
    });
    expect(inside).toEqual({ carrier_id: 'sandbx' });
    const stale = kept as unknown as Repositories;
    await expect(stale.carrierConfigs.carrierOf(id, 'sandbox')).rejects.toThrow(/committed/);
    // Nor inside the transaction that holds the connection now.
    const during = await t.context.repos.transaction(async () =>
      stale.carrierConfigs.carrierOf(id, 'sandbox').then(
        () => 'ran',
        (error: Error) => error.message,
      ),
    );
    expect(during).toMatch(/committed/);
  });
});

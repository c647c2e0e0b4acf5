import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

// A create answers the rows it inserted without reading them back: the rows it builds must be the rows stored.
describe('a created shipment row', () => {
  let t: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    account = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
  });
  afterAll(() => t.close());

  const cases: Array<[string, Record<string, unknown>]> = [
    ['with the fewest fields', { shipment_id: 'row-bare' }],
    [
      'tracked, with an order and tags',
      {
        shipment_id: 'row-full',
        tracking_number: 'SBX0000000001',
        carrier_reference: 'sandbox',
        order_id: 'ORD-ROW-1',
        order_reference: '#1',
        tags: ['a', 'b'],
        recipient_address: { first_name: 'Ada', country_code: 'NL', phone: '+31201234567' },
      },
    ],
    ['with an order of an order_id alone', { shipment_id: 'row-order', order_id: 'ORD-ROW-2' }],
  ];

  it.each(cases)('%s is the row read back, column for column', async (_name, fields) => {
    const { db } = t.context.database;
    const { id: accountId } = await db
      .selectFrom('accounts')
      .select('id')
      .where('account_uuid', '=', account.accountUuid)
      .executeTakeFirstOrThrow();
    const created = await t.context.repos.transaction((repos) =>
      t.context.shipments.createIn(repos, { accountId } as never, fields as never),
    );
    const stored = await db.selectFrom('shipments').selectAll().where('id', '=', created.shipment.id).executeTakeFirstOrThrow();
    expect(created.shipment).toEqual(stored);
    if (created.order) {
      const order = await db.selectFrom('orders').selectAll().where('id', '=', created.order.id).executeTakeFirstOrThrow();
      expect(created.order).toEqual(order);
    }
  });
});

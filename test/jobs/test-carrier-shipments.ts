import { expect } from 'vitest';
import type { TestAccount, TestApp } from '../helpers/app.js';

/**
 * A configuration of the test carrier (`tstcar`, written straight into the table: its settings are not the
 * catalogue's) for a new account, and ten shipments on it made through the API. Returns the account and the
 * shipments' row ids, in order.
 */
export async function testCarrierShipments(
  t: TestApp,
  options: { reference: string; clientId: string; shipmentPrefix: string; numberPrefix: string },
): Promise<{ account: TestAccount; ids: number[] }> {
  const account = await t.account();
  const accountId = (await t.context.accounts.require(account.accountUuid)).id;
  await t.context.database.db
    .insertInto('carrier_configs')
    .values({
      account_id: accountId,
      carrier_reference: options.reference,
      carrier_id: 'tstcar',
      booking_outbound: 0,
      booking_return: 0,
      settings_sealed: t.context.secrets.encrypt(JSON.stringify({ client_id: options.clientId, client_secret: 's3cret-value' })),
      push_token_hash: null,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    })
    .execute();
  const ids: number[] = [];
  for (let i = 0; i < 10; i++) {
    const shipmentId = `${options.shipmentPrefix}-${i}`;
    const res = await t.as(account)('POST', '/v5/shipment/', {
      shipment_id: shipmentId,
      tracking_number: `${options.numberPrefix}${i}`,
      carrier_reference: options.reference,
    });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await t.context.database.db
      .selectFrom('shipments')
      .select('id')
      .where('shipment_id', '=', shipmentId)
      .executeTakeFirstOrThrow();
    ids.push(stored.id);
  }
  return { account, ids };
}

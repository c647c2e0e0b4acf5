import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp, usingPostgres } from '../helpers/app.js';

/**
 * On the embedded database the shipments repository writes a new shipment's version row itself, so that a release
 * can drop the insert trigger of 0026_shipment_versions (which makes SQLite journal every page a create's insert
 * changes) while processes of this release still run. Here the trigger is dropped as that release's migration
 * would: shipments created one by one and by import must still be found, listed and followed through their
 * changes. Before that, with the trigger in place, a create must not fail on the row the trigger already wrote.
 */
describe.skipIf(usingPostgres)('a new shipment’s version row on the embedded database', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
  });
  afterAll(() => t.close());

  const versionsOf = async (shipmentIds: string[]) => {
    const { rows } = await sql<{ shipment_id: string; version: number }>`
      select s.shipment_id, v.version from shipments s join shipment_versions v on v.shipment_row_id = s.id
      where s.shipment_id in (${sql.join(shipmentIds)}) order by s.shipment_id`.execute(t.context.database.db);
    return rows.map((row) => [row.shipment_id, Number(row.version)]);
  };
  const details = (shipmentId: string) => t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId });

  it('is written once beside the trigger, and without it', async () => {
    const first = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'ver-with-trigger' });
    expect(first.statusCode, first.body).toBe(200);
    expect(await versionsOf(['ver-with-trigger'])).toEqual([['ver-with-trigger', 0]]);

    await sql`drop trigger shipment_versions_shipment_insert`.execute(t.context.database.db);

    const created = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'ver-1', note: 'first' });
    expect(created.statusCode, created.body).toBe(200);
    const imported = await t.app.inject({
      method: 'POST',
      url: '/v5/shipment/import/',
      headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'text/csv' },
      payload: 'shipment_id,note\r\nver-2,a\r\nver-3,b\r\n',
    });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().data).toMatchObject({ created: 2, errors: [] });
    expect(await versionsOf(['ver-1', 'ver-2', 'ver-3'])).toEqual([
      ['ver-1', 0],
      ['ver-2', 0],
      ['ver-3', 0],
    ]);

    for (const id of ['ver-1', 'ver-2', 'ver-3']) expect((await details(id)).statusCode).toBe(200);
    const list = await t.call(acct.token, 'GET', '/v5/shipment/list/', undefined, { limit: '10' });
    expect(list.json().data.map((s: { shipment_id: string }) => s.shipment_id)).toEqual(
      expect.arrayContaining(['ver-1', 'ver-2', 'ver-3', 'ver-with-trigger']),
    );

    // A change bumps the row the repository wrote, and the kept rendering of the details above is not answered again.
    const updated = await t.call(acct.token, 'POST', '/v5/shipment/update/', { note: 'second' }, { shipment_id: 'ver-1' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(await versionsOf(['ver-1'])).toEqual([['ver-1', 1]]);
    expect((await details('ver-1')).json().data.note).toBe('second');
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShipmentsRepository } from '../../src/db/repositories/shipments.repository.js';
import { createTestApp, type TestAccount, type TestApp, usingPostgres } from '../helpers/app.js';
import { bareShipment } from './upgraded-database.js';

/**
 * On the embedded database the shipments repository writes a new shipment's version row itself: migration 0030 dropped
 * the insert trigger of 0026_shipment_versions (which made SQLite journal every page a create's insert changes).
 * Shipments created one by one and by import must be found, listed and followed through their changes; inserts made
 * together on the connection must each get their own id. A database that still has the trigger (put back by hand)
 * must not make a create fail on the row the trigger already wrote.
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

  it('is written by the repository, the trigger gone', async () => {
    const { rows: triggers } = await sql<{ name: string }>`
      select name from sqlite_master where type = 'trigger' and name = 'shipment_versions_shipment_insert'`.execute(t.context.database.db);
    expect(triggers).toEqual([]);

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
      expect.arrayContaining(['ver-1', 'ver-2', 'ver-3']),
    );

    // A change bumps the row the repository wrote, and the kept rendering of the details above is not answered again.
    const updated = await t.call(acct.token, 'POST', '/v5/shipment/update/', { note: 'second' }, { shipment_id: 'ver-1' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(await versionsOf(['ver-1'])).toEqual([['ver-1', 1]]);
    expect((await details('ver-1')).json().data.note).toBe('second');
  });

  it('gives inserts made together on the connection each their own id', async () => {
    const db = t.context.database.db;
    const { rows } = await sql<{ id: number }>`select id from accounts where account_uuid = ${acct.accountUuid}`.execute(db);
    const repository = new ShipmentsRepository(db, 'sqlite');
    const now = new Date().toISOString();
    const ids = ['ver-together-1', 'ver-together-2', 'ver-together-3'];
    const inserted = await Promise.all(ids.map((id) => repository.insert(bareShipment(rows[0].id, id, now))));
    const { rows: stored } = await sql<{ id: number; shipment_id: string }>`
      select id, shipment_id from shipments where shipment_id in (${sql.join(ids)}) order by shipment_id`.execute(db);
    expect(inserted.map((shipment) => [shipment.id, shipment.shipment_id])).toEqual(stored.map((s) => [s.id, s.shipment_id]));
    expect(await versionsOf(ids)).toEqual(ids.map((id) => [id, 0]));
  });

  it('never leaves a shipment without its version row, outside a transaction too', async () => {
    const db = t.context.database.db;
    const { rows } = await sql<{ id: number }>`select id from accounts where account_uuid = ${acct.accountUuid}`.execute(db);
    const repository = new ShipmentsRepository(db, 'sqlite');
    const now = new Date().toISOString();
    await sql`create temp trigger refuse_versions before insert on main.shipment_versions
       begin select raise(abort, 'version row refused'); end`.execute(db);
    try {
      await expect(repository.insert(bareShipment(rows[0].id, 'ver-alone', now))).rejects.toThrow('version row refused');
      await expect(repository.insertMany([bareShipment(rows[0].id, 'ver-alone-many', now)])).rejects.toThrow('version row refused');
    } finally {
      await sql`drop trigger temp.refuse_versions`.execute(db);
    }
    const { rows: left } = await sql`select id from shipments where shipment_id in ('ver-alone', 'ver-alone-many')`.execute(db);
    expect(left).toEqual([]);
  });

  it('does not fail a create on a database that still has the insert trigger', async () => {
    await sql`create trigger shipment_versions_shipment_insert after insert on shipments begin
       insert into shipment_versions (shipment_row_id, version) values (new.id, 0); end`.execute(t.context.database.db);
    try {
      const created = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'ver-with-trigger' });
      expect(created.statusCode, created.body).toBe(200);
      expect(await versionsOf(['ver-with-trigger'])).toEqual([['ver-with-trigger', 0]]);
    } finally {
      await sql`drop trigger shipment_versions_shipment_insert`.execute(t.context.database.db);
    }
  });
});

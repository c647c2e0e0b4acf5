import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp, usingPostgres } from '../helpers/app.js';
import { fullShipment } from './fixtures.js';

/**
 * On the embedded database a details request whose shipment nothing changed since it was last read is answered
 * without reading its head (ShipmentHeadMemo). Two services on one data directory stand for two processes: what
 * either writes, the other answers at once, and the memo is used when nothing did.
 */
describe.skipIf(usingPostgres)('shipment details found without a read', () => {
  let reader: TestApp;
  let writer: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    reader = await createTestApp();
    writer = await createTestApp({ env: { WAYBILL_DATA_DIR: reader.config.dataDir } });
    acct = await reader.account();
  });
  afterAll(async () => {
    await writer.close();
    await reader.close();
  });

  const details = async (app: TestApp, shipmentId: string) =>
    app.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId });
  const unread = () => reader.context.shipmentReader.headsUnread;
  /** A statement typed into the database through this service's connection. */
  const statement = (app: TestApp, text: ReturnType<typeof sql>) => text.execute(app.context.database.db);

  it('answers a shipment nothing changed without a read, and every change of another process at once', async () => {
    expect((await reader.call(acct.token, 'POST', '/v5/shipment/', fullShipment('HM-1'))).statusCode).toBe(200);
    expect((await details(reader, 'HM-1')).statusCode).toBe(200);
    const before = unread();
    expect((await details(reader, 'HM-1')).json().data.shipment_id).toBe('HM-1');
    expect(unread()).toBe(before + 1);

    // A change committed by the other process.
    const update = await writer.call(acct.token, 'POST', '/v5/shipment/update/', { note: 'From the writer' }, { shipment_id: 'HM-1' });
    expect(update.statusCode, update.body).toBe(200);
    expect((await details(reader, 'HM-1')).json().data.note).toBe('From the writer');

    // Renamed by the other process's connection: the old identifier finds nothing, the new one finds it.
    await statement(writer, sql`update shipments set shipment_id = 'HM-1b' where shipment_id = 'HM-1'`);
    expect((await details(reader, 'HM-1')).statusCode).toBe(404);
    expect((await details(reader, 'HM-1b')).json().data.note).toBe('From the writer');

    // An event recorded by the other process.
    const event = await writer.call(acct.token, 'POST', '/v5/events/create/', {
      shipment_id: 'HM-1b',
      events: [{ event: 'Left the hub', event_key: 'departed_facility', time: '2026-03-29T10:15:00Z', location: { place: 'Hub' } }],
    });
    expect(event.statusCode, event.body).toBe(200);
    expect((await details(reader, 'HM-1b')).json().data.all_events.map((e: { event: string }) => e.event)).toEqual(['Left the hub']);

    // Deleted there.
    expect((await details(reader, 'HM-1b')).statusCode).toBe(200);
    await statement(writer, sql`delete from shipments where shipment_id = 'HM-1b'`);
    expect((await details(reader, 'HM-1b')).statusCode).toBe(404);
  });

  it('answers this process’s own changes at once, those its rendering does not version too', async () => {
    expect((await reader.call(acct.token, 'POST', '/v5/shipment/', fullShipment('HM-2'))).statusCode).toBe(200);
    expect((await details(reader, 'HM-2')).json().data.pod_url).toBeNull();
    const before = unread();
    expect((await details(reader, 'HM-2')).statusCode).toBe(200);
    expect(unread()).toBe(before + 1);

    // The proof of delivery is on the row but not in the version: the link appears at once all the same.
    const { repos } = reader.context;
    const row = await repos.shipments.findByShipmentId((await reader.context.accounts.require(acct.accountUuid)).id, 'HM-2');
    if (!row) throw new Error('HM-2 not found');
    await repos.shipments.update(row.id, { pod_file: JSON.stringify({ key: 'pod/x', reference: 'r', content_type: 'image/png' }) });
    expect((await details(reader, 'HM-2')).json().data.pod_url).toMatch(/\/files\/pod\//);

    // Renamed through this process's connection.
    await statement(reader, sql`update shipments set shipment_id = 'HM-2b' where shipment_id = 'HM-2'`);
    expect((await details(reader, 'HM-2')).statusCode).toBe(404);
    expect((await details(reader, 'HM-2b')).json().data.shipment_id).toBe('HM-2b');

    // A shipment made later under an identifier looked up before is found.
    expect((await details(reader, 'HM-2')).statusCode).toBe(404);
    expect((await reader.call(acct.token, 'POST', '/v5/shipment/', fullShipment('HM-2'))).statusCode).toBe(200);
    expect((await details(reader, 'HM-2')).statusCode).toBe(200);

    // Deleted through it.
    expect((await details(reader, 'HM-2b')).statusCode).toBe(200);
    await statement(reader, sql`delete from shipments where shipment_id = 'HM-2b'`);
    expect((await details(reader, 'HM-2b')).statusCode).toBe(404);
  });

  it('answers nothing again that was read beside a transaction still open: its change is read once committed', async () => {
    expect((await reader.call(acct.token, 'POST', '/v5/shipment/', fullShipment('HM-OPEN'))).statusCode).toBe(200);
    expect((await details(reader, 'HM-OPEN')).statusCode).toBe(200);
    let commit = () => {};
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let changed = () => {};
    const written = new Promise<void>((resolve) => (changed = resolve));
    const transaction = reader.context.database.db.transaction().execute(async (trx) => {
      await sql`update shipments set body = json_set(body, '$.note', 'Changed in a transaction') where shipment_id = 'HM-OPEN'`.execute(
        trx,
      );
      changed();
      await committing;
    });
    await written;
    // Read beside the open transaction, on the second connection: the last commit, without the change.
    const beside = await details(reader, 'HM-OPEN');
    expect(beside.statusCode).toBe(200);
    expect(beside.json().data.note).not.toBe('Changed in a transaction');
    commit();
    await transaction;
    expect((await details(reader, 'HM-OPEN')).json().data.note).toBe('Changed in a transaction');
  });

  it('finds nothing of another account, kept or not', async () => {
    const other = await reader.account();
    expect((await reader.call(acct.token, 'POST', '/v5/shipment/', fullShipment('HM-3'))).statusCode).toBe(200);
    expect((await details(reader, 'HM-3')).statusCode).toBe(200);
    expect((await details(reader, 'HM-3')).statusCode).toBe(200);
    const res = await reader.call(other.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'HM-3' });
    expect(res.statusCode).toBe(404);
  });
});

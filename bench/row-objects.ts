/**
 * What turning SQLite's rows into objects costs (`node --import tsx bench/row-objects.ts`): three of the service's
 * reads over a seeded database (a shipment's ten events, a shipment's whole row, a list page's 21 stamps), each run
 * with better-sqlite3's own row objects and as the driver runs them (`RowShape`: the values alone, one object
 * literal per row), alternated over 11 rounds of 5,000; the median round of each, in µs a read.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { RowShape } from '../src/db/sqlite-driver.js';
import { median } from './fixtures.js';
import { seedMerchants } from './merchants.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-row-objects-'));
try {
  const [merchant] = await seedMerchants({ dataDir, accounts: 2, shipmentsPerAccount: 50, eventsPerShipment: 10 });
  const db = new Database(path.join(dataDir, 'waybill.sqlite'));
  const ids = db.prepare('select id from shipments').pluck().all() as number[];
  const accountId = db.prepare('select account_id from shipments where shipment_uuid = ?').pluck().get(merchant.shipmentUuids[0]);
  const reads: Array<[string, string, (i: number) => unknown[]]> = [
    [
      "a shipment's events",
      'select * from tracking_events where shipment_row_id = ? order by time_utc desc, sequence desc, id desc',
      (i) => [ids[i % ids.length]],
    ],
    [
      "a shipment's row",
      'select * from shipments where account_id = ? and shipment_uuid = ?',
      (i) => [accountId, merchant.shipmentUuids[i % 50]],
    ],
    [
      "a list page's stamps",
      'select s.id, v.version from shipments s join shipment_versions v on v.shipment_row_id = s.id where s.account_id = ? order by s.id desc limit 21',
      () => [accountId],
    ],
  ];
  const calls = 5000;
  for (const [name, sql, parameters] of reads) {
    const objects = db.prepare(sql);
    const values = db.prepare(sql);
    const shape = RowShape.of(values);
    values.raw(true);
    const timed = (read: (i: number) => unknown) => {
      const started = performance.now();
      for (let i = 0; i < calls; i++) read(i);
      return ((performance.now() - started) * 1000) / calls;
    };
    const own: number[] = [];
    const shaped: number[] = [];
    for (let round = 0; round < 11; round++) {
      own.push(timed((i) => objects.all(parameters(i))));
      shaped.push(timed((i) => shape.objects(values.all(parameters(i)) as unknown[][], values)));
    }
    console.log(`${name}: better-sqlite3's objects ${median(own).toFixed(1)} µs, values and a literal ${median(shaped).toFixed(1)} µs`);
  }
  db.close();
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

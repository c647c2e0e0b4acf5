/**
 * What a transaction of the query layer costs on the embedded database (`node --import tsx bench/transaction-cost.ts`),
 * in µs of the process's CPU (user and system, every thread) a call, one call at a time, the median of 5 rounds:
 * - a shipment's version read alone (a prepared point read by primary key, as the reader makes one; the database
 *   holds no shipment, so it finds none);
 * - the same read in a transaction of the repositories (`Repositories.transaction`: the connection's queue, the
 *   query layer's transaction, the commit group), what every write request opens;
 * - an empty transaction of the repositories;
 * - `begin immediate` and `commit` on a connection of its own to the same file, with nothing of ours around them.
 * None of them writes: no commit waits for a sync. TRANSACTION_COST_CALLS sets the calls a round (20,000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { Repositories } from '../src/db/repositories/index.js';
import { median } from './fixtures.js';

const ROUNDS = 5;
const CALLS = Number(process.env.TRANSACTION_COST_CALLS ?? 20_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-transaction-cost-'));
const handle = openDatabase({ dataDir: dir, databaseUrl: null });
const own = new Database(path.join(dir, 'waybill.sqlite'));
try {
  await migrateToLatest(handle.db);
  const repos = new Repositories(handle.db, 'sqlite');
  const begin = own.prepare('begin immediate');
  const commit = own.prepare('commit');
  const kinds: Array<[string, () => unknown]> = [
    ['a point read alone', () => repos.shipments.versionOf(1)],
    ['the read in a transaction', () => repos.transaction((trx) => trx.shipments.versionOf(1))],
    ['an empty transaction', () => repos.transaction(async () => undefined)],
    [
      'begin immediate and commit alone',
      () => {
        begin.run();
        commit.run();
      },
    ],
  ];
  const figures = new Map<string, number[]>(kinds.map(([name]) => [name, []]));
  // The first round warms up.
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, call] of kinds) {
      const before = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) await call();
      const used = process.cpuUsage(before);
      if (round > 0) figures.get(name)?.push((used.user + used.system) / CALLS);
    }
  }
  for (const [name, values] of figures) console.log(`${name}: ${median(values).toFixed(1)} µs of CPU a call`);
} finally {
  own.close();
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * What storing a first poll costs with no carrier at all: the floor under carrier-polling's CPU per polled number.
 *
 *   node --import tsx bench/storage-floor.ts [--shipments 100000] [--polls 12000] [--order random|id] [--repeat]
 *     [--sql-times] [--database sqlite|postgres] [--drop-index <name>]
 *
 * A fresh database as the service opens it (its pragmas, the WAL checkpointer thread), the shipments seeded as
 * carrier-polling seeds them, and one FedEx answer (the in-transit fixture mapped by the FedEx adapter's mapper:
 * 11 events) applied to each polled shipment the way the poller applies it, in batches of 30 (one FedEx call;
 * STORAGE_FLOOR_BATCH sets another size): the claim's write of the lease (one statement for the batch), then
 * `TrackingService.applyBatch` (the rows locked, event keys made, the events inserted, the rows written, one
 * commit). Nothing else runs: no HTTP, no JSON, no limits. Prints the process's CPU per polled shipment (every
 * thread, and the main thread alone) and the bytes written.
 *
 * `--order id` polls the shipments in row order instead of a random one: the difference is what scattering the
 * writes over the tables and indexes costs. `--repeat` applies every answer once unmeasured and measures the
 * second time: a poll that brings nothing new. `--sql-times` adds the time of each SQLite statement.
 * `--drop-index` drops one of the shipments' indexes after seeding: what keeping it costs each poll.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Insertable } from 'kysely';
import pino from 'pino';
import type { TrackResult } from '../src/carriers/carrier.js';
import { mapTrackingResponse } from '../src/carriers/fdxglb/fdxglb.mapper.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import type { ShipmentRow } from '../src/db/repositories/shipments.repository.js';
import type { ShipmentsTable } from '../src/db/schema.js';
import { mainThreadCpuMs } from './harness.js';
import { freshPostgresDatabase } from './postgres.js';
import { writeVersionRows } from './shipment-versions.js';
import { StatementTimes } from './sql-timing.js';

const { values } = parseArgs({
  options: {
    shipments: { type: 'string', default: '100000' },
    polls: { type: 'string', default: '12000' },
    order: { type: 'string', default: 'random' },
    database: { type: 'string', default: 'sqlite' },
    repeat: { type: 'boolean', default: false },
    'sql-times': { type: 'boolean', default: false },
    'drop-index': { type: 'string' },
  },
});
const shipments = Number(values.shipments);
const polls = Math.min(shipments, Number(values.polls));
const BATCH = Number(process.env.STORAGE_FLOOR_BATCH ?? 30);
const statementTimes = values['sql-times'] && values.database === 'sqlite' ? new StatementTimes() : undefined;

function written(): number | null {
  try {
    const match = /^wchar: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-storage-floor-'));
const postgres = values.database === 'postgres' ? await freshPostgresDatabase() : null;
const context = await createContext(
  loadConfig({ WAYBILL_DATA_DIR: workDir, LOG_LEVEL: 'silent', ...(postgres ? { DATABASE_URL: postgres.url } : {}) }),
  { logger: pino({ level: 'silent' }) },
);
try {
  const account = await context.accounts.create({ name: 'storage-floor' });
  const { id: accountId } = await context.database.db
    .selectFrom('accounts')
    .select('id')
    .where('account_uuid', '=', account.account_uuid)
    .executeTakeFirstOrThrow();
  await context.carrierConfigs.add(accountId, {
    carrier_reference: 'floor',
    carrier_id: 'fdxglb',
    settings: { client_id: 'floor', client_secret: 'floor-secret', environment: 'production' },
  });
  const now = Date.now();
  const started = new Date(now - 2 * 86_400_000).toISOString();
  const number = (i: number) => `7999${String(i).padStart(8, '0')}`;
  for (let from = 0; from < shipments; from += 500) {
    const rows: Array<Insertable<ShipmentsTable>> = [];
    for (let i = from; i < Math.min(shipments, from + 500); i++) {
      rows.push({
        account_id: accountId,
        shipment_uuid: randomUUID(),
        shipment_id: `SF-${i}`,
        tracking_number: number(i),
        carrier_reference: 'floor',
        carrier_id: 'fdxglb',
        order_row_id: null,
        status: 'active',
        phase_key: 'in_transit',
        source: 'api',
        shipment_type: null,
        tracking_page_reference: randomBytes(16).toString('base64url'),
        body: JSON.stringify({ shipment_reference: `SF-${i}`, tags: ['bench'], weight: { amount: 1850 }, item_count: 1 }),
        created_at: started,
        updated_at: started,
        tracking_started_at: started,
        next_poll_at: new Date(now - 1 - Math.floor(Math.random() * 3_600_000)).toISOString(),
        last_tracking_update_at: started,
        poll_deferred_since: null,
        pod_file: null,
        collection_point: null,
      });
    }
    const inserted = await context.database.db.insertInto('shipments').values(rows).returning('id').execute();
    await writeVersionRows(
      context.database.db,
      inserted.map((row) => row.id),
    );
  }

  const dropped = values['drop-index'];
  if (dropped !== undefined) await context.database.db.schema.dropIndex(dropped).execute();

  const adapter = context.carriers.get('fdxglb');
  if (!adapter) throw new Error('no FedEx adapter');
  const fixture = fs.readFileSync(path.join('test', 'carriers', 'fixtures', 'fdxglb', 'in-transit.json'), 'utf8');
  const fixtureNumber = (JSON.parse(fixture) as { output: { completeTrackResults: Array<{ trackingNumber: string }> } }).output
    .completeTrackResults[0].trackingNumber;
  const answerFor = (trackingNumber: string): TrackResult => {
    const [result] = mapTrackingResponse(JSON.parse(fixture.split(fixtureNumber).join(trackingNumber)), [trackingNumber]) ?? [];
    if (!result) throw new Error('the fixture did not map');
    return result;
  };

  const ids = (await context.database.db.selectFrom('shipments').select('id').orderBy('id').execute()).map((r) => r.id);
  if (values.order !== 'id') {
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [ids[i], ids[j]] = [ids[j], ids[i]];
    }
  }
  const polled = ids.slice(0, polls);
  // The answers are made before the measured part: the floor is storage, not mapping.
  const batches: Array<{ ids: number[]; answers: TrackResult[] }> = [];
  for (let i = 0; i < polled.length; i += BATCH) {
    const batch = polled.slice(i, i + BATCH);
    const numbers = await context.database.db.selectFrom('shipments').select(['id', 'tracking_number']).where('id', 'in', batch).execute();
    const byId = new Map(numbers.map((r) => [r.id, r.tracking_number as string]));
    batches.push({ ids: batch, answers: batch.map((id) => answerFor(byId.get(id) as string)) });
  }

  const applyAll = async () => {
    for (const batch of batches) {
      const lease = new Date(Date.now() + 120_000).toISOString();
      await context.repos.shipments.reschedulePolls(batch.ids, [lease]);
      const rows = (await context.repos.shipments.lockMany(batch.ids)) as Map<number, ShipmentRow>;
      const claimed = batch.ids.map((id) => rows.get(id) as ShipmentRow);
      await context.tracking.applyBatch(claimed, batch.answers, { adapter });
    }
  };
  if (values.repeat) await applyAll();
  statementTimes?.start();
  const cpu = process.cpuUsage();
  const main = mainThreadCpuMs(process.pid);
  const bytes = written();
  const begin = performance.now();
  await applyAll();
  statementTimes?.stop();
  let events = 0;
  for (const batch of batches) for (const answer of batch.answers) if (answer.status === 'ok') events += answer.events.length;
  const used = process.cpuUsage(cpu);
  // µs; Linux counts a thread's CPU in ticks of 10 ms.
  const mainUsed = main !== null ? ((mainThreadCpuMs(process.pid) ?? main) - main) * 1000 : null;
  const bytesUsed = bytes !== null ? (written() ?? bytes) - bytes : null;
  const seconds = (performance.now() - begin) / 1000;
  const perShipment = (used.user + used.system) / polls;
  process.stdout.write(
    `${values.database}, ${polls.toLocaleString('en-US')} of ${shipments.toLocaleString('en-US')} shipments in ${values.order} order, ` +
      `${(events / polls).toFixed(1)} events each${values.repeat ? ' (all stored before: nothing new)' : ''}, batches of ${BATCH}` +
      `${dropped !== undefined ? `, without ${dropped}` : ''}, ${seconds.toFixed(1)} s: ` +
      `${perShipment.toFixed(0)} µs CPU per shipment` +
      (mainUsed !== null ? ` (main thread ${(mainUsed / polls).toFixed(0)} µs)` : '') +
      (bytesUsed !== null ? `, ${(bytesUsed / polls / 1024).toFixed(1)} KiB written per shipment` : '') +
      `; load average ${os.loadavg()[0].toFixed(2)}\n`,
  );
  for (const line of statementTimes?.report(polls) ?? []) process.stdout.write(`  SQL ${line}\n`);
} finally {
  await context.close();
  await postgres?.drop();
  fs.rmSync(workDir, { recursive: true, force: true });
}

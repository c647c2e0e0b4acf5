import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Receiver } from '../webhooks/receiver.js';
import { Ledger, RetryingClient, runLane, type ShipmentRecord, seeded } from './crash-load.js';
import { createDatabase, reachablePostgres } from './postgres.js';
import { freePort, issueToken, ServiceProcess, sleep } from './service-process.js';

/**
 * Crash safety: the real service under a mixed write load, killed with SIGKILL at random moments and started
 * again on the same data. Every write answered 2xx must be there with its content, nothing may exist twice,
 * and every job due (carrier polls, delayed labels, webhook deliveries) must complete after the last restart.
 *
 * CRASH_KILLS (default 3) and CRASH_SEED (default random, printed) repeat or stretch a run.
 */
const KILLS = Number(process.env.CRASH_KILLS ?? 3);
const LANES = 4;
const ADMIN_TOKEN = `wbadm_${randomBytes(16).toString('hex')}`;

const postgres = await reachablePostgres();

async function crashRun(database: { label: string; env: Record<string, string> }): Promise<void> {
  const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const random = seeded(seed);
  const receiver = await new Receiver().start();
  const service = new ServiceProcess(await freePort(), {
    ...database.env,
    WAYBILL_ADMIN_TOKEN: ADMIN_TOKEN,
    WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true',
    WAYBILL_RATE_LIMIT_PER_SECOND: '100000',
    // Work held by a killed process is taken over after these leases (production defaults: 60, 120, 60, 300 s).
    WAYBILL_JOB_LEASE_SECONDS: '3',
    WAYBILL_POLL_LEASE_SECONDS: '3',
    WAYBILL_IDEMPOTENCY_LEASE_SECONDS: '3',
    WAYBILL_BOOKING_LEASE_SECONDS: '3',
  });
  const started = Date.now();
  try {
    await service.start();
    const admin = async (url: string, body?: unknown) => {
      const res = await fetch(`${service.url}/admin/v1${url}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (res.status >= 300) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const account = await admin('/accounts/', { name: `crash-${database.label}`, features: ['returns', 'booking'] });
    const creds = await admin(`/accounts/${account.account_uuid}/credentials/`);
    await admin(`/accounts/${account.account_uuid}/carrier-configs/`, {
      carrier_id: 'sandbx',
      carrier_reference: 'sb',
      booking: ['outbound', 'return'],
    });
    await admin(`/accounts/${account.account_uuid}/webhooks/`, { url: receiver.url });
    const token = await issueToken(service.url, creds.client_id, creds.client_secret);

    // Load, with kills at random moments while it runs.
    const client = new RetryingClient(service.url, token);
    const ledger = new Ledger();
    let stopped = false;
    const tag = randomBytes(3).toString('hex');
    const lanes = Array.from({ length: LANES }, (_, lane) => runLane(lane, tag, seeded(seed + lane + 1), client, ledger, () => stopped));
    for (let k = 0; k < KILLS; k++) {
      await sleep(700 + random() * 2300);
      await service.kill();
      await service.start();
    }
    await sleep(1500);
    stopped = true;
    await Promise.all(lanes);
    const loadEnded = Date.now();

    const summary = {
      database: database.label,
      seed,
      kills: service.kills,
      ops: ledger.ops,
      shipments: ledger.shipments.length,
      ...client.stats,
    };
    expect(ledger.failures, `${JSON.stringify(summary)}\n${service.diagnostics}`).toEqual([]);

    // Every acknowledged write is there with its content; nothing exists twice.
    const listed: string[] = [];
    let next: string | undefined;
    do {
      const page = await client.get('/v5/shipment/list/', { limit: '100', ...(next ? { next_page: next } : {}) });
      expect(page.status).toBe(200);
      listed.push(...page.body.data.map((s: { shipment_id: string }) => s.shipment_id));
      next = page.body.next_page ?? undefined;
    } while (next);
    expect(listed.sort()).toEqual(ledger.shipments.map((r) => r.shipmentId).sort());

    let eventsChecked = 0;
    for (const record of ledger.shipments) {
      const { status, body } = await client.get('/v5-2-0/shipment/details/', { shipment_uuid: record.uuid });
      expect(status, record.shipmentId).toBe(200);
      const data = body.data;
      expect(data.shipment_id).toBe(record.shipmentId);
      if (record.kind === 'return') {
        expect(data.shipment_type).toBe('return');
        expect(data.returns.id).toBe(record.returnUuid);
      } else {
        expect(data.shipment_reference, record.shipmentId).toBe(record.reference);
      }
      for (const event of record.events) {
        expect(
          data.all_events.filter((e: { event: string }) => e.event === event),
          event,
        ).toHaveLength(1);
        eventsChecked++;
      }
    }

    // Every due job completes: carrier polls, delayed labels, webhook deliveries.
    const pending = async (): Promise<string[]> => {
      const left: string[] = [];
      for (const record of ledger.shipments) {
        const delivered = receiver
          .ofType(record.kind === 'return' ? 'return.created' : 'shipment.created')
          .some((r) => r.json.data?.shipment_uuid === record.uuid && r.answered === 200);
        if (!delivered) left.push(`${record.shipmentId}: no created webhook`);
        if (record.kind === 'return') continue;
        const details = (await client.get('/v5-2-0/shipment/details/', { shipment_uuid: record.uuid })).body.data;
        const carrierEvents = details.all_events.length - record.events.length;
        if (record.kind === 'plain' && details.status !== 'delivered') left.push(`${record.shipmentId}: not polled (${details.status})`);
        if (record.kind === 'booked') {
          if (carrierEvents < 1) left.push(`${record.shipmentId}: booked, never polled`);
          const doc = await client.get(`/v5/shipments/documents/${record.documentUuid}/`);
          if (!doc.body.data?.base64_content) left.push(`${record.shipmentId}: label not ready`);
        }
      }
      return left;
    };
    let left = await pending();
    const deadline = Date.now() + 90_000;
    while (left.length > 0 && Date.now() < deadline) {
      await sleep(1000);
      left = await pending();
    }
    expect(left, `${JSON.stringify(summary)}\n${service.diagnostics}`).toEqual([]);
    const jobsDoneAfter = Date.now() - loadEnded;

    // One event per change, however often it was delivered; one label per booking.
    for (const record of ledger.shipments) {
      const type = record.kind === 'return' ? 'return.created' : 'shipment.created';
      const ids = new Set(
        receiver
          .ofType(type)
          .filter((r) => r.json.data?.shipment_uuid === record.uuid)
          .map((r) => r.headers['webhook-id']),
      );
      expect(ids.size, `${type} ${record.shipmentId}`).toBe(1);
      if (record.kind === 'booked') {
        const docs = await client.get('/v5/shipments/documents/', { shipment_uuid: record.uuid });
        expect(docs.body.data, record.shipmentId).toHaveLength(1);
      }
    }

    const acknowledgedShipments = ledger.shipments.filter((r: ShipmentRecord) => r.acknowledged).length;
    console.log(
      `crash run ${JSON.stringify({
        ...summary,
        acknowledgedShipments,
        eventsChecked,
        webhookDeliveries: receiver.received.length,
        lost: 0,
        duplicates: 0,
        jobsDoneAfterMs: jobsDoneAfter,
        totalMs: Date.now() - started,
      })}`,
    );
    expect(service.kills).toBe(KILLS);
    expect(client.stats.acknowledged).toBeGreaterThan(0);
  } finally {
    await service.stop();
    await receiver.stop();
  }
}

/**
 * Each pass of the suite crashes the database it runs on: SQLite when DATABASE_URL is unset, PostgreSQL
 * (a fresh database on DATABASE_URL's server) when it is set. CI runs both passes.
 */
const onPostgresPass = Boolean(process.env.DATABASE_URL);

describe('crash safety: SIGKILL under a mixed write load', () => {
  it.skipIf(onPostgresPass)(
    'SQLite: nothing acknowledged is lost, nothing is duplicated, every due job completes',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-crash-'));
      try {
        await crashRun({ label: 'sqlite', env: { WAYBILL_DATA_DIR: dataDir } });
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    300_000,
  );

  it.skipIf(!onPostgresPass || !postgres.url)(
    `PostgreSQL: nothing acknowledged is lost, nothing is duplicated, every due job completes${onPostgresPass ? (postgres.url ? '' : ` (skipped: ${'reason' in postgres ? postgres.reason : ''})`) : ' (runs in the pass with DATABASE_URL)'}`,
    async () => {
      const database = await createDatabase(postgres.url as string, 'wb_crash');
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-crash-'));
      try {
        await crashRun({ label: 'postgres', env: { DATABASE_URL: database.url, WAYBILL_DATA_DIR: dataDir } });
      } finally {
        await database.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { CarrierEvent } from '../../src/carriers/carrier.js';
import { isPhaseKey, nextTrackingState, type PhaseKey } from '../../src/carriers/phases.js';
import { SandboxCarrier } from '../../src/carriers/sandbox/sandbox.carrier.js';
import { parseEventTime } from '../../src/core/event-time.js';
import type { NewEvent } from '../../src/domain/shipments/event-recorder.js';
import { toNewEvents } from '../../src/domain/shipments/keyed-answer.js';
import {
  envInteger,
  json,
  newAdminToken,
  round,
  type Service,
  seedAccount,
  shipmentBody,
  startBaseline,
  startService,
} from '../fixtures.js';
import { type ChildServer, compare, type LoadRequest, measure, type Scenario } from '../harness.js';

const route = '/v5-2-0/shipment/details/';
const GOAL_RATIO = 0.4;
const GOAL_P99_MS = 15;

/** One carrier story: the events as toNewEvents stores them, and what their de-duplication keys hash besides the number. */
export interface Story {
  rows: NewEvent[];
  keyParts: Array<{ time: string; code: string; place: string }>;
}

/** The same parts as src/carriers/event-key.ts hashes, for another tracking number. */
export function dedupeKey(carrierId: string, trackingNumber: string, part: Story['keyParts'][number]): string {
  const parts = [carrierId, trackingNumber.replace(/\s+/g, '').toUpperCase(), part.time, part.code, part.place];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

function keyPart(event: CarrierEvent): Story['keyParts'][number] {
  const parsed = parseEventTime(event.time, { timezone: event.timezone });
  return {
    time: parsed.ok ? `${parsed.time.precision}:${parsed.time.utc}` : `text:${event.time.trim()}`,
    code: event.additional_info.carrier_code ?? event.event_key ?? event.event,
    place: event.location?.place.trim() ?? '',
  };
}

/**
 * Delivered stories from the sandbox carrier (WB4…), normalized by the service's own toNewEvents; each keeps
 * its newest `eventsPerShipment` events.
 */
export async function deliveredStories(eventsPerShipment: number, firstPolledAt: Date, now: Date): Promise<Story[]> {
  const adapter = new SandboxCarrier();
  const requests = Array.from({ length: 200 }, (_, i) => ({
    tracking_number: `WB4STORY${String(i).padStart(4, '0')}`,
    first_polled_at: firstPolledAt.toISOString(),
    attempt: 0,
  }));
  const results = await adapter.track(requests, {}, { now });
  const stories: Story[] = [];
  for (const result of results) {
    if (result.status !== 'ok') continue;
    const { rows, unreadable } = toNewEvents(adapter, result.tracking_number, result.events);
    if (unreadable > 0 || rows.length < eventsPerShipment) continue;
    const from = rows.length - eventsPerShipment;
    const keyParts = result.events.slice(from).map(keyPart);
    // The re-keying must give the service's key for the story's own number.
    if (dedupeKey(adapter.record.id, result.tracking_number, keyParts[0]) !== rows[from].dedupe_key) {
      throw new Error('de-duplication keys differ from the service');
    }
    stories.push({ rows: rows.slice(from), keyParts });
  }
  if (stories.length === 0) throw new Error(`no sandbox story has ${eventsPerShipment} events`);
  return stories;
}

interface SeedFigures {
  uuids: string[];
  events: number;
  seconds: number;
  fileMiB: number;
}

/**
 * Writes `count` delivered shipments (each with its order, tags and events) into the service's SQLite file,
 * cloned from one shipment the service created through its API: the same body JSON, columns as the create
 * and tracking code set them, events as toNewEvents made them with keys for each shipment's own number.
 */
export async function seedShipments(
  file: string,
  templateShipmentId: string,
  count: number,
  eventsPerShipment: number,
  options: { keepTemplate?: boolean } = {},
): Promise<SeedFigures> {
  const started = performance.now();
  const now = new Date();
  const firstPolled = new Date(now.getTime() - 20 * 86_400_000);
  const stories = await deliveredStories(eventsPerShipment, firstPolled, now);
  const db = new SqliteDatabase(file);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -524288');
    const template = db.prepare('select * from shipments where shipment_id = ?').get(templateShipmentId) as Record<string, unknown>;
    if (!template) throw new Error('template shipment not found');
    const order = db.prepare('select * from orders where id = ?').get(template.order_row_id) as Record<string, unknown>;
    const tags = (db.prepare('select tag from shipment_tags where shipment_row_id = ?').all(template.id) as Array<{ tag: string }>).map(
      (t) => t.tag,
    );
    if (!options.keepTemplate) {
      db.prepare('delete from tracking_events where shipment_row_id = ?').run(template.id);
      db.prepare('delete from shipment_tags where shipment_row_id = ?').run(template.id);
      db.prepare('delete from shipments where id = ?').run(template.id);
      db.prepare('delete from orders where id = ?').run(order.id);
    }

    const insertOrder = db.prepare(
      `insert into orders (id, account_id, order_uuid, order_id, order_reference, source_type, source_name, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertShipment = db.prepare(
      `insert into shipments (id, account_id, shipment_uuid, shipment_id, tracking_number, carrier_reference, carrier_id, order_row_id,
         status, phase_key, source, shipment_type, tracking_page_reference, body, created_at, updated_at, tracking_started_at,
         next_poll_at, last_tracking_update_at, poll_failures, pod_file)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, 0, null)`,
    );
    // No trigger writes a shipment's version row on SQLite (0030): the repository does, and so does this seed.
    const insertVersion = db.prepare('insert into shipment_versions (shipment_row_id, version) values (?, 0)');
    const insertTag = db.prepare('insert into shipment_tags (shipment_row_id, account_id, tag) values (?, ?, ?)');
    const insertEvent = db.prepare(
      `insert into tracking_events (shipment_row_id, dedupe_key, origin, event, event_key, phase_key, time_text, time_utc, timezone,
         carrier_name, location, additional_info, sequence, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );

    // After the newest rows: a kept template, or shipments seeded before, stay as they are.
    const maxId = (table: string) => Number((db.prepare(`select max(id) as id from ${table}`).get() as { id: number | null }).id ?? 0);
    const firstId = Math.max(Number(template.id), maxId('shipments')) + 1;
    const firstOrderId = Math.max(Number(order.id), maxId('orders')) + 1;
    const runId = randomBytes(3).toString('hex');
    const uuids: string[] = new Array(count);
    let events = 0;
    const chunk = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const n = String(i).padStart(7, '0');
        const id = firstId + i;
        const orderId = firstOrderId + i;
        const story = stories[i % stories.length];
        const trackingNumber = `WB4${runId.toUpperCase()}${n}`;
        // Created a day after tracking began; the last event's poll is the last update.
        const created = new Date(firstPolled.getTime() + (i % 86_400) * 1000).toISOString();
        const polled = new Date(now.getTime() - (i % 3600) * 1000).toISOString();
        const latestPhase = [...story.rows].reverse().find((r) => isPhaseKey(r.phase_key ?? null))?.phase_key ?? null;
        const state = nextTrackingState(
          { status: 'pending', phase_key: null },
          { phase_key: isPhaseKey(latestPhase) ? (latestPhase as PhaseKey) : null },
        );
        insertOrder.run(
          orderId,
          template.account_id,
          randomUUID(),
          `ORD-${runId}-${n}`,
          order.order_reference,
          order.source_type,
          order.source_name,
          created,
          created,
        );
        uuids[i] = randomUUID();
        insertShipment.run(
          id,
          template.account_id,
          uuids[i],
          `${runId}-${n}`,
          trackingNumber,
          template.carrier_reference,
          template.carrier_id,
          orderId,
          state.status,
          state.phase_key,
          template.source,
          template.shipment_type,
          randomBytes(16).toString('base64url'),
          template.body,
          created,
          polled,
          created,
          polled,
        );
        insertVersion.run(id);
        for (const tag of tags) insertTag.run(id, template.account_id, tag);
        story.rows.forEach((row, e) => {
          insertEvent.run(
            id,
            dedupeKey(SandboxCarrier.id, trackingNumber, story.keyParts[e]),
            row.origin,
            row.event,
            row.event_key ?? null,
            row.phase_key ?? null,
            row.time_text,
            row.time_utc,
            row.timezone ?? null,
            row.carrier_name ?? null,
            row.location ?? null,
            row.additional_info,
            row.sequence,
            polled,
          );
          events++;
        });
      }
    });
    for (let from = 0; from < count; from += 5_000) chunk(from, Math.min(count, from + 5_000));
    db.pragma('journal_mode = WAL');
    return { uuids, events, seconds: (performance.now() - started) / 1000, fileMiB: fs.statSync(file).size / 2 ** 20 };
  } finally {
    db.close();
  }
}

/** Node flags for the measured service child: BENCH_CPU_PROF_DIR=dir writes a CPU profile there. */
export function profileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF_DIR;
  return dir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(dir)] : [];
}

/**
 * GET /v5-2-0/shipment/details/ on the built service over a SQLite database of DETAILS_SHIPMENTS shipments
 * (default 100,000) with DETAILS_EVENTS events each (default 10), random shipment_uuid per request, against
 * a bare Fastify route answering one captured details response from memory under the same load.
 */
export const shipmentDetails: Scenario = {
  name: 'shipment-details',
  description: `GET ${route}?shipment_uuid=… (random of the seeded shipments, SQLite) vs a bare Fastify route with one captured body`,
  async run(settings) {
    const count = envInteger('DETAILS_SHIPMENTS', 100_000);
    const eventsPerShipment = envInteger('DETAILS_EVENTS', 10);
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-details-'));
    const dataDir = path.join(workDir, 'data');
    const adminToken = newAdminToken();
    const servers: ChildServer[] = [];
    try {
      // The service migrates the database and makes the account; one shipment made through the API is the template.
      const first: Service = await startService({ dataDir, adminToken, command: 'serve' });
      servers.push(first);
      const { token } = await seedAccount(first.url, adminToken);
      const headers = { authorization: `Bearer ${token}` };
      const templateBody = shipmentBody('template', 0, 'WB4');
      await json(
        await fetch(`${first.url}/v5/shipment/`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(templateBody),
        }),
        200,
        'create template shipment',
      );
      await first.stop();
      servers.pop();

      const seeded = await seedShipments(path.join(dataDir, 'waybill.sqlite'), String(templateBody.shipment_id), count, eventsPerShipment);
      process.stdout.write(
        `  seeded ${count.toLocaleString('en-US')} shipments, ${seeded.events.toLocaleString('en-US')} events in ${round(seeded.seconds)} s (${Math.round(seeded.fileMiB)} MiB)\n`,
      );

      const service = await startService({ dataDir, adminToken, nodeArgs: profileArgs() });
      servers.push(service);
      const { uuids } = seeded;
      const sample = await fetch(`${service.url}${route}?shipment_uuid=${uuids[0]}`, { headers });
      const body = await sample.text();
      if (sample.status !== 200) throw new Error(`GET ${route}: HTTP ${sample.status} ${body}`);
      const parsed = JSON.parse(body) as { data: { all_events: unknown[] } };
      if (parsed.data.all_events.length !== eventsPerShipment) throw new Error('the details response lacks the seeded events');
      const bodyFile = path.join(workDir, 'body.json');
      fs.writeFileSync(bodyFile, body);

      const baseline = await startBaseline(route, bodyFile);
      servers.push(baseline);
      if ((await (await fetch(`${baseline.url}${route}`)).text()) !== body) throw new Error('the baseline does not answer the same body');

      const requests: LoadRequest[] = [
        {
          method: 'GET',
          headers,
          setupRequest: (request) => ({
            ...request,
            path: `${route}?shipment_uuid=${uuids[Math.floor(Math.random() * uuids.length)]}`,
          }),
        },
      ];
      const baselineResult = await measure('bare Fastify route', `${baseline.url}${route}`, settings, headers, requests, baseline.pid);
      const targetResult = await measure('waybill', `${service.url}${route}`, settings, headers, requests, service.pid);
      const result = compare(this, targetResult, baselineResult, GOAL_RATIO);
      const met = result.ratio >= GOAL_RATIO && targetResult.latencyP99Ms <= GOAL_P99_MS;
      return {
        ...result,
        goalText: `≥ ${GOAL_RATIO * 100}% and p99 ≤ ${GOAL_P99_MS} ms`,
        goalMet: met,
        notes: [
          `${count.toLocaleString('en-US')} shipments, ${seeded.events.toLocaleString('en-US')} events, database ${Math.round(seeded.fileMiB)} MiB, seeded in ${round(seeded.seconds)} s; response ${Buffer.byteLength(body).toLocaleString('en-US')} bytes`,
        ],
      };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  },
};

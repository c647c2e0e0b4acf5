import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { request } from 'undici';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import type { Caller } from '../../src/domain/auth.service.js';
import { envInteger, latencyMeasurement, waitFor } from '../fixtures.js';
import type { Scenario, ScenarioResult } from '../harness.js';

const GOAL_PER_SECOND = 2_000;
const GOAL_P99_MS = 1_000;

/** A receiver on loopback that answers 200 at once and notes when each event arrived. */
async function startReceiver(): Promise<{ url: string; arrivals: Map<string, number>; close(): Promise<void> }> {
  const arrivals = new Map<string, number>();
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const key = body.data?.shipment_id ?? body.shipment_id;
      if (key && !arrivals.has(key)) arrivals.set(key, now);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * WEBHOOK_EVENTS shipments (default 3,000), each announcing `shipment.created` to one endpoint on a local
 * receiver. Deliveries per second: a backlog of that many events, written through ShipmentsService with the
 * worker stopped, then drained by the worker. Latency: as many more creates while the worker runs, each
 * in its own turn of the event loop, timed from the commit of each create to its receipt. Baseline in the same run: the same number of signed-size POSTs
 * sent straight to the receiver with the same HTTP client and concurrency.
 */
export const webhookDelivery: Scenario = {
  name: 'webhooks',
  description: 'webhook deliveries from the outbox to a local receiver (SQLite) vs direct POSTs to it',
  async run(): Promise<ScenarioResult> {
    const count = envInteger('WEBHOOK_EVENTS', 3_000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-webhooks-'));
    const receiver = await startReceiver();
    const context = await createContext(
      loadConfig({ WAYBILL_DATA_DIR: dataDir, LOG_LEVEL: 'silent', WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' }),
      {
        logger: pino({ level: 'silent' }),
      },
    );
    try {
      const account = await context.accounts.create({ name: 'bench' });
      const row = await context.accounts.require(account.account_uuid);
      await context.webhookEndpoints.create(row.id, { url: receiver.url, format: 'v5.2', events: ['shipment.created'] });
      const caller: Caller = {
        accountId: row.id,
        accountUuid: account.account_uuid,
        clientId: 'bench',
        features: new Set(),
        strictFields: false,
      };

      // Throughput: a backlog of `count` events written with the worker stopped, then drained.
      const backlogStarted = performance.now();
      for (let i = 0; i < count; i++) await context.shipments.create(caller, { shipment_id: `WB-${i}` });
      const backlogSeconds = (performance.now() - backlogStarted) / 1000;
      const drainStarted = performance.now();
      context.worker.start();
      await waitFor(() => receiver.arrivals.size >= count, 120_000);
      const drained = receiver.arrivals.size;
      const drainSeconds = (Math.max(...receiver.arrivals.values()) - drainStarted) / 1000;
      receiver.arrivals.clear();

      // Latency: `count` more creates while the worker runs, each commit to its receipt.
      const committed = new Map<string, number>();
      const started = performance.now();
      for (let i = 0; i < count; i++) {
        const id = `WH-${i}`;
        await context.shipments.create(caller, { shipment_id: id });
        committed.set(id, performance.now());
        context.worker.nudge();
        // Creates arrive as requests do, each in a turn of the event loop of its own: without this, the
        // loop of awaited (synchronous SQLite) creates would hold off every socket until the last create.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await waitFor(() => receiver.arrivals.size >= count, 120_000);
      const liveSeconds = (Math.max(...receiver.arrivals.values()) - started) / 1000;
      const latencies = [...committed]
        .filter(([id]) => receiver.arrivals.has(id))
        .map(([id, at]) => (receiver.arrivals.get(id) ?? at) - at);
      const live = latencyMeasurement('live', latencies, receiver.arrivals.size, liveSeconds, 1);
      const target = {
        ...live,
        label: 'outbox → worker → receiver (deliveries/s draining a backlog; commit-to-receipt ms while creating)',
        requestsPerSecond: drained / drainSeconds,
        totalRequests: drained,
      };
      await context.worker.stop();

      // Baseline: the same count of bodies of the same size, posted directly with 16 in flight.
      const body = JSON.stringify({ type: 'shipment.created', padding: 'x'.repeat(3_000) });
      receiver.arrivals.clear();
      const direct: number[] = [];
      const baseStart = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < count) {
            const i = next++;
            const t0 = performance.now();
            const res = await request(receiver.url, { method: 'POST', body: body.replace('"type"', `"shipment_id":"B-${i}","type"`) });
            await res.body.dump();
            direct.push(performance.now() - t0);
          }
        }),
      );
      const baseline = latencyMeasurement(
        'direct POSTs to the receiver, 16 in flight',
        direct,
        count,
        (performance.now() - baseStart) / 1000,
        1,
      );
      const met = target.requestsPerSecond >= GOAL_PER_SECOND && target.latencyP99Ms <= GOAL_P99_MS;
      return {
        name: 'webhooks',
        description: webhookDelivery.description,
        target,
        baseline,
        ratio: target.requestsPerSecond / baseline.requestsPerSecond,
        goal: 0,
        goalText: `≥ ${GOAL_PER_SECOND.toLocaleString('en')}/s and p99 ≤ ${GOAL_P99_MS} ms`,
        goalMet: met,
        notes: [
          `backlog: ${count} events written in ${backlogSeconds.toFixed(2)} s with the worker stopped, then delivered in ${drainSeconds.toFixed(2)} s = ${Math.round(drained / drainSeconds)}/s`,
          `live: ${count} creates and their deliveries in ${liveSeconds.toFixed(2)} s (${Math.round(live.requestsPerSecond)}/s, bounded by the creates), commit-to-receipt p50 ${live.latencyP50Ms} ms, p99 ${live.latencyP99Ms} ms; creating and delivering share one process and its event loop`,
        ],
      };
    } finally {
      await context.close();
      await receiver.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

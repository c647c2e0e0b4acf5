import { fork } from 'node:child_process';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import type { Caller } from '../../src/domain/auth.service.js';
import { Mailer } from '../../src/domain/notifications/email/mailer.js';
import { envInteger, latencyMeasurement, waitFor } from '../fixtures.js';
import type { Scenario, ScenarioResult } from '../harness.js';
import { StatementTimes } from '../sql-timing.js';

const GOAL_PER_SECOND = 500;
const GOAL_P99_MS = 2_000;
const POOL = envInteger('NOTIFICATION_SMTP_POOL', 5);

/** The SMTP server of bench/smtp-sink.ts in a child process, and when each recipient's first message arrived. */
async function startSink(): Promise<{ port: number; arrivals: Map<string, number>; bytes: number[]; close(): Promise<void> }> {
  const arrivals = new Map<string, number>();
  const bytes: number[] = [];
  const child = fork(path.join(import.meta.dirname, '../smtp-sink.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: { port?: number; to?: string; bytes?: number; at?: number }) => {
      if (message.port) return resolve(message.port);
      // Each shipment has its own recipient, `<shipment key>@example.com`.
      const key = (message.to ?? '').split('@')[0];
      bytes.push(message.bytes ?? 0);
      if (key && !arrivals.has(key)) arrivals.set(key, message.at ?? Date.now());
    });
  });
  return {
    port,
    arrivals,
    bytes,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

/** NOTIFICATION_CPU_PROF_DIR=dir: a CPU profile of the drain (this process: the worker and its sends) is written there. */
async function startProfile(): Promise<{ stop(): Promise<void> } | null> {
  const dir = process.env.NOTIFICATION_CPU_PROF_DIR;
  if (!dir) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `notifications-drain-${Date.now()}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * NOTIFICATION_EMAILS shipments (default 3,000) with a consumer address each, moved to "out for delivery" by a
 * manual event, each causing one e-mail composed from the default template (MJML layout, Liquid, ICU
 * messages) and sent over pooled SMTP to a local server. E-mails per second: the changes written with the
 * worker stopped, then drained by one worker. Latency: as many more changes while the worker runs, from the
 * commit of each change to the server's acceptance. Baseline in the same run: one of those messages,
 * composed once, sent as many times through the same transport (nodemailer, the same pool) to the same server.
 */
export const notificationDelivery: Scenario = {
  name: 'notifications',
  description: 'consumer e-mails from a phase change to a local SMTP server (SQLite) vs direct pooled sends',
  async run(): Promise<ScenarioResult> {
    const count = envInteger('NOTIFICATION_EMAILS', 3_000);
    // NOTIFICATION_SQL_TIMES=1: the drain's SQLite statements, timed, in the notes.
    const statementTimes = process.env.NOTIFICATION_SQL_TIMES === '1' ? new StatementTimes() : undefined;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-notifications-'));
    const sink = await startSink();
    const smtpUrl = `smtp://127.0.0.1:${sink.port}`;
    const context = await createContext(
      loadConfig({
        WAYBILL_DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        WAYBILL_SMTP_URL: smtpUrl,
        WAYBILL_SMTP_FROM: 'Bench <bench@waybill.test>',
        WAYBILL_SMTP_POOL_SIZE: String(POOL),
        WAYBILL_NOTIFICATION_RECIPIENT_LIMIT_PER_HOUR: '10000',
      }),
      { logger: pino({ level: 'silent' }) },
    );
    try {
      const account = await context.accounts.create({ name: 'bench' });
      const row = await context.accounts.require(account.account_uuid);
      const caller: Caller = {
        accountId: row.id,
        accountUuid: account.account_uuid,
        clientId: 'bench',
        features: new Set(),
        strictFields: false,
      };
      const phaseChange = async (key: string) => {
        await context.manualEvents.create(caller, { shipment_id: key }, [
          { event: 'Out for delivery', event_key: 'out_for_delivery', time: new Date().toISOString() },
        ]);
      };
      for (let i = 0; i < 2 * count; i++) {
        const key = `NB${100000 + i}`;
        await context.shipments.create(caller, {
          shipment_id: key,
          tracking_number: key,
          notification_email: [`${key.toLowerCase()}@example.com`],
        });
      }

      // Throughput: `count` changes written with the worker stopped, then drained by one worker.
      for (let i = 0; i < count; i++) await phaseChange(`NB${100000 + i}`);
      const profiler = await startProfile();
      statementTimes?.start();
      const drainStarted = Date.now();
      context.worker.start();
      await waitFor(() => sink.arrivals.size >= count, 300_000);
      statementTimes?.stop();
      await profiler?.stop();
      const drained = sink.arrivals.size;
      const drainSeconds = (Math.max(...sink.arrivals.values()) - drainStarted) / 1000;
      sink.arrivals.clear();

      // Latency: `count` more changes while the worker runs, each commit to the server's acceptance.
      const committed = new Map<string, number>();
      const started = Date.now();
      for (let i = count; i < 2 * count; i++) {
        const key = `NB${100000 + i}`;
        await phaseChange(key);
        committed.set(key.toLowerCase(), Date.now());
        context.worker.nudge();
        await new Promise((resolve) => setImmediate(resolve));
      }
      await waitFor(() => sink.arrivals.size >= count, 300_000);
      const liveSeconds = (Math.max(...sink.arrivals.values()) - started) / 1000;
      const latencies = [...committed].filter(([key]) => sink.arrivals.has(key)).map(([key, at]) => (sink.arrivals.get(key) ?? at) - at);
      const live = latencyMeasurement('live', latencies, sink.arrivals.size, liveSeconds, 1);
      await context.worker.stop();
      const size = Math.round(sink.bytes.reduce((a, b) => a + b, 0) / sink.bytes.length);
      const target = {
        ...live,
        label: 'phase change → job → compose → pooled SMTP (e-mails/s draining a backlog; commit-to-accept ms while changing)',
        requestsPerSecond: drained / drainSeconds,
        totalRequests: drained,
      };

      // Baseline: the same message, composed once, sent as many times through the same transport and pool.
      sink.arrivals.clear();
      const config = loadConfig({
        WAYBILL_SMTP_URL: smtpUrl,
        WAYBILL_SMTP_FROM: 'Bench <bench@waybill.test>',
        WAYBILL_SMTP_POOL_SIZE: String(POOL),
      }).notifications;
      const mailer = new Mailer({ ...config, smtpUrl });
      const sample = await context.notifications.preview(row.id, 'out_for_delivery', 'email', 'en', {});
      const direct: number[] = [];
      const baseStart = Date.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < count) {
            const i = next++;
            const t0 = Date.now();
            await mailer.send({
              from: 'Bench <bench@waybill.test>',
              to: `b${i}@example.com`,
              subject: sample.subject ?? '',
              text: sample.text,
              html: sample.html ?? '',
              messageId: `<b${i}@waybill.test>`,
              language: 'en',
              unsubscribeUrl: 'https://waybill.test/notifications/unsubscribe/x',
            });
            direct.push(Date.now() - t0);
          }
        }),
      );
      mailer.close();
      const baseline = latencyMeasurement(
        'the same message composed once, sent through the same transport and pool, 32 in flight',
        direct,
        count,
        (Date.now() - baseStart) / 1000,
        1,
      );
      const met = target.requestsPerSecond >= GOAL_PER_SECOND && target.latencyP99Ms <= GOAL_P99_MS;
      return {
        name: 'notifications',
        description: notificationDelivery.description,
        target,
        baseline,
        ratio: target.requestsPerSecond / baseline.requestsPerSecond,
        goal: 0,
        goalText: `≥ ${GOAL_PER_SECOND}/s and p99 ≤ ${GOAL_P99_MS} ms`,
        goalMet: met,
        notes: [
          `backlog: ${count} phase changes, then ${drained} e-mails (${size} bytes on average) accepted in ${drainSeconds.toFixed(2)} s = ${Math.round(drained / drainSeconds)}/s by one worker with ${POOL} pooled SMTP connections`,
          ...(statementTimes?.report(drained, 12).map((line) => `drain SQL per e-mail: ${line}`) ?? []),
          `live: ${count} changes and their e-mails in ${liveSeconds.toFixed(2)} s (${Math.round(live.requestsPerSecond)}/s, bounded by the changes), commit-to-accept p50 ${live.latencyP50Ms} ms, p99 ${live.latencyP99Ms} ms`,
        ],
      };
    } finally {
      await context.close();
      await sink.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

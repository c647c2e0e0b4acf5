import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import { buildApp } from '../../src/http/app.js';
import type { Measurement, Scenario } from '../harness.js';

const ROWS = Number(process.env.IMPORT_ROWS ?? 20_000);
const CHUNK = 5_000;
const GOAL_ROWS_PER_SECOND = 5_000;
const HEADER =
  'shipment_id,order_id,tracking_number,recipient_first_name,recipient_last_name,recipient_line1,recipient_postal_code,recipient_city,recipient_country_code,recipient_email,shipment_value.amount,shipment_value.currency,weight.amount,tags';

function csvRow(runId: string, i: number): string {
  return [
    `imp-${runId}-${i}`,
    `ord-${runId}-${i}`,
    `TN${runId}${String(i).padStart(8, '0')}`,
    'Ada',
    `Lovelace ${i}`,
    `Unter den Linden ${(i % 200) + 1}`,
    String(10_000 + (i % 90_000)),
    i % 2 ? 'Berlin' : 'Hamburg',
    'DE',
    `ada${i}@example.com`,
    ((i % 500) + 0.99).toFixed(2),
    'EUR',
    String(200 + (i % 5000)),
    i % 3 ? 'web|priority' : 'web',
  ].join(',');
}

function measurement(label: string, rows: number, ms: number, chunks: number): Measurement {
  return {
    label,
    url: 'in-process',
    requestsPerSecond: (rows / ms) * 1000,
    latencyP50Ms: ms / chunks,
    latencyP99Ms: ms / chunks,
    totalRequests: chunks,
  };
}

/**
 * Rows per second through POST /v5/shipment/import/ (in process, SQLite, 5,000-row CSV bodies: validation,
 * the create rules, a savepoint per row, chunked commits) against the same rows inserted raw with a prepared
 * better-sqlite3 statement, 500 per transaction, into a table of the same columns.
 */
export const shipmentImport: Scenario = {
  name: 'import',
  description: `POST /v5/shipment/import/ with ${ROWS.toLocaleString('en-US')} CSV rows (SQLite, in process) vs raw better-sqlite3 inserts of the same rows`,
  async run() {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-import-'));
    try {
      const runId = Date.now().toString(36);
      const rows = Array.from({ length: ROWS }, (_, i) => csvRow(runId, i));
      const bodies: string[] = [];
      for (let i = 0; i < rows.length; i += CHUNK) bodies.push(`${HEADER}\n${rows.slice(i, i + CHUNK).join('\n')}\n`);

      // Baseline: the same rows, parsed by splitting on commas, inserted raw.
      const raw = new Database(path.join(workDir, 'raw.db'));
      raw.pragma('journal_mode = WAL');
      raw.pragma('synchronous = NORMAL');
      raw.exec(
        'create table shipments (id integer primary key, shipment_id text unique, order_id text, tracking_number text, body text, created_at text)',
      );
      const insert = raw.prepare('insert into shipments (shipment_id, order_id, tracking_number, body, created_at) values (?, ?, ?, ?, ?)');
      const columns = HEADER.split(',');
      const rawStart = performance.now();
      for (let i = 0; i < rows.length; i += 500) {
        raw.transaction(() => {
          for (const line of rows.slice(i, i + 500)) {
            const cells = line.split(',');
            const body = Object.fromEntries(columns.map((column, k) => [column, cells[k]]));
            insert.run(cells[0], cells[1], cells[2], JSON.stringify(body), new Date().toISOString());
          }
        })();
      }
      const rawMs = performance.now() - rawStart;
      raw.close();

      const config = loadConfig({
        WAYBILL_DATA_DIR: path.join(workDir, 'data'),
        WAYBILL_ADMIN_TOKEN: 'wbadm_bench_import_token_0123456789',
        DATABASE_URL: '',
        LOG_LEVEL: 'silent',
        WAYBILL_RATE_LIMIT_PER_SECOND: '1000000',
      });
      const context = await createContext(config, { logger: pino({ level: 'silent' }) });
      const app = await buildApp(context, { logger: false });
      await app.ready();
      try {
        const admin = { authorization: `Bearer ${config.adminToken}` };
        const account = (
          await app.inject({ method: 'POST', url: '/admin/v1/accounts/', headers: admin, payload: { name: 'bench', features: [] } })
        ).json();
        const creds = (
          await app.inject({ method: 'POST', url: `/admin/v1/accounts/${account.account_uuid}/credentials/`, headers: admin })
        ).json();
        const token = (
          await app.inject({
            method: 'POST',
            url: '/auth/oauth/token/',
            headers: {
              authorization: `Basic ${Buffer.from(`${creds.client_id}:${creds.client_secret}`).toString('base64')}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
            payload: 'grant_type=client_credentials',
          })
        ).json().access_token;
        const start = performance.now();
        let created = 0;
        for (const body of bodies) {
          const res = await app.inject({
            method: 'POST',
            url: '/v5/shipment/import/',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
            payload: body,
          });
          if (res.statusCode !== 200) throw new Error(`import: HTTP ${res.statusCode} ${res.body.slice(0, 500)}`);
          const data = res.json().data;
          if (data.errors.length > 0) throw new Error(`import refused rows: ${JSON.stringify(data.errors.slice(0, 3))}`);
          created += data.created;
        }
        const importMs = performance.now() - start;
        const target = measurement('waybill import', created, importMs, bodies.length);
        const baseline = measurement('raw better-sqlite3 inserts', ROWS, rawMs, Math.ceil(ROWS / 500));
        return {
          name: this.name,
          description: this.description,
          target,
          baseline,
          ratio: target.requestsPerSecond / baseline.requestsPerSecond,
          goal: 0,
          goalText: `≥ ${GOAL_ROWS_PER_SECOND.toLocaleString('en-US')} rows/s`,
          goalMet: target.requestsPerSecond >= GOAL_ROWS_PER_SECOND,
          notes: [
            `import: ${created.toLocaleString('en-US')} rows in ${(importMs / 1000).toFixed(2)} s = ${Math.round(target.requestsPerSecond).toLocaleString('en-US')} rows/s (${bodies.length} requests of ${CHUNK.toLocaleString('en-US')} rows)`,
            `baseline: ${ROWS.toLocaleString('en-US')} raw inserts in ${(rawMs / 1000).toFixed(2)} s = ${Math.round(baseline.requestsPerSecond).toLocaleString('en-US')} rows/s`,
            'the req/s columns of this row are rows/s',
          ],
        };
      } finally {
        await app.close();
        await context.close();
      }
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  },
};

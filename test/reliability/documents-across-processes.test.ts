import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bookableShipment } from '../booking/fixtures.js';
import { createDatabase, reachablePostgres } from './postgres.js';
import { freePort, issueToken, ServiceProcess, sleep } from './service-process.js';

/**
 * Several API processes on several hosts share the database and nothing else. A label rendered by one process
 * (the late label of a sandbox booking, rendered by its worker) is served by another with its own data
 * directory: the document's content and its signed link.
 *
 * Runs in the PostgreSQL pass (DATABASE_URL set): two processes on one SQLite file share their data directory.
 */
const onPostgresPass = Boolean(process.env.DATABASE_URL);
const ADMIN_TOKEN = `wbadm_${randomBytes(16).toString('hex')}`;

describe('documents across API processes', () => {
  it.skipIf(!onPostgresPass)(
    `a label rendered by one process is served by another with a separate data directory${onPostgresPass ? '' : ' (runs in the pass with DATABASE_URL)'}`,
    async () => {
      const server = await reachablePostgres();
      if ('reason' in server) throw new Error(server.reason);
      const database = await createDatabase(server.url, 'wb_docs');
      const dataDirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-docs-')));
      // Hosts share the database and the configured secret key (signed links are signed with it), nothing else.
      const secretKey = randomBytes(32).toString('base64');
      const env = (dataDir: string) => ({
        DATABASE_URL: database.url,
        WAYBILL_DATA_DIR: dataDir,
        WAYBILL_ADMIN_TOKEN: ADMIN_TOKEN,
        WAYBILL_SECRET_KEY: secretKey,
        WAYBILL_RATE_LIMIT_PER_SECOND: '100000',
      });
      const a = new ServiceProcess(await freePort(), env(dataDirs[0]));
      const b = new ServiceProcess(await freePort(), env(dataDirs[1]));
      try {
        await a.start();
        const call = async (service: ServiceProcess, method: string, url: string, token: string, body?: unknown) => {
          const res = await fetch(`${service.url}${url}`, {
            method,
            headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
            body: body ? JSON.stringify(body) : undefined,
          });
          return { status: res.status, body: await res.json() };
        };
        const admin = async (url: string, body?: unknown) => {
          const res = await call(a, 'POST', `/admin/v1${url}`, ADMIN_TOKEN, body);
          if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
          return res.body;
        };
        const account = await admin('/accounts/', { name: 'documents across processes', features: ['booking'] });
        const creds = await admin(`/accounts/${account.account_uuid}/credentials/`);
        await admin(`/accounts/${account.account_uuid}/carrier-configs/`, {
          carrier_id: 'sandbx',
          carrier_reference: 'sb',
          booking: ['outbound'],
        });
        const token = await issueToken(a.url, creds.client_id, creds.client_secret);

        // The sandbox answers with HTTP 299: the label is rendered later, by the worker of process A.
        const created = await call(
          a,
          'POST',
          '/v5/shipment/',
          token,
          bookableShipment('ACROSS-1', { shipping_service: 'sandbox_delayed_label' }),
        );
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const booked = await call(a, 'POST', '/v5/booking/', token, {
          shipment_uuid: created.body.data.shipment_uuid,
          carrier_reference: 'sb',
        });
        expect(booked.status, JSON.stringify(booked.body)).toBe(299);
        const documentUuid = booked.body.data.documents[0].document_uuid as string;
        const documentPath = `/v5/shipments/documents/${documentUuid}/`;

        let fromA: { base64_content: string | null; download_url: string | null } = { base64_content: null, download_url: null };
        const deadline = Date.now() + 30_000;
        while (fromA.base64_content === null && Date.now() < deadline) {
          await sleep(250);
          fromA = (await call(a, 'GET', documentPath, token)).body.data;
        }
        expect(fromA.base64_content, `the label was not rendered by process A: ${a.diagnostics}`).not.toBeNull();
        expect(
          Buffer.from(fromA.base64_content as string, 'base64')
            .subarray(0, 5)
            .toString(),
        ).toBe('%PDF-');

        // Process B: the same database, its own (empty) data directory, started after the label was ready.
        await b.start();
        const fromB = await call(b, 'GET', documentPath, token);
        expect(fromB.status, JSON.stringify(fromB.body)).toBe(200);
        expect(fromB.body.data.base64_content).toBe(fromA.base64_content);

        for (const link of [fromA.download_url, fromB.body.data.download_url]) {
          expect(link).toMatch(/\/files\/documents\/.+\?expires=\d+&signature=/);
          const { pathname, search } = new URL(link as string);
          const download = await fetch(`${b.url}${pathname}${search}`);
          expect(download.status).toBe(200);
          expect(download.headers.get('content-type')).toBe('application/pdf');
          expect(Buffer.from(await download.arrayBuffer()).toString('base64')).toBe(fromA.base64_content);
        }
        expect(fs.existsSync(path.join(dataDirs[1], 'files'))).toBe(false);
      } finally {
        await b.stop();
        await a.stop();
        await database.drop();
        for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

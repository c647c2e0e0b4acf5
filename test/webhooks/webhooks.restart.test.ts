import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/app.js';
import { Receiver } from './receiver.js';

const root = path.resolve(import.meta.dirname, '../..');

/** The real service as a child process, killed with SIGKILL. */
function startService(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), 'start'], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn', WAYBILL_BANNER: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return child;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
}

describe.skipIf(usingPostgres)('webhook delivery survives a crash between commit and delivery', () => {
  let receiver: Receiver;
  let dataDir: string;
  beforeAll(async () => {
    receiver = await new Receiver().start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-crash-'));
  });
  afterAll(async () => {
    await receiver.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers after a restart what was committed before the kill', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const env = {
      WAYBILL_DATA_DIR: dataDir,
      PORT: String(port),
      WAYBILL_ADMIN_TOKEN: 'wbadm_crash_test_token',
      WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true',
      // The kill may land while the first delivery attempt holds its job: it is taken over when the lease ends.
      WAYBILL_JOB_LEASE_SECONDS: '3',
    };
    const base = `http://127.0.0.1:${port}`;
    const admin = (method: string, url: string, body?: unknown) =>
      fetch(`${base}/admin/v1${url}`, {
        method,
        headers: { authorization: 'Bearer wbadm_crash_test_token', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then((r) => r.json());

    let child = startService(env);
    await waitFor(async () => (await fetch(`${base}/healthz`)).ok);
    const account = await admin('POST', '/accounts/', { name: 'crash' });
    const creds = await admin('POST', `/accounts/${account.account_uuid}/credentials/`);
    const endpoint = await admin('POST', `/accounts/${account.account_uuid}/webhooks/`, { url: receiver.url });
    expect(endpoint.secret).toBeDefined();
    // The receiver refuses everything before the kill: nothing is delivered then.
    receiver.status = 500;
    const token = (
      await fetch(`${base}/auth/oauth/token/`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${creds.client_id}:${creds.client_secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      }).then((r) => r.json())
    ).access_token;
    const created = await fetch(`${base}/v5/shipment/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ shipment_id: 'CRASH-1' }),
    });
    expect(created.status).toBe(200);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    receiver.status = 200;
    child = startService(env);
    try {
      await waitFor(async () => receiver.received.some((r) => r.json.data?.shipment_id === 'CRASH-1' && r.answered === 200), 30_000);
    } finally {
      child.kill('SIGKILL');
    }
    const deliveries = receiver.received.filter((r) => r.json.data?.shipment_id === 'CRASH-1');
    expect(deliveries.filter((d) => d.answered === 200)).toHaveLength(1);
    // Every attempt, before and after the kill, carried the same event id.
    expect(new Set(deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
  }, 60_000);
});

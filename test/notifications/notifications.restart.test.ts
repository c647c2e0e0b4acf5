import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/app.js';
import { SmtpSink } from './smtp-sink.js';

const root = path.resolve(import.meta.dirname, '../..');

function startService(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), 'start'], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn', WAYBILL_BANNER: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
}

/**
 * The real service as a child process, killed with SIGKILL while its SMTP server holds messages unanswered:
 * after a restart every message goes out, a message caught mid-send goes out again with the same Message-ID,
 * and a further clean run sends nothing twice.
 */
describe.skipIf(usingPostgres)('consumer e-mail across a SIGKILL mid-send', () => {
  let smtp: SmtpSink;
  let dataDir: string;
  let child: ChildProcess | null = null;
  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-notify-crash-'));
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await smtp.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends every message at least once, with one Message-ID each, and no duplicate after a clean run', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const env = {
      WAYBILL_DATA_DIR: dataDir,
      PORT: String(port),
      WAYBILL_ADMIN_TOKEN: 'wbadm_notify_crash_token',
      WAYBILL_SMTP_URL: smtp.url,
      WAYBILL_SMTP_FROM: 'Updates <updates@waybill.test>',
      WAYBILL_JOB_LEASE_SECONDS: '3',
    };
    const base = `http://localhost:${port}`;
    const admin = (method: string, url: string, body?: unknown) =>
      fetch(`${base}/admin/v1${url}`, {
        method,
        headers: { authorization: 'Bearer wbadm_notify_crash_token', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then((r) => r.json());

    child = startService(env);
    await waitFor(async () => (await fetch(`${base}/healthz`)).ok);
    const account = await admin('POST', '/accounts/', { name: 'Fleur & Co' });
    const creds = await admin('POST', `/accounts/${account.account_uuid}/credentials/`);
    await admin('POST', `/accounts/${account.account_uuid}/carrier-configs/`, { carrier_id: 'sandbx', carrier_reference: 'sb' });
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

    smtp.stall = true;
    const recipients = Array.from({ length: 6 }, (_, i) => `crash${i}@example.com`);
    for (const [i, email] of recipients.entries()) {
      const res = await fetch(`${base}/v5/shipment/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          shipment_id: `crash-${i}`,
          tracking_number: `WB430000${i}`,
          carrier_reference: 'sb',
          notification_email: [email],
        }),
      });
      expect(res.status).toBe(200);
    }
    // At least one message is on the wire, unanswered, when the process dies.
    await waitFor(() => smtp.stalled.length > 0);
    child.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    const caught = [...smtp.stalled];
    smtp.stall = false;

    child = startService(env);
    await waitFor(() => recipients.every((r) => smtp.to(r).length > 0), 60_000);
    for (const mail of caught) {
      const [resent] = smtp.to(mail.to[0]);
      expect(resent.mail.messageId).toBe(mail.mail.messageId);
    }
    // A clean run after everything was sent: nothing more goes out.
    await new Promise((r) => setTimeout(r, 5_000));
    for (const r of recipients) expect(smtp.to(r)).toHaveLength(1);
    const ids = recipients.map((r) => smtp.to(r)[0].mail.messageId);
    expect(new Set(ids).size).toBe(recipients.length);
    child.kill('SIGTERM');
    await new Promise((resolve) => child?.once('exit', resolve));
    child = null;
  }, 120_000);
});

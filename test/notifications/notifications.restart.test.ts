import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/app.js';
import { freePort, startWaybill, stopWaybill, type WaybillProcess, waitFor, waitHealthy } from '../scale/processes.js';
import { SmtpSink } from './smtp-sink.js';

/**
 * The real service as a child process, killed with SIGKILL while its SMTP server holds messages unanswered:
 * after a restart every message goes out, a message caught mid-send goes out again with the same Message-ID,
 * and a further clean run sends nothing twice.
 */
describe.skipIf(usingPostgres)('consumer e-mail across a SIGKILL mid-send', () => {
  let smtp: SmtpSink;
  let dataDir: string;
  let service: WaybillProcess | null = null;
  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-notify-crash-'));
  });
  afterAll(async () => {
    if (service) await stopWaybill(service, 'SIGKILL');
    await smtp.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends every message at least once, with one Message-ID each, and no duplicate after a clean run', async () => {
    const port = await freePort();
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

    service = startWaybill(['start'], env);
    await waitHealthy(base, service);
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
    await waitFor('a message on the wire', () => smtp.stalled.length > 0);
    await stopWaybill(service, 'SIGKILL');
    const caught = [...smtp.stalled];
    smtp.stall = false;

    service = startWaybill(['start'], env);
    await waitFor('every message sent', () => recipients.every((r) => smtp.to(r).length > 0), 60_000);
    for (const mail of caught) {
      const [resent] = smtp.to(mail.to[0]);
      expect(resent.mail.messageId).toBe(mail.mail.messageId);
    }
    // A clean run after everything was sent: nothing more goes out.
    await new Promise((r) => setTimeout(r, 5_000));
    for (const r of recipients) expect(smtp.to(r)).toHaveLength(1);
    const ids = recipients.map((r) => smtp.to(r)[0].mail.messageId);
    expect(new Set(ids).size).toBe(recipients.length);
    await stopWaybill(service);
    service = null;
  }, 120_000);
});

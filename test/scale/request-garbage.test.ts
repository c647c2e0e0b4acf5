import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fullShipment } from '../shipments/fixtures.js';
import { apiClient } from './api-client.js';
import { freePort, startWaybill, stopWaybill, type WaybillProcess, waitHealthy } from './processes.js';

/** Bytes each young collection moved to the old generation, from the lines `--trace-gc-nvp` prints after it. */
function promotedByScavenges(lines: string[]): number[] {
  return lines.filter((line) => / gc=s /.test(line)).map((line) => Number(/ promoted=(\d+)/.exec(line)?.[1] ?? Number.NaN));
}

/**
 * What writes leave behind in the service's memory. A request's objects (its body, headers, reply, the query
 * layer's transaction) are garbage once it is answered; were something long-lived to hold them through the next
 * young collections, each would be copied to the old generation and stay there until a full collection: 6.5 KB a
 * create did so when a weak map kept each body's reply as its value (a young collection holds a weak map's values
 * as strongly as any reference, and the reply holds the body, its key). Measured on the real service over
 * keep-alive connections, as merchants send them (SQLite, its own data directory).
 */
describe.skipIf(Boolean(process.env.DATABASE_URL))('the garbage of writes (in the SQLite pass)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-garbage-'));
  let proc: WaybillProcess | null = null;
  afterAll(async () => {
    if (proc) await stopWaybill(proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('dies young: creates and updates promote little to the old generation', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const adminToken = `wbadm_${randomBytes(16).toString('hex')}`;
    proc = startWaybill(
      ['serve'],
      {
        PORT: String(port),
        WAYBILL_DATA_DIR: dataDir,
        WAYBILL_ADMIN_TOKEN: adminToken,
        WAYBILL_SECRET_KEY: randomBytes(32).toString('base64'),
        WAYBILL_RATE_LIMIT_PER_SECOND: '100000',
      },
      ['--trace-gc-nvp'],
    );
    await waitHealthy(base, proc);
    const { token } = await apiClient(base, adminToken).merchant();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    let sent = 0;
    /** Creates up to the `count`th, each followed by an update of the shipment, from 8 clients at once. */
    const writes = async (count: number) => {
      const lane = async () => {
        while (sent < count) {
          const id = `G-${sent++}`;
          const created = await fetch(`${base}/v5/shipment/`, { method: 'POST', headers, body: JSON.stringify(fullShipment(id)) });
          expect(created.status).toBe(200);
          const uuid = (await created.json()).data.shipment_uuid;
          const updated = await fetch(`${base}/v5/shipment/update/?shipment_uuid=${uuid}`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ shipment_reference: `U-${id}` }),
          });
          expect(updated.status).toBe(200);
          await updated.arrayBuffer();
        }
      };
      await Promise.all(Array.from({ length: 8 }, lane));
    };

    const warmUp = 400;
    const measured = 1_200;
    await writes(warmUp);
    const before = promotedByScavenges(proc.output).length;
    await writes(warmUp + measured);
    const promoted = promotedByScavenges(proc.output).slice(before);
    // Enough young collections to tell: each write allocates tens of kilobytes.
    expect(promoted.length).toBeGreaterThanOrEqual(5);
    // 5.6 KB a write while each request was held by its body's weak map entry, 0.9 KB since (docs/performance.md).
    const perWrite = promoted.reduce((a, b) => a + b, 0) / (2 * measured);
    expect(perWrite, `${promoted.length} young collections promoted ${promoted.join(', ')} bytes`).toBeLessThan(2_000);
  });
});

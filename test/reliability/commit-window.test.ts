import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { apiClient, type Merchant } from '../scale/api-client.js';
import { freePort, startWaybill, stopWaybill, type WaybillProcess, waitHealthy } from '../scale/processes.js';

/**
 * The embedded database's commit window, in the service as it runs (`waybill serve`, real sockets, a host name): while
 * write requests overlap, a commit waits for more to share it; a write with none beside it commits at once. The window is a second
 * here, so that a commit that waited for it shows in the time a request takes.
 */
describe.skipIf(Boolean(process.env.DATABASE_URL))('commits shared by the write requests in flight (embedded SQLite)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-commit-window-'));
  const adminToken = `wbadm_${randomBytes(16).toString('hex')}`;
  let proc: WaybillProcess;
  let base = '';
  let merchant: Merchant;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    proc = startWaybill(['serve'], {
      WAYBILL_DATA_DIR: dataDir,
      WAYBILL_ADMIN_TOKEN: adminToken,
      WAYBILL_SQLITE_COMMIT_WINDOW_MS: '1000',
      WAYBILL_RATE_LIMIT_PER_SECOND: '100000',
      DATABASE_URL: '',
      REDIS_URL: '',
      PORT: String(port),
      HOST: 'localhost',
    });
    await waitHealthy(base, proc, 60_000);
    merchant = await apiClient(base, adminToken).merchant();
  }, 90_000);

  afterAll(async () => {
    if (proc) await stopWaybill(proc, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Transactions and commits the process has made so far (its /metrics). */
  async function commitCounts(): Promise<{ transactions: number; commits: number }> {
    const text = await (await fetch(`${base}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
    return { transactions: value('waybill_sqlite_transactions_total'), commits: value('waybill_sqlite_commits_total') };
  }

  /** Whether another connection to the file sees the shipment: only what is committed. */
  function committed(shipmentUuid: string): boolean {
    const reader = new Database(path.join(dataDir, 'waybill.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return reader.prepare('select 1 from shipments where shipment_uuid = ?').get(shipmentUuid) !== undefined;
    } finally {
      reader.close();
    }
  }

  /** The shipment_ids another connection to the file sees: only what is committed. */
  function committedIds(): string[] {
    const reader = new Database(path.join(dataDir, 'waybill.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return (reader.prepare('select shipment_id from shipments').all() as Array<{ shipment_id: string }>).map((row) => row.shipment_id);
    } finally {
      reader.close();
    }
  }

  async function create(shipmentId: string): Promise<{ status: number; shipmentUuid: string; ms: number }> {
    const started = performance.now();
    const res = await fetch(`${base}/v5/shipment/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchant.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ shipment_id: shipmentId, tags: ['window'], order_id: `O-${shipmentId}` }),
    });
    const body = (await res.json()) as { data?: { shipment_uuid: string } };
    return { status: res.status, shipmentUuid: body.data?.shipment_uuid ?? '', ms: performance.now() - started };
  }

  it('shows the window it was started with in /metrics', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toMatch(/^waybill_sqlite_commit_window_seconds 1$/m);
  });

  it('commits a create alone at once when no other write is in flight', async () => {
    const before = await commitCounts();
    for (let i = 0; i < 5; i++) {
      const created = await create(`ALONE-${i}`);
      expect(created.status).toBe(200);
      // A commit that waited for the window would have taken a second.
      expect(created.ms).toBeLessThan(500);
      expect(committed(created.shipmentUuid)).toBe(true);
    }
    const after = await commitCounts();
    expect(after.transactions - before.transactions).toBe(5);
    expect(after.commits - before.commits).toBe(5);
  });

  it('answers reads at once while a commit waits for its window, with nothing of the writes it holds until they are answered', async () => {
    const existing = await create('BESIDE-EXISTING');
    expect(existing.status).toBe(200);
    const headers = { authorization: `Bearer ${merchant.token}` };
    const listed = async () => {
      const res = await fetch(`${base}/v5/shipment/list/?limit=100`, { headers });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: Array<{ shipment_id: string }> }).data.map((s) => s.shipment_id);
    };
    const held = (ids: string[]) => ids.filter((id) => id.startsWith('BESIDE-HELD-')).sort();
    expect(await listed()).toContain('BESIDE-EXISTING');
    // Creates at once: those that overlap share a commit that waits for the window (a second), its transaction open
    // meanwhile (the first may have committed alone before the next arrived).
    const ids = Array.from({ length: 5 }, (_, i) => `BESIDE-HELD-${i}`);
    const creates = Promise.all(ids.map((id) => create(id)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    const details = await fetch(`${base}/v5-2-0/shipment/details/?shipment_uuid=${existing.shipmentUuid}`, { headers });
    const page = await listed();
    const elapsed = performance.now() - started;
    const committedThen = held(committedIds());
    // Read on the second connection, from the last commit: not held for the window, and without what it holds.
    expect(committedThen.length).toBeLessThan(ids.length);
    expect(elapsed).toBeLessThan(500);
    expect(details.status).toBe(200);
    expect(((await details.json()) as { data: { shipment_id: string } }).data.shipment_id).toBe('BESIDE-EXISTING');
    expect(page).toContain('BESIDE-EXISTING');
    expect(held(page)).toEqual(committedThen);
    expect((await creates).map((c) => c.status)).toEqual(Array(ids.length).fill(200));
    // Answered, so committed: the page read beside them is not answered again.
    expect(held(await listed())).toEqual(ids);
  });

  it('shares commits among creates sent together, answers each only once it is committed, and keeps all', async () => {
    const before = await commitCounts();
    const seenCommitted: boolean[] = [];
    const results = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const created = await create(`TOGETHER-${i}`);
        // Read from another connection as the answer arrives: the answer never comes before the commit.
        seenCommitted.push(created.status === 200 && committed(created.shipmentUuid));
        return created;
      }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(40).fill(200));
    expect(seenCommitted).toEqual(Array(40).fill(true));
    const after = await commitCounts();
    expect(after.transactions - before.transactions).toBe(40);
    expect(after.commits - before.commits).toBeLessThan(40);
  });
});

describe('WAYBILL_SQLITE_COMMIT_WINDOW_MS', () => {
  it('is 3 ms unless set, 0 turns it off, and anything but 0-1,000 ms is refused', () => {
    expect(loadConfig({}).sqliteCommitWindowMs).toBe(3);
    expect(loadConfig({ WAYBILL_SQLITE_COMMIT_WINDOW_MS: '0' }).sqliteCommitWindowMs).toBe(0);
    expect(() => loadConfig({ WAYBILL_SQLITE_COMMIT_WINDOW_MS: '1001' })).toThrow(ConfigError);
    expect(() => loadConfig({ WAYBILL_SQLITE_COMMIT_WINDOW_MS: '2.5' })).toThrow(/WAYBILL_SQLITE_COMMIT_WINDOW_MS/);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../src/cli/import-client.js';
import { type ServiceAddress, serviceAddress } from '../../src/cli/service-address.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('waybill import shipments (client of the import endpoint)', () => {
  let t: TestApp;
  let acct: TestAccount;
  let service: ServiceAddress;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-import-'));
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account();
    service = serviceAddress({ WAYBILL_URL: await t.app.listen({ port: 0, host: '127.0.0.1' }) });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('sends a CSV file in chunks, reports rows by their place in the file, and resumes by skipping what exists', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => `cli-${i},"Line ${i}\nsecond line"`);
    rows[17] = 'cli-17,"x",extra';
    const file = write('ship.csv', ['shipment_id,note', ...rows].join('\n'));
    // An interrupted run: only the first 10 rows made it.
    const partial = write('partial.csv', ['shipment_id,note', ...rows.slice(0, 10)].join('\n'));
    expect(
      (await importFile({ service, clientId: acct.clientId, clientSecret: acct.clientSecret, file: partial, chunkRows: 4 })).created,
    ).toBe(10);

    const seen: number[] = [];
    let total = 0;
    const result = await importFile({
      service,
      clientId: acct.clientId,
      clientSecret: acct.clientSecret,
      file,
      chunkRows: 4,
      progress: { start: (n) => (total = n), advance: (done) => seen.push(done), stop: () => undefined },
    });
    expect(total).toBe(25);
    expect(seen).toEqual([4, 8, 12, 16, 20, 24, 25]);
    expect(result.rows).toBe(25);
    expect(result.created).toBe(14);
    expect(result.skipped.map((s) => s.shipment_id)).toEqual(Array.from({ length: 10 }, (_, i) => `cli-${i}`));
    expect(result.skipped[9]).toEqual({ row: 10, line: 20, shipment_id: 'cli-9' });
    // Row 18 starts on line 2 + 17 * 2 (each earlier record spans two lines).
    expect(result.errors).toEqual([
      { row: 18, line: 36, shipment_id: 'cli-17', errors: { non_field_errors: ['This row has 3 cells; the header has 2.'] } },
    ]);
    const stored = await t.as(acct)('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'cli-24' });
    expect(stored.json().data).toMatchObject({ source: 'file upload', note: 'Line 24\nsecond line' });
  });

  it('sends JSON Lines files', async () => {
    const file = write(
      'ship.jsonl',
      `${JSON.stringify({ shipment_id: 'cli-jl-1' })}\n\n${JSON.stringify({ shipment_id: 'cli-jl-2', bad: 1 })}\n`,
    );
    const result = await importFile({ service, clientId: acct.clientId, clientSecret: acct.clientSecret, file });
    expect(result.created).toBe(1);
    expect(result.errors).toEqual([{ row: 2, line: 3, shipment_id: 'cli-jl-2', errors: { bad: ['Unknown field.'] } }]);
  });

  it('stops on wrong credentials', async () => {
    const file = write('one.csv', 'shipment_id\nnever\n');
    await expect(importFile({ service, clientId: acct.clientId, clientSecret: 'wrong', file })).rejects.toThrow(/token refused: 403/);
  });
});

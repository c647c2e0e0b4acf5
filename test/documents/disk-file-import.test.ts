import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentFileRow, DocumentFilesRepository } from '../../src/db/repositories/document-files.repository.js';
import { importDiskFiles } from '../../src/documents/disk-file-import.js';
import { FilesystemFileStore } from '../../src/documents/file-store.js';
import { signPath } from '../../src/documents/signed-url.js';
import { bookableShipment, createShipment } from '../booking/fixtures.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/** Files written by the former disk store (`<data dir>/files`) are moved into the database. */
describe("moving the disk store's files into the database", () => {
  it('happens at start-up: a proof of delivery on disk before the upgrade is served by its signed link, and the folder is set aside', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-upgrade-'));
    const shipmentUuid = randomUUID();
    const proof = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(20_000, 3)]);
    const legacy = new FilesystemFileStore(path.join(dataDir, 'files'));
    await legacy.put(`pod/${shipmentUuid}`, proof, 'image/png');
    await legacy.put('documents/0f0e0d0c-0b0a-4909-8807-060504030201.zpl', Buffer.from('^XA^XZ'), 'application/x-zpl');
    let t: TestApp | undefined;
    try {
      t = await createTestApp({ env: { WAYBILL_DATA_DIR: dataDir } });
      const link = signPath(`/files/pod/${shipmentUuid}/`, t.context.secrets.urlKey, new Date(t.clock.now().getTime() + 60_000));
      const res = await t.app.inject({ method: 'GET', url: link });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.equals(proof)).toBe(true);
      const zpl = await t.context.files.get('documents/0f0e0d0c-0b0a-4909-8807-060504030201.zpl');
      expect(zpl?.contentType).toBe('application/x-zpl');
      expect(Buffer.from(zpl!.bytes).toString()).toBe('^XA^XZ');
      const left = fs.readdirSync(dataDir).filter((name) => name.startsWith('files'));
      expect(left).toEqual([expect.stringMatching(/^files\.imported-\d{4}-\d{2}-\d{2}T/)]);
    } finally {
      await t?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('on a running service', () => {
    let t: TestApp;
    let acct: TestAccount;
    let dir: string;
    beforeAll(async () => {
      t = await createTestApp();
      acct = await t.account({ features: ['booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
    });
    afterAll(() => t.close());
    const freshDir = () => {
      dir = fs.mkdtempSync(path.join(t.config.dataDir, 'legacy-'));
      return path.join(dir, 'files');
    };

    it('a label stored on disk is answered with its content once imported', async () => {
      const uuid = await createShipment(t, acct.token, bookableShipment('IMPORT-1'));
      const booked = await t.call(acct.token, 'POST', '/v5/booking/', { shipment_uuid: uuid, carrier_reference: 'sb' });
      expect(booked.statusCode, booked.body).toBe(200);
      const document = booked.json().data.documents[0];
      const row = await t.context.repos.documents.findByUuidAnyAccount(document.document_uuid);
      const key = row!.file_key!;
      // As the disk store had it: the file on disk, not in the database.
      const root = freshDir();
      await new FilesystemFileStore(root).put(key, Buffer.from(document.base64_content, 'base64'), 'application/pdf');
      await t.context.files.delete(key);
      const url = `/v5/shipments/documents/${document.document_uuid}/`;
      expect((await t.call(acct.token, 'GET', url)).json().data.base64_content).toBeNull();

      const result = await importDiskFiles(root, t.context.repos.documentFiles, () => t.clock.now());
      expect(result).toMatchObject({ imported: 1, alreadyStored: 0, unreadable: [] });
      expect((await t.call(acct.token, 'GET', url)).json().data.base64_content).toBe(document.base64_content);
      const link = new URL(document.download_url);
      const download = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.toString('base64')).toBe(document.base64_content);
      expect(fs.existsSync(root)).toBe(false);
      expect(result?.movedTo).toMatch(/files\.imported-/);
      expect(fs.existsSync(result!.movedTo!)).toBe(true);
    });

    it('a run cut short leaves the folder, and the next run stores the rest without touching what is stored', async () => {
      const root = freshDir();
      const legacy = new FilesystemFileStore(root);
      const keys = Array.from({ length: 150 }, (_, i) => `documents/cut-${String(i).padStart(3, '0')}.zpl`);
      for (const key of keys) await legacy.put(key, Buffer.from(`^XA${key}^XZ`), 'application/x-zpl');
      // Stored since (by the new code): newer than the disk's copy, which must not replace it.
      await t.context.files.put(keys[149], Buffer.from('newer'), 'application/x-zpl');

      let batches = 0;
      const failing = {
        insertMissing: (rows: DocumentFileRow[]) => {
          if (++batches === 2) return Promise.reject(new Error('process killed'));
          return t.context.repos.documentFiles.insertMissing(rows);
        },
      } as unknown as DocumentFilesRepository;
      await expect(importDiskFiles(root, failing, () => t.clock.now())).rejects.toThrow('process killed');
      expect(fs.existsSync(root)).toBe(true);
      expect(await t.context.files.get(keys[0])).not.toBeNull();
      expect(await t.context.files.get(keys[100])).toBeNull();

      const again = await importDiskFiles(root, t.context.repos.documentFiles, () => t.clock.now());
      expect(again).toMatchObject({ imported: 149 - 64, alreadyStored: 64 + 1, unreadable: [] });
      for (const key of keys.slice(0, 149)) expect(Buffer.from((await t.context.files.get(key))!.bytes).toString()).toBe(`^XA${key}^XZ`);
      expect(Buffer.from((await t.context.files.get(keys[149]))!.bytes).toString()).toBe('newer');
      // Twice: the folder is gone, so there is nothing to do.
      expect(await importDiskFiles(root, t.context.repos.documentFiles, () => t.clock.now())).toBeNull();
    });

    it("leaves behind files not in the store's format, skips temporary files, and moves an empty folder aside", async () => {
      const root = freshDir();
      await new FilesystemFileStore(root).put('pod/good', Buffer.from('ok'), 'text/plain');
      fs.writeFileSync(path.join(root, 'pod', 'not-ours'), 'plain bytes');
      fs.writeFileSync(path.join(root, 'pod', '.good.1234.tmp'), 'half a write');
      const result = await importDiskFiles(root, t.context.repos.documentFiles, () => t.clock.now());
      expect(result).toMatchObject({ imported: 1, unreadable: ['pod/not-ours'] });
      expect(await t.context.files.get('pod/not-ours')).toBeNull();
      expect(fs.readFileSync(path.join(result!.movedTo!, 'pod', 'not-ours'), 'utf8')).toBe('plain bytes');

      const empty = freshDir();
      fs.mkdirSync(empty);
      expect(await importDiskFiles(empty, t.context.repos.documentFiles, () => t.clock.now())).toMatchObject({ imported: 0 });
      expect(fs.existsSync(empty)).toBe(false);
    });
  });
});

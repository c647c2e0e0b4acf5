import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertSafeKey, FileStoreKeyError, FilesystemFileStore } from '../../src/documents/file-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('FilesystemFileStore', () => {
  let root: string;
  let store: FilesystemFileStore;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'waybill-files-'));
    store = new FilesystemFileStore(path.join(root, 'store'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('round-trips bytes and content type, overwrites, and deletes', async () => {
    const bytes = new Uint8Array([0, 1, 2, 10, 255]);
    await store.put('labels/acc-1/doc-1.pdf', bytes, 'application/pdf');
    expect(await store.get('labels/acc-1/doc-1.pdf')).toEqual({ bytes: Buffer.from(bytes), contentType: 'application/pdf' });

    await store.put('labels/acc-1/doc-1.pdf', Buffer.from('^XA^XZ'), 'application/x-zpl');
    const replaced = await store.get('labels/acc-1/doc-1.pdf');
    expect(replaced?.contentType).toBe('application/x-zpl');
    expect(Buffer.from(replaced!.bytes).toString()).toBe('^XA^XZ');
    // no temporary files are left behind
    expect(await readdir(path.join(root, 'store/labels/acc-1'))).toEqual(['doc-1.pdf']);

    expect(await store.delete('labels/acc-1/doc-1.pdf')).toBe(true);
    expect(await store.delete('labels/acc-1/doc-1.pdf')).toBe(false);
    expect(await store.get('labels/acc-1/doc-1.pdf')).toBeNull();
    expect(await store.get('labels/never/was.pdf')).toBeNull();
  });

  it('refuses keys that could leave the root or collide with temporary files', async () => {
    for (const key of [
      '../escape',
      'a/../../escape',
      '/etc/passwd',
      'a//b',
      'a/./b',
      '.hidden',
      'a\\b',
      'a/b/',
      '',
      'x'.repeat(600),
      'a/..',
      'ünïcode',
    ]) {
      await expect(store.put(key, new Uint8Array([1]), 'text/plain'), key).rejects.toBeInstanceOf(FileStoreKeyError);
      await expect(store.get(key), key).rejects.toBeInstanceOf(FileStoreKeyError);
      await expect(store.delete(key), key).rejects.toBeInstanceOf(FileStoreKeyError);
    }
    await expect(stat(path.join(root, 'escape'))).rejects.toThrow();
    expect(() => assertSafeKey('labels/2026/01/3f1c-label.v2.pdf')).not.toThrow();
  });

  it('refuses content types that would corrupt the stored header', async () => {
    await expect(store.put('a.txt', new Uint8Array([1]), 'text/plain\nX')).rejects.toBeInstanceOf(FileStoreKeyError);
    await expect(store.put('a.txt', new Uint8Array([1]), 'text/plain; charset=utf-8')).resolves.toBeUndefined();
  });
});

describe("DatabaseFileStore (the service's store)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('round-trips bytes and content type, overwrites, and deletes, with nothing written to the data directory', async () => {
    const store = t.context.files;
    const bytes = new Uint8Array([0, 1, 2, 10, 255, 0]);
    await store.put('documents/doc-1.pdf', bytes, 'application/pdf');
    const stored = await store.get('documents/doc-1.pdf');
    expect(stored?.contentType).toBe('application/pdf');
    expect(Buffer.from(stored!.bytes).equals(Buffer.from(bytes))).toBe(true);

    // A view into a larger buffer stores only the viewed bytes.
    const backing = Buffer.from('xx^XA^XZyy');
    await store.put('documents/doc-1.pdf', new Uint8Array(backing.buffer, backing.byteOffset + 2, 6), 'application/x-zpl');
    const replaced = await store.get('documents/doc-1.pdf');
    expect(replaced?.contentType).toBe('application/x-zpl');
    expect(Buffer.from(replaced!.bytes).toString()).toBe('^XA^XZ');

    const label = Buffer.alloc(60_000, 7);
    await store.put('pod/0b6a4d5e-3c2f-4e8a-9d1b-2f4e6a8c0d1e', label, 'image/png');
    expect(Buffer.from((await store.get('pod/0b6a4d5e-3c2f-4e8a-9d1b-2f4e6a8c0d1e'))!.bytes).equals(label)).toBe(true);

    expect(await store.delete('documents/doc-1.pdf')).toBe(true);
    expect(await store.delete('documents/doc-1.pdf')).toBe(false);
    expect(await store.get('documents/doc-1.pdf')).toBeNull();
    expect(await store.get('documents/never-was.pdf')).toBeNull();
    await expect(stat(path.join(t.config.dataDir, 'files'))).rejects.toThrow();
  });

  it('refuses the keys and content types the disk store refuses', async () => {
    const store = t.context.files;
    for (const key of ['../escape', '/etc/passwd', 'a//b', '.hidden', 'a\\b', '', 'x'.repeat(600), 'ünïcode']) {
      await expect(store.put(key, new Uint8Array([1]), 'text/plain'), key).rejects.toBeInstanceOf(FileStoreKeyError);
      await expect(store.get(key), key).rejects.toBeInstanceOf(FileStoreKeyError);
      await expect(store.delete(key), key).rejects.toBeInstanceOf(FileStoreKeyError);
    }
    await expect(store.put('a.txt', new Uint8Array([1]), 'text/plain\nX')).rejects.toBeInstanceOf(FileStoreKeyError);
    expect(await store.get('a.txt')).toBeNull();
  });
});

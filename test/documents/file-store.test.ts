import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertSafeKey, FileStoreKeyError, FilesystemFileStore } from '../../src/documents/file-store.js';

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

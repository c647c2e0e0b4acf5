import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/** A stored file's bytes and the content type it was stored with. */
export interface StoredFile {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * Where rendered documents are kept. Keys are `/`-separated segments of letters, digits, `.`, `_` and `-`
 * (each starting with a letter or digit), so the same key works on a filesystem and as an S3 object key.
 * The service keeps them in the database (`DatabaseFileStore`), so every process serves what any of them
 * stored; {@link FilesystemFileStore} is the former store, still read to move its files in.
 */
export interface FileStore {
  /** Stores `bytes` under `key`, replacing any earlier file; readers see the old file or the new one, never a part. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The file under `key`, or null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes the file under `key`; true when there was one. */
  delete(key: string): Promise<boolean>;
}

/** Thrown for a key or content type a store refuses (path traversal, odd characters). */
export class FileStoreKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileStoreKeyError';
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const CONTENT_TYPE = /^[A-Za-z0-9][\w.+-]*\/[A-Za-z0-9][\w.+-]*(?:; ?[\w.-]+=[\w.-]+)*$/;
const MAX_KEY_LENGTH = 512;
const MAX_DEPTH = 8;

/** Throws FileStoreKeyError unless `key` is a safe store key (see {@link FileStore}). */
export function assertSafeKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new FileStoreKeyError(`key must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  const segments = key.split('/');
  if (segments.length > MAX_DEPTH) throw new FileStoreKeyError(`key may have at most ${MAX_DEPTH} segments`);
  for (const segment of segments) {
    if (!SEGMENT.test(segment) || segment.includes('..')) {
      throw new FileStoreKeyError(`key segment ${JSON.stringify(segment)} is not allowed`);
    }
  }
}

/** Throws FileStoreKeyError unless `contentType` is a plain media type (it is stored beside the bytes and sent back as a header). */
export function assertSafeContentType(contentType: string): void {
  if (typeof contentType !== 'string' || !CONTENT_TYPE.test(contentType) || contentType.length > 255)
    throw new FileStoreKeyError('content type is not allowed');
}

// A stored file is one file: magic, content type, newline, bytes. One file means one rename, so the
// content type can never disagree with the bytes after a crash or a concurrent overwrite.
const MAGIC = Buffer.from('WBFILE1\n', 'ascii');

/**
 * A {@link FileStore} in a directory. Writes go to a temporary file in the target directory, are flushed
 * to disk, then renamed over the target (atomic on POSIX filesystems). Temporary names start with a dot,
 * which no key segment can, so they never collide with stored files.
 */
export class FilesystemFileStore implements FileStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const target = this.pathOf(key);
    assertSafeContentType(contentType);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(Buffer.concat([MAGIC, Buffer.from(`${contentType}\n`, 'ascii'), bytes]));
      await handle.sync();
    } catch (error) {
      await handle.close();
      await unlink(temporary).catch(() => {});
      throw error;
    }
    await handle.close();
    try {
      await rename(temporary, target);
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw error;
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    let data: Buffer;
    try {
      data = await readFile(this.pathOf(key));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    const newline = data.indexOf(0x0a, MAGIC.length);
    if (!data.subarray(0, MAGIC.length).equals(MAGIC) || newline < 0) throw new Error(`stored file ${key} is not in the store's format`);
    return { contentType: data.subarray(MAGIC.length, newline).toString('ascii'), bytes: data.subarray(newline + 1) };
  }

  async delete(key: string): Promise<boolean> {
    try {
      await unlink(this.pathOf(key));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** The absolute file path of a key; refuses anything that would leave the root. */
  private pathOf(key: string): string {
    assertSafeKey(key);
    const resolved = path.resolve(this.root, ...key.split('/'));
    if (!resolved.startsWith(this.root + path.sep)) throw new FileStoreKeyError('key resolves outside the store');
    return resolved;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

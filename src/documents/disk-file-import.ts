import type { Dirent } from 'node:fs';
import { readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { DocumentFileRow, DocumentFilesRepository } from '../db/repositories/document-files.repository.js';
import { assertSafeContentType, assertSafeKey, FilesystemFileStore } from './file-store.js';

/** What one import did; `movedTo` is where the folder went (null when another process moved it first). */
export interface DiskFileImport {
  imported: number;
  /** Files already in the database (stored since, or by an earlier run cut short). */
  alreadyStored: number;
  /** Keys of files left behind: not a store key, or not in the store's format. */
  unreadable: string[];
  movedTo: string | null;
}

const BATCH_FILES = 64;
const BATCH_BYTES = 4 * 1_048_576;

/**
 * Moves the files of the former disk store (`<data dir>/files`) into the database, where every process finds
 * them. Files are stored in batches, each one statement, and only under keys that have no file yet (one stored
 * since is newer). When every file has been read, the folder is renamed `files.imported-<time>`, so later starts
 * skip it; the operator deletes it once a backup of the database holds the files. Safe to run twice, by several
 * processes at once, and after a crash half-way: the folder stays in place until a run has read all of it.
 * Resolves with null when there is no folder to import.
 */
export async function importDiskFiles(dir: string, files: DocumentFilesRepository, now: () => Date): Promise<DiskFileImport | null> {
  const disk = new FilesystemFileStore(dir);
  const result: DiskFileImport = { imported: 0, alreadyStored: 0, unreadable: [], movedTo: null };
  let batch: DocumentFileRow[] = [];
  let batchBytes = 0;
  const flush = async () => {
    const stored = await files.insertMissing(batch);
    result.imported += stored.length;
    result.alreadyStored += batch.length - stored.length;
    batch = [];
    batchBytes = 0;
  };
  let found = false;
  for await (const key of keysUnder(disk.root, [])) {
    found = true;
    const file = await readStoredFile(disk, key);
    if (file === 'unreadable') result.unreadable.push(key);
    else if (file) {
      batch.push({ file_key: key, content_type: file.contentType, bytes: file.bytes, stored_at: now().toISOString() });
      batchBytes += file.bytes.byteLength;
      if (batch.length >= BATCH_FILES || batchBytes >= BATCH_BYTES) await flush();
    }
  }
  if (!found && !(await exists(disk.root))) return null;
  await flush();
  const target = `${disk.root}.imported-${now().toISOString().replace(/[:.]/g, '-')}`;
  try {
    await rename(disk.root, target);
    result.movedTo = target;
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  return result;
}

/** The file under `key`, null when it went away meanwhile, or 'unreadable'. */
async function readStoredFile(disk: FilesystemFileStore, key: string) {
  try {
    assertSafeKey(key);
    const file = await disk.get(key);
    if (file) assertSafeContentType(file.contentType);
    return file;
  } catch (error) {
    // A disk that fails to read stops the import (the next start tries again); a file not of the store is left behind.
    if ((error as NodeJS.ErrnoException).code) throw error;
    return 'unreadable' as const;
  }
}

/** Store keys of the files below `root` (temporary files of interrupted writes start with a dot and are left out). */
async function* keysUnder(root: string, segments: string[]): AsyncGenerator<string> {
  let entries: Dirent[];
  try {
    entries = await readdir(path.join(root, ...segments), { withFileTypes: true });
  } catch (error) {
    // Gone: another process finished the import and moved the folder.
    if (isMissing(error)) return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) yield* keysUnder(root, [...segments, entry.name]);
    else if (entry.isFile()) yield [...segments, entry.name].join('/');
  }
}

async function exists(dir: string): Promise<boolean> {
  try {
    await readdir(dir);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Runs {@link importDiskFiles} on `<dataDir>/files` at start-up and logs what it moved and what it left behind. */
export async function moveDiskFilesIn(dataDir: string, files: DocumentFilesRepository, now: () => Date, log: Logger): Promise<void> {
  const dir = path.join(dataDir, 'files');
  const result = await importDiskFiles(dir, files, now);
  if (!result) return;
  const { imported, alreadyStored, unreadable, movedTo } = result;
  log.info({ from: dir, imported, alreadyStored, movedTo }, 'document files moved from the data directory into the database');
  if (unreadable.length > 0)
    log.warn(
      { count: unreadable.length, keys: unreadable.slice(0, 20), movedTo },
      'files not in the file store format were left in the folder',
    );
}

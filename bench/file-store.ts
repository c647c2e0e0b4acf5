/**
 * What storing and serving a document costs in each file store: a rendered PDF and PNG label and a 64 KiB image (as the booking path stores
 * it) written, then read back (as a download does), through the former disk store (a file per label, flushed
 * with fsync, renamed into place) and the database store on SQLite (commits synced, the service's default) and
 * on PostgreSQL, in the same run on the same disk. One writer after another, then `CONCURRENCY` at once.
 * Run: node --import tsx bench/file-store.ts [labels]
 * PostgreSQL: a fresh database on the server of BENCH_DATABASE_URL or DATABASE_URL (left out when none answers).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { systemClock } from '../src/clock.js';
import { type DatabaseHandle, openDatabase } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { DocumentFilesRepository } from '../src/db/repositories/document-files.repository.js';
import { DatabaseFileStore } from '../src/documents/database-file-store.js';
import { type FileStore, FilesystemFileStore } from '../src/documents/file-store.js';
import { LABEL_CONTENT_TYPES } from '../src/documents/label.types.js';
import { renderLabel } from '../src/documents/label-renderer.js';
import { freshPostgresDatabase } from './postgres.js';
import { sampleLabel } from './scenarios/labels.js';

const LABELS = Number(process.argv[2] ?? 500);
const CONCURRENCY = 8;

interface Figures {
  store: string;
  serialMs: number;
  concurrentMs: number;
}

/** Mean wall time per label for put + get, one at a time and CONCURRENCY at once. */
async function measure(store: string, files: FileStore, label: Uint8Array, contentType: string): Promise<Figures> {
  const once = async () => {
    const key = `documents/${randomUUID()}`;
    await files.put(key, label, contentType);
    const read = await files.get(key);
    if (read?.bytes.byteLength !== label.byteLength) throw new Error(`${store}: read back ${read?.bytes.byteLength} bytes`);
  };
  for (let i = 0; i < 50; i++) await once();
  let start = process.hrtime.bigint();
  for (let i = 0; i < LABELS; i++) await once();
  const serialMs = Number(process.hrtime.bigint() - start) / 1e6 / LABELS;
  start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = 0; i < LABELS / CONCURRENCY; i++) await once();
    }),
  );
  const concurrentMs = Number(process.hrtime.bigint() - start) / 1e6 / LABELS;
  return { store, serialMs, concurrentMs };
}

/** The database store on a migrated database. */
async function databaseStore(handle: DatabaseHandle): Promise<FileStore> {
  await migrateToLatest(handle.db, handle.dialect === 'postgres' ? 'public' : undefined);
  return new DatabaseFileStore(new DocumentFilesRepository(handle.db), systemClock);
}

const LABEL_INPUT = sampleLabel(42);

async function main(): Promise<void> {
  fs.mkdirSync('data', { recursive: true });
  const dir = fs.mkdtempSync(path.join('data', 'file-store-bench-'));
  const sqlite = openDatabase({ dataDir: dir, databaseUrl: null, sqliteSynchronous: 'full' });
  const postgres = await freshPostgresDatabase().catch((error: Error) => {
    process.stdout.write(`PostgreSQL left out: ${error.message}\n`);
    return null;
  });
  const postgresHandle = postgres ? openDatabase({ dataDir: dir, databaseUrl: postgres.url }) : null;
  try {
    // The disk store first: it is the baseline the ratios are against.
    const stores: Array<[string, FileStore]> = [
      ['disk (baseline)', new FilesystemFileStore(path.join(dir, 'files'))],
      ['database, SQLite', await databaseStore(sqlite)],
      ...(postgresHandle ? [['database, PostgreSQL', await databaseStore(postgresHandle)] as [string, FileStore]] : []),
    ];
    const samples = [
      { name: 'PDF label', bytes: (await renderLabel(LABEL_INPUT, 'pdf')).bytes, contentType: LABEL_CONTENT_TYPES.pdf },
      { name: 'PNG label', bytes: (await renderLabel(LABEL_INPUT, 'png')).bytes, contentType: LABEL_CONTENT_TYPES.png },
      // A proof of delivery: a photo the carrier took, as large as they come (incompressible).
      { name: 'proof-of-delivery image', bytes: randomBytes(64 * 1024), contentType: 'image/jpeg' },
    ];
    for (const { name, bytes, contentType } of samples) {
      const results: Figures[] = [];
      for (const [store, files] of stores) results.push(await measure(store, files, bytes, contentType));
      const [baseline] = results;
      process.stdout.write(`${LABELS} × ${name}, ${bytes.byteLength.toLocaleString('en-US')} bytes: put + get each\n`);
      for (const r of results) {
        const ratio = (ms: number, base: number) => (r === baseline ? '' : ` (${(ms / base).toFixed(2)}x)`);
        process.stdout.write(
          `  ${r.store.padEnd(22)} one at a time ${r.serialMs.toFixed(3)} ms${ratio(r.serialMs, baseline.serialMs)}, ` +
            `${CONCURRENCY} at once ${r.concurrentMs.toFixed(3)} ms each${ratio(r.concurrentMs, baseline.concurrentMs)}\n`,
        );
      }
    }
  } finally {
    await sqlite.close();
    if (postgresHandle) {
      await postgresHandle.close();
      // The pool's end resolves before its connections are closed; dropping the database at once would cut them.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await postgres?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * How often the checkpointer copies the write-ahead log back into the database file. A page written several
 * times between two checkpoints is copied once: the poller rewrites the same index pages many times a second,
 * and at one checkpoint a second instead of four it spends 4–16% less CPU per poll (docs/performance-history.md). A
 * second of the poller's writes (~20 MB) stays far below the automatic checkpoint's backstop (64 MiB).
 */
const INTERVAL_MS = 1000;

/**
 * The checkpointer's thread: its own connection to the file, a PASSIVE checkpoint on a timer. A PASSIVE
 * checkpoint never waits for, nor blocks, readers and writers of other connections; whatever it could not
 * copy this time it copies next time.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another process checkpoints) or closing: the next tick tries again.
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Keeps SQLite's write-ahead log short without putting the copy on a request's or a claim's path. SQLite
 * checkpoints automatically in the commit that crosses its threshold, and that commit then copies
 * thousands of pages and syncs the file (hundreds of milliseconds on a large database). With the automatic
 * threshold raised far out of the way, this thread checkpoints continuously on a connection of its own.
 */
export class WalCheckpointer {
  private readonly worker: Worker;

  constructor(file: string, intervalMs = INTERVAL_MS) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(SOURCE, { eval: true, workerData: { file, driver, intervalMs }, execArgv: [] });
    // Never keeps the process alive on its own.
    this.worker.unref();
  }

  /** Stops the timer and closes the thread's connection. */
  async close(): Promise<void> {
    // Held while closing, so that a caller awaiting this is not left behind by an exiting event loop.
    this.worker.ref();
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('close');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2_000)))]);
    clearTimeout(timer);
    await this.worker.terminate();
  }
}

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
 * Frames in the log (32 MiB of 4 KiB pages) from which the checkpointer asks for the writes to be held while it
 * copies, so that the next write starts the log again from its start.
 */
const RESTART_FRAMES = 8192;

/** How long writes stay held for the checkpointer at most, should its thread not answer. */
const HOLD_LIMIT_MS = 1000;

/**
 * The checkpointer's thread: its own connection to the file, a PASSIVE checkpoint on a timer. A PASSIVE
 * checkpoint never waits for, nor blocks, readers and writers of other connections; whatever it could not
 * copy this time it copies next time.
 *
 * SQLite starts the log again from its start only when a write transaction begins with every frame of it copied
 * (and the database file synced, which a checkpoint does only when no commit came while it copied): under writes
 * that never pause, that moment does not come. The log then grew to the automatic checkpoint's threshold, and
 * that checkpoint ran in a commit of the writing connection, on the event loop: 19–30 ms every 3–6 s at 2,000
 * mixed requests a second (docs/performance.md). So once the log holds `restartFrames` frames, the thread asks the
 * writing connection's owner to hold its writes ('quiet'), copies while they are held, and answers ('copied'); the
 * next write then starts the log again.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
let asked = false;
const checkpoint = () => {
  try {
    return db.pragma('wal_checkpoint(PASSIVE)')[0];
  } catch {
    // Busy (another process checkpoints) or closing: the next tick tries again.
    return null;
  }
};
const timer = setInterval(() => {
  // Copies on while its request waits for the writing connection's turn (a long lease of it).
  const done = checkpoint();
  if (!asked && done && done.log >= workerData.restartFrames) {
    asked = true;
    parentPort.postMessage('quiet');
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'held') {
    checkpoint();
    asked = false;
    parentPort.postMessage('copied');
    return;
  }
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
  /** Ends the hold of writes under way, once the thread has copied (or the hold's limit is reached). */
  private release: (() => void) | null = null;
  private closing = false;

  constructor(
    file: string,
    options: {
      intervalMs?: number;
      /** Holds the writing connection's writes while `copy` runs (see SOURCE); without it, writes are never held. */
      holdWrites?: (copy: () => Promise<void>) => Promise<void>;
      /** Frames in the log from which the thread asks for a hold (RESTART_FRAMES; a test asks sooner). */
      restartFrames?: number;
    } = {},
  ) {
    const { intervalMs = INTERVAL_MS, holdWrites } = options;
    const restartFrames = holdWrites ? (options.restartFrames ?? RESTART_FRAMES) : Number.POSITIVE_INFINITY;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(SOURCE, { eval: true, workerData: { file, driver, intervalMs, restartFrames }, execArgv: [] });
    // Never keeps the process alive on its own.
    this.worker.unref();
    this.worker.on('message', (message) => {
      if (message === 'quiet' && holdWrites) void holdWrites(() => this.copyHeld()).catch(() => {});
      else if (message === 'copied') this.release?.();
    });
  }

  /** Asks the thread to copy while writes are held; resolves once it has, or after HOLD_LIMIT_MS. */
  private copyHeld(): Promise<void> {
    if (this.closing) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const limit = setTimeout(() => this.release?.(), HOLD_LIMIT_MS);
      this.release = () => {
        clearTimeout(limit);
        this.release = null;
        resolve();
      };
      this.worker.postMessage('held');
    });
  }

  /** Stops the timer and closes the thread's connection. */
  async close(): Promise<void> {
    this.closing = true;
    this.release?.();
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

import { Piscina } from 'piscina';
import type { LogoTask } from './logo-worker.js';
import { workerModule } from './worker-module.js';

/** Checks waiting for the thread beyond which another is refused (LogoChecksBusyError) rather than queued. */
const MAX_WAITING = 8;
/** How long the thread stays after its last check, for the next upload (ms). */
const IDLE_MS = 30_000;

/** The logo-check thread has MAX_WAITING checks waiting: the upload may be sent again in a moment. */
export class LogoChecksBusyError extends Error {
  constructor() {
    super('Uploaded logos are being checked for other requests; send the logo again in a moment');
    this.name = 'LogoChecksBusyError';
  }
}

/**
 * Checks uploaded logos (logoProblem) on a thread of their own. Decoding a whole PNG is pure JavaScript and, for a
 * logo at the size limit, takes hundreds of milliseconds: on the request's thread it would stop every other request
 * of the process for that long. One thread, started at the first upload and ended after IDLE_MS without one; at most
 * MAX_WAITING checks wait for it, so that uploads sent in a loop cost one core at most and never queue without end.
 */
export class LogoChecks {
  private pool: Piscina<LogoTask, string | null> | null = null;
  private closed = false;

  /** Why `bytes` are not a logo of `contentType`, or null when they are one (logo-image.ts). */
  async problem(bytes: Uint8Array, contentType: string): Promise<string | null> {
    if (this.closed) throw new Error('LogoChecks is closed');
    this.pool ??= this.start();
    const pool = this.pool;
    if (pool.queueSize >= MAX_WAITING) throw new LogoChecksBusyError();
    return pool.run({ bytes, contentType });
  }

  /** Lets waiting checks finish, then ends the thread. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
  }

  private start(): Piscina<LogoTask, string | null> {
    const worker = workerModule('logo-worker', import.meta.url);
    return new Piscina({
      filename: worker.filename,
      execArgv: worker.execArgv,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: IDLE_MS,
      concurrentTasksPerWorker: 1,
    });
  }
}

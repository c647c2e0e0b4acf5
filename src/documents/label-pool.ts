import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { type LabelFormat, type LabelInput, LabelInputError, type RenderedLabel } from './label.types.js';
import type { LabelTask, LabelTaskResult } from './label-worker.js';
import { workerModule } from './worker-module.js';

export interface LabelRenderPoolOptions {
  /** Number of threads; defaults to the number of cores the process may use. */
  threads?: number;
  /** Renders waiting for a thread before {@link LabelRenderPool.render} rejects at once; default unbounded. */
  maxQueue?: number;
}

/**
 * Renders labels on a fixed set of worker threads so that PDF, ZPL and PNG rendering never blocks the
 * event loop. Threads start with the pool and stay warm until {@link close}.
 *
 * @example
 * const pool = new LabelRenderPool();
 * const label = await pool.render(input, 'pdf');
 * await fileStore.put(`labels/${uuid}.${label.extension}`, label.bytes, label.contentType);
 * await pool.close();
 */
export class LabelRenderPool {
  readonly threads: number;
  private readonly piscina: Piscina<LabelTask, LabelTaskResult>;
  private closed = false;

  constructor(options: LabelRenderPoolOptions = {}) {
    this.threads = Math.max(1, options.threads ?? availableParallelism());
    const worker = workerModule('label-worker', import.meta.url);
    this.piscina = new Piscina({
      filename: worker.filename,
      execArgv: worker.execArgv,
      minThreads: this.threads,
      maxThreads: this.threads,
      maxQueue: options.maxQueue ?? Number.POSITIVE_INFINITY,
      // one thread per core: running several renders per thread would only interleave CPU work
      concurrentTasksPerWorker: 1,
    });
  }

  /**
   * Renders one label on a pool thread. Rejects with LabelInputError for input that cannot be printed,
   * with an AbortError when `signal` aborts before the render started, and once the pool is closed.
   */
  async render(input: LabelInput, format: LabelFormat, options: { signal?: AbortSignal } = {}): Promise<RenderedLabel> {
    if (this.closed) throw new Error('LabelRenderPool is closed');
    const result = await this.piscina.run({ input, format }, { signal: options.signal ?? null });
    if (!result.ok) throw new LabelInputError(result.field, result.message.replace(`${result.field}: `, ''));
    // structured clone turns a Buffer into a plain Uint8Array; keep the Buffer view callers expect from Node APIs
    const { bytes } = result.label;
    return { ...result.label, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  }

  /** Renders waiting for a free thread. */
  get queueSize(): number {
    return this.piscina.queueSize;
  }

  /** Renders completed since the pool started. */
  get completed(): number {
    return this.piscina.completed;
  }

  /** Lets queued and running renders finish, then stops the threads. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.piscina.close();
  }
}

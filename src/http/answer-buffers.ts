import type { ServerResponse } from 'node:http';

/**
 * Answers smaller than this are joined by `Buffer.concat` in Node's shared 8 KiB pool (what `Buffer.allocUnsafe`
 * takes from below 4 KiB): they cost no memory outside V8's heap.
 */
const SMALLEST = 4 * 1024;

/**
 * Buffers for answers joined from kept renderings (list pages, details with a signed link, v5 details), used
 * again once an answer has been written instead of allocated for each.
 *
 * A buffer of 4 KiB or more lives outside V8's heap, and V8 counts what such buffers add up to since its last full
 * collection: a list page is about 117 KB, and at a few hundred pages a second those allocations alone started
 * a collection of the whole heap every second or so (docs/performance.md, "list pages without a buffer each").
 *
 * A buffer is lent to one answer and taken back when the response emits `finish`: Node has then handed the last
 * byte to the operating system, and nothing refers to it any more. An answer cut off (`close` without `finish`)
 * never gives its buffer back, since a write may still hold it; the collector frees it. Sizes are powers of two,
 * and at most `keptBytes` wait for reuse.
 */
export class AnswerBuffers {
  private readonly free = new Map<number, Buffer[]>();
  private freeBytes = 0;

  constructor(private readonly keptBytes = 16 * 1024 * 1024) {}

  /** `parts` joined, in a buffer lent to `res` until it is written. */
  join(res: ServerResponse, parts: readonly Uint8Array[]): Buffer {
    let size = 0;
    for (const part of parts) size += part.length;
    if (size < SMALLEST) return Buffer.concat(parts, size);
    const block = this.take(size);
    let at = 0;
    for (const part of parts) {
      block.set(part, at);
      at += part.length;
    }
    res.once('finish', () => this.give(block));
    return block.subarray(0, size);
  }

  /** Bytes waiting for reuse (for tests). */
  get waiting(): number {
    return this.freeBytes;
  }

  private take(size: number): Buffer {
    const capacity = 2 ** Math.ceil(Math.log2(size));
    const block = this.free.get(capacity)?.pop();
    if (!block) return Buffer.allocUnsafeSlow(capacity);
    this.freeBytes -= capacity;
    return block;
  }

  private give(block: Buffer): void {
    if (this.freeBytes + block.length > this.keptBytes) return;
    let blocks = this.free.get(block.length);
    if (!blocks) {
      blocks = [];
      this.free.set(block.length, blocks);
    }
    blocks.push(block);
    this.freeBytes += block.length;
  }
}

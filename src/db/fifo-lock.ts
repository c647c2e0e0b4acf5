/**
 * A lock handed to its waiters one at a time, in the order they asked: `unlock` wakes the next waiter only, and
 * it holds the lock when it resumes. (The query layer's own SQLite mutex wakes every waiter at each release, and
 * all but one go back to waiting: with a queue of N reads, N² resumptions and their promises.)
 */
export class FifoLock {
  private held = false;
  private waiters: Array<() => void> = [];
  /** The first waiter not yet woken (waiters are dropped in chunks, not shifted one by one). */
  private next = 0;

  /** Resolves once the caller holds the lock. */
  lock(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Hands the lock to the longest waiter, or frees it. */
  unlock(): void {
    if (this.next < this.waiters.length) {
      const wake = this.waiters[this.next++];
      if (this.next >= 1024 && this.next * 2 >= this.waiters.length) {
        this.waiters = this.waiters.slice(this.next);
        this.next = 0;
      }
      wake();
      return;
    }
    this.waiters = [];
    this.next = 0;
    this.held = false;
  }

  /** How many callers wait for the lock. */
  get waiting(): number {
    return this.waiters.length - this.next;
  }
}

import { describe, expect, it } from 'vitest';
import { FifoLock } from '../../src/db/fifo-lock.js';

describe('FifoLock: the SQLite connection handed to its waiters one at a time, in order', () => {
  it('gives the lock at once when free, then to each waiter in the order it asked, one per unlock', async () => {
    const lock = new FifoLock();
    await lock.lock();
    const order: number[] = [];
    const waiting = [0, 1, 2, 3, 4].map((i) => lock.lock().then(() => order.push(i)));
    await Promise.resolve();
    expect(lock.waiting).toBe(5);
    for (let i = 0; i < 5; i++) {
      lock.unlock();
      // Let the woken waiter (and only it) run.
      for (let k = 0; k < 5; k++) await Promise.resolve();
      expect(order).toEqual([0, 1, 2, 3, 4].slice(0, i + 1));
      expect(lock.waiting).toBe(4 - i);
    }
    await Promise.all(waiting);
    // The last holder's unlock frees it: the next caller gets it at once.
    lock.unlock();
    let got = false;
    void lock.lock().then(() => {
      got = true;
    });
    await Promise.resolve();
    expect(got).toBe(true);
  });

  it('keeps the order over more waiters than it drops at a time', async () => {
    const lock = new FifoLock();
    await lock.lock();
    const order: number[] = [];
    const count = 5_000;
    const all = Array.from({ length: count }, (_, i) =>
      lock.lock().then(() => {
        order.push(i);
        lock.unlock();
      }),
    );
    lock.unlock();
    await Promise.all(all);
    expect(order).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(lock.waiting).toBe(0);
  });
});

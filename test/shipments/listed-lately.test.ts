import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { ListedLately } from '../../src/domain/shipments/listed-lately.js';

describe('accounts that listed lately', () => {
  it('counts an account for the window after its last list page, to the millisecond', () => {
    const clock = new ManualClock('2026-12-01T10:00:00.000Z');
    const listed = new ListedLately(clock, 15 * 60_000);
    expect(listed.has(1)).toBe(false);
    listed.note(1);
    clock.advance(15 * 60_000);
    expect(listed.has(1)).toBe(true);
    clock.advance(1);
    expect(listed.has(1)).toBe(false);
    // A later page starts the window again.
    listed.note(1);
    clock.advance(10 * 60_000);
    expect(listed.has(1)).toBe(true);
  });

  it('starts over when a new account would pass the bound, and not for one it holds', () => {
    const clock = new ManualClock();
    const listed = new ListedLately(clock, 60_000, 3);
    for (const account of [1, 2, 3]) listed.note(account);
    // Already held: noted again, nothing forgotten.
    listed.note(2);
    expect([1, 2, 3].map((account) => listed.has(account))).toEqual([true, true, true]);
    listed.note(4);
    expect(listed.size).toBe(1);
    expect([1, 2, 3, 4].map((account) => listed.has(account))).toEqual([false, false, false, true]);
  });
});

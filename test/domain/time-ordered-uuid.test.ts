import { describe, expect, it, vi } from 'vitest';
import { timeOrderedUuid } from '../../src/core/time-ordered-uuid.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisecondsOf = (uuid: string) => Number.parseInt(uuid.replaceAll('-', '').slice(0, 12), 16);
const counterOf = (uuid: string) => Number.parseInt(uuid.slice(15, 18), 16);

describe('timeOrderedUuid', () => {
  it('is version 7 with the variant of RFC 9562, and carries the millisecond it was made in', () => {
    const before = Date.now();
    const uuid = timeOrderedUuid();
    expect(uuid).toMatch(V7);
    expect(millisecondsOf(uuid)).toBeGreaterThanOrEqual(before);
    expect(millisecondsOf(uuid)).toBeLessThanOrEqual(Date.now());
  });

  it('grows from one to the next, many in one millisecond, and never repeats', () => {
    const made = Array.from({ length: 20_000 }, () => timeOrderedUuid());
    for (let k = 1; k < made.length; k++) expect(made[k] > made[k - 1], `${made[k - 1]} then ${made[k]}`).toBe(true);
    expect(new Set(made).size).toBe(made.length);
    for (const uuid of made) expect(uuid).toMatch(V7);
  });

  it('keeps growing when the clock steps back, and moves to the next millisecond when the counter runs out', () => {
    const at = Date.now() + 60_000;
    const first = timeOrderedUuid(at);
    const stepped = timeOrderedUuid(at - 5_000);
    expect(stepped > first).toBe(true);
    expect(millisecondsOf(stepped)).toBe(at);
    expect(counterOf(stepped)).toBe(counterOf(first) + 1);
    // A new millisecond's counter starts below 2,048: 4,096 more in that millisecond must carry over into the next.
    const made = Array.from({ length: 4_096 }, () => timeOrderedUuid(at));
    expect(millisecondsOf(made.at(-1) as string)).toBe(at + 1);
    for (let k = 1; k < made.length; k++) expect(made[k] > made[k - 1]).toBe(true);
    expect(timeOrderedUuid(at + 1) > (made.at(-1) as string)).toBe(true);
  });

  it('starts each new millisecond at a random counter below 2,048', () => {
    const base = Date.now() + 120_000;
    const counters = Array.from({ length: 200 }, (_, k) => counterOf(timeOrderedUuid(base + k * 10)));
    expect(Math.max(...counters)).toBeLessThan(2048);
    expect(new Set(counters).size).toBeGreaterThan(150);
  });

  it('writes every hex digit of the millisecond, leading zeros of both halves of its 48 bits too', async () => {
    // A module of its own: these milliseconds, in the year 2876, would move the clock of every UUID made after them.
    vi.resetModules();
    const { timeOrderedUuid: fresh } = await import('../../src/core/time-ordered-uuid.js');
    for (const at of [0x1a0000000005, 0x1a0000100000, 0x1a00ffffffff, 0x1b0f00000abc]) {
      const uuid = fresh(at);
      expect(uuid).toMatch(V7);
      expect(millisecondsOf(uuid)).toBe(at);
    }
  });
});

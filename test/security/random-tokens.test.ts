import { describe, expect, it } from 'vitest';
import { randomToken } from '../../src/secrets.js';

describe('random tokens', () => {
  it('are as long as asked and never repeat, across refills of the pool they are drawn from', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3_000; i++) {
      const bytes = [16, 24, 32, 300][i % 4];
      const token = randomToken(bytes);
      expect(Buffer.from(token, 'base64url')).toHaveLength(bytes);
      seen.add(token);
    }
    expect(seen.size).toBe(3_000);
  });

  it('do not share bytes with one another', () => {
    // A pool handing out the same bytes twice would show as two tokens with a long common run.
    const tokens = Array.from({ length: 1_000 }, () => Buffer.from(randomToken(16), 'base64url').toString('hex'));
    const runs = new Map<string, number>();
    for (const token of tokens)
      for (let at = 0; at + 16 <= token.length; at += 2) {
        const run = token.slice(at, at + 16);
        runs.set(run, (runs.get(run) ?? 0) + 1);
      }
    expect(Math.max(...runs.values())).toBe(1);
  });
});

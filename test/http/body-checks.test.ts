import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, mayHoldLargeNumber, nestsDeeperThan } from '../../src/http/body-parser.js';

const bytes = (text: string) => Buffer.from(text);
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('how deep a JSON body nests', () => {
  it('reads the deepest level, at the limit and one past it', () => {
    expect(nestsDeeperThan(bytes(nested(MAX_BODY_DEPTH)), MAX_BODY_DEPTH)).toBe(false);
    expect(nestsDeeperThan(bytes(nested(MAX_BODY_DEPTH + 1)), MAX_BODY_DEPTH)).toBe(true);
    expect(nestsDeeperThan(bytes(`[${nested(MAX_BODY_DEPTH)}]`), MAX_BODY_DEPTH)).toBe(true);
  });

  it('counts levels, not brackets: many side by side, or inside strings, are one level', () => {
    const sideBySide = `[${Array.from({ length: 100 }, () => '{}').join(',')}]`;
    expect(nestsDeeperThan(bytes(sideBySide), MAX_BODY_DEPTH)).toBe(false);
    const inStrings = `{"a":"${'[{'.repeat(100)}","b":"\\"{[{"}`;
    expect(nestsDeeperThan(bytes(inStrings), MAX_BODY_DEPTH)).toBe(false);
    // A quote escaped inside a string does not end it.
    expect(nestsDeeperThan(bytes(`{"a":"\\"${'['.repeat(40)}"}`), MAX_BODY_DEPTH)).toBe(false);
  });

  it('reads any view of bytes, not only a Buffer', () => {
    const deep = new Uint8Array(bytes(`xx${nested(MAX_BODY_DEPTH + 1)}`)).subarray(2);
    expect(nestsDeeperThan(deep, MAX_BODY_DEPTH)).toBe(true);
    expect(nestsDeeperThan(new Uint8Array(bytes(nested(3))), MAX_BODY_DEPTH)).toBe(false);
  });
});

describe('whether JSON text may hold a number read as infinity', () => {
  /** The expression this check stands for. */
  const expression = /\d[eE]\+?\d{3}|\d{210}/;

  it('finds a large exponent, and a run of 210 digits wherever it starts and ends', () => {
    expect(mayHoldLargeNumber('{"a":1e308}')).toBe(true);
    expect(mayHoldLargeNumber('{"a":2E+400}')).toBe(true);
    expect(mayHoldLargeNumber('{"a":1e30,"b":"e308"}')).toBe(false);
    for (const before of [0, 1, 209, 210, 211, 419, 1000]) {
      for (const length of [209, 210, 211, 420, 631]) {
        const text = `${'x'.repeat(before)}${'7'.repeat(length)}${'x'.repeat(before % 7)}`;
        expect(mayHoldLargeNumber(text), `${before} + ${length}`).toBe(length >= 210);
      }
    }
  });

  it('answers as the expression does on random text of digits and a few other characters', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = '0123456789012345678901234567890123456789eE+ x.-';
    for (let i = 0; i < 3000; i++) {
      const length = Math.floor(random() * 900);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      // Long runs of digits appear only if some are made: every tenth text gets one of 190–230 digits.
      const withRun = i % 10 === 0 ? `${text.slice(0, length >> 1)}${'5'.repeat(190 + (i % 41))}${text.slice(length >> 1)}` : text;
      expect(mayHoldLargeNumber(withRun), withRun).toBe(expression.test(withRun));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, nestsDeeperThan } from '../../src/http/body-parser.js';

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

import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { characterCount, withCharacterLengths } from '../../src/http/string-lengths.js';

/** A small deterministic generator (mulberry32): the same strings in every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('string lengths counted in characters', () => {
  it('counts a surrogate pair as one character and a lone surrogate as one', () => {
    expect(characterCount('')).toBe(0);
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('😀😀')).toBe(2);
    expect(characterCount('a\ud800')).toBe(2);
    expect(characterCount('\udc00\ud800')).toBe(2);
    expect(characterCount('\ud800😀')).toBe(2);
  });

  it("gives the errors Ajv's own maxLength and minLength give, in the same order, for every string tried", () => {
    const next = random(42);
    const pieces = ['x', 'é', '😀', '\ud800', '\udc00', 'a'];
    let tried = 0;
    for (const [min, max] of [
      [0, 0],
      [1, 1],
      [2, 3],
      [3, 3],
      [1, 5],
      [4, 8],
    ]) {
      const schema = { type: 'object', properties: { s: { type: 'string', minLength: min, maxLength: max, pattern: '^x' } } };
      const ours = withCharacterLengths(new Ajv({ allErrors: true })).compile(schema);
      const ajvs = new Ajv({ allErrors: true }).compile(schema);
      for (let i = 0; i < 3000; i++) {
        let text = '';
        const pieceCount = Math.floor(next() * (2 * max + 3));
        for (let p = 0; p < pieceCount; p++) text += pieces[Math.floor(next() * pieces.length)];
        expect(ours({ s: text }), JSON.stringify(text)).toBe(ajvs({ s: text }));
        expect(ours.errors, JSON.stringify(text)).toEqual(ajvs.errors);
        tried++;
      }
    }
    expect(tried).toBe(18_000);
  });
});

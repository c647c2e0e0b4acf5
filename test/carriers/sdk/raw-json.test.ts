import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { elementsOf, memberOf, spanAt, stringOf } from '../../../src/carriers/sdk/raw-json.js';

const raw = (text: string, span: { start: number; end: number } | null) => (span ? text.slice(span.start, span.end) : null);

/** JSON text of a value with whitespace between every token, as a pretty-printing carrier sends it. */
const pretty = (value: unknown) => JSON.stringify(value, null, '\t').replace(/\n/g, '\r\n ');

describe('raw JSON spans: values found in the text without parsing it', () => {
  it('finds members by path and the elements of arrays, as JSON.parse reads them', () => {
    const text = '{ "output" : { "list": [ {"n":"1","x":[1,{"y":"]}"}]} , "two\\"q" , -1.5e3, true, null, [] ], "n": 3 }, "output2": 0 }';
    const list = spanAt(text, ['output', 'list']);
    const elements = elementsOf(text, list) ?? [];
    expect(elements.map((span) => JSON.parse(raw(text, span) as string))).toEqual(JSON.parse(text).output.list);
    expect(stringOf(text, memberOf(text, elements[0], 'n'))).toBe('1');
    expect(stringOf(text, elements[1])).toBe('two"q');
    expect(raw(text, spanAt(text, ['output', 'n']))).toBe('3');
    expect(elementsOf(text, spanAt(text, ['output', 'missing']))).toBeNull();
    expect(stringOf(text, elements[2])).toBeNull();
  });

  it('takes the last of repeated keys, as JSON.parse does', () => {
    const text = '{"a":1,"a":{"b":"2"}}';
    expect(stringOf(text, memberOf(text, spanAt(text, ['a']), 'b'))).toBe('2');
  });

  it('gives null for text that is not JSON where it walks, and never throws', () => {
    for (const text of ['', '{', '{"a":1', '{"a" 1}', '{"a":1,}', '[1,,2]', '{"a":[1,2}', '{"a":"x}', 'null x', '<html>']) {
      expect(() => elementsOf(text, spanAt(text, ['a']))).not.toThrow();
    }
    expect(spanAt('{"a":1', [])).toBeNull();
    expect(spanAt('{"a":1} x', [])).toBeNull();
    expect(elementsOf('[1,,2]', spanAt('[1,,2]', []))).toBeNull();
    expect(memberOf('{"a":1,}', spanAt('{"a":1,}', []), 'a')).toBeNull();
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string(), { maxLength: 3 }), (text, path) => {
        const span = spanAt(text, path);
        elementsOf(text, span);
        stringOf(text, span);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with JSON.parse on any JSON, compact or spread out', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), fc.boolean(), (value, spread) => {
        const text = spread ? pretty(value) : JSON.stringify(value);
        const whole = spanAt(text, []);
        expect(whole).not.toBeNull();
        for (const [key, member] of Object.entries(value)) {
          // JSON.parse keeps an own "__proto__" key; so does the walk (by its text).
          const span = memberOf(text, whole, key);
          expect(JSON.parse(raw(text, span) as string)).toEqual(JSON.parse(JSON.stringify(member)));
          if (Array.isArray(member)) {
            const elements = elementsOf(text, span) ?? [];
            expect(elements.map((element) => JSON.parse(raw(text, element) as string))).toEqual(JSON.parse(JSON.stringify(member)));
          }
          if (typeof member === 'string') expect(stringOf(text, span)).toBe(member);
        }
      }),
      { numRuns: 300 },
    );
  });
});

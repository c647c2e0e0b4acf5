import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { elementsAt, memberOf, type Span, stringOf, wholeOf } from '../../../src/carriers/sdk/raw-json.js';

const raw = (text: string, span: Span | null) => (span ? text.slice(span.start, span.end) : null);
const parsed = (text: string, span: Span | null) => JSON.parse(raw(text, span) as string);

/** JSON text of a value with white space between every token, as a carrier that pretty-prints sends it. */
const spread = (value: unknown) => JSON.stringify(value, null, '\t').replace(/\n/g, '\r\n ');

describe('raw JSON spans: values found in the text without parsing it', () => {
  it('finds the elements of an array by path and the members of objects, as JSON.parse reads them', () => {
    const text =
      ' { "id" : "t-1", "output" : { "list": [ {"n":"1","x":[1,{"y":"]}\\\\"}]} , "two\\"q" , -1.5e3, true, null, [] ], "n": 3 }, "after": 0 } ';
    const elements = elementsAt(text, ['output', 'list']) ?? [];
    expect(elements.map((span) => parsed(text, span))).toEqual(JSON.parse(text).output.list);
    expect(stringOf(text, memberOf(text, elements[0], 'n'))).toBe('1');
    expect(parsed(text, memberOf(text, elements[0], 'x'))).toEqual([1, { y: ']}\\' }]);
    expect(stringOf(text, elements[1])).toBe('two"q');
    expect(stringOf(text, elements[2])).toBeNull();
    expect(memberOf(text, elements[2], 'n')).toBeNull();
    expect(elementsAt(text, ['output', 'missing'])).toBeNull();
    expect(elementsAt(text, ['output', 'n'])).toBeNull();
    expect(elementsAt('[]', [])).toEqual([]);
    expect(raw(text, wholeOf(text))).toBe(text.trim());
    expect(wholeOf(' \n')).toBeNull();
  });

  it("finds no array on a path that names a key twice (JSON.parse keeps the last); a member is its key's first", () => {
    for (const text of ['{"a":[1],"a":[2]}', '{"a":[1],"b":0,"a":{"b":"2"}}', '{"o":{"a":[1],"a":[2]}}', '{"o":{"a":[1]},"o":{"a":[2]}}']) {
      expect(elementsAt(text, text.startsWith('{"o"') ? ['o', 'a'] : ['a']), text).toBeNull();
    }
    // The same key elsewhere than on the path is no repeat.
    const nested = '{"a":[1],"b":{"a":[2]},"c":[{"a":3}]}';
    expect(elementsAt(nested, ['a'])?.map((span) => parsed(nested, span))).toEqual([1]);
    const text = '{"a":1,"b":{"c":"2"},"a":3}';
    expect(parsed(text, memberOf(text, wholeOf(text), 'a'))).toBe(1);
  });

  it('finds no array in a text that is cut short or followed by more, as JSON.parse reads none', () => {
    for (const [text, path] of [
      ['{"output":{"results":[{"n":"1"}]},"alerts":[{"code":"X"', ['output', 'results']],
      ['{"output":{"results":[{"n":"1"}]}', ['output', 'results']],
      ['{"output":{"results":[{"n":"1"}]}} trailing', ['output', 'results']],
      ['{"output":{"results":[{"n":"1"}],}}', ['output', 'results']],
      ['[{"idShip":"A"}] garbage', []],
      ['[{"idShip":"A"}]]', []],
    ] as Array<[string, string[]]>) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(elementsAt(text, path), text).toBeNull();
    }
    const whole = ' {"output":{"results":[{"n":"1"}],"more":{"x":[1,"]"]}} , "z" : null}\n';
    expect(elementsAt(whole, ['output', 'results'])?.map((span) => parsed(whole, span))).toEqual([{ n: '1' }]);
  });

  it('gives null where its walk finds no JSON, and never throws', () => {
    for (const [text, path] of [
      ['', []],
      ['{', ['a']],
      ['{"a" 1}', ['a']],
      ['{"b":1,}', ['a']],
      ['[1,,2]', []],
      ['[1,2', []],
      ['{"a":[1,{"b":2]', ['a']],
      ['{"a":["x]}', ['a']],
      ['<html>', ['a']],
    ] as Array<[string, string[]]>) {
      expect(elementsAt(text, path), text).toBeNull();
    }
    expect(memberOf('{"a":1,}', wholeOf('{"a":1,}'), 'b')).toBeNull();
    expect(memberOf('{"a":"x}', wholeOf('{"a":"x}'), 'a')).toBeNull();
    expect(stringOf('"', wholeOf('"'))).toBeNull();
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string(), { maxLength: 3 }), fc.string(), (text, path, key) => {
        for (const span of elementsAt(text, path) ?? []) {
          stringOf(text, span);
          memberOf(text, span, key);
        }
        stringOf(text, memberOf(text, wholeOf(text), key));
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with JSON.parse on any JSON, compact or spread out', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), fc.boolean(), (value, pretty) => {
        const text = pretty ? spread(value) : JSON.stringify(value);
        const whole = wholeOf(text);
        const expected = JSON.parse(text);
        for (const key of Object.keys(expected)) {
          const span = memberOf(text, whole, key);
          expect(parsed(text, span)).toEqual(expected[key]);
          if (typeof expected[key] === 'string') expect(stringOf(text, span)).toBe(expected[key]);
          if (Array.isArray(expected[key])) {
            expect(elementsAt(text, [key])?.map((element) => parsed(text, element))).toEqual(expected[key]);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

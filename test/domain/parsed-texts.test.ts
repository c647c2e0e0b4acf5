import { describe, expect, it } from 'vitest';
import { ParsedTexts } from '../../src/domain/shipments/parsed-texts.js';

describe('parsed texts', () => {
  it('makes the value of a text once while it is kept, null included, and the oldest text makes way past the capacity', () => {
    const made: string[] = [];
    const texts = new ParsedTexts<unknown>(2, (text) => {
      made.push(text);
      return JSON.parse(text);
    });
    const hub = texts.get('{"place":"Hub"}');
    expect(texts.get('{"place":"Hub"}')).toBe(hub);
    expect(texts.get('null')).toBeNull();
    expect(texts.get('null')).toBeNull();
    expect(made).toEqual(['{"place":"Hub"}', 'null']);
    // A third text: the first, the oldest, is made again when next asked for.
    expect(texts.get('{"place":"Depot"}')).toEqual({ place: 'Depot' });
    expect(texts.size).toBe(2);
    expect(texts.get('{"place":"Hub"}')).toEqual(hub);
    expect(texts.get('{"place":"Hub"}')).not.toBe(hub);
    expect(made).toEqual(['{"place":"Hub"}', 'null', '{"place":"Depot"}', '{"place":"Hub"}']);
  });

  it('keeps nothing for a text whose value cannot be made', () => {
    const texts = new ParsedTexts<unknown>(4, (text) => JSON.parse(text));
    expect(() => texts.get('{not json')).toThrow(SyntaxError);
    expect(texts.size).toBe(0);
  });
});

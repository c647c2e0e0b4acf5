import { describe, expect, it } from 'vitest';
import type { TrackResult } from '../../../src/carriers/carrier.js';
import { KnownAnswers } from '../../../src/carriers/sdk/known-answers.js';
import { elementsAt, memberOf, stringOf } from '../../../src/carriers/sdk/raw-json.js';
import { mapSplitAnswer, type RawEntry } from '../../../src/carriers/sdk/split-answer.js';

const entriesOf = (text: string): RawEntry[] | null =>
  elementsAt(text, ['items'])?.map((span) => ({ number: stringOf(text, memberOf(text, span, 'id')), span })) ?? null;

const body = (...items: string[]) => `{"items":[${items.join(', ')}]}`;

/** Maps what it is given, and records it. */
function mapper() {
  const calls: Array<{ parsed: unknown[]; numbers: string[] }> = [];
  const map = (parsed: unknown[], numbers: string[]): TrackResult[] => {
    calls.push({ parsed, numbers });
    return numbers.map((n) => ({ status: 'ok', tracking_number: n, events: [] }));
  };
  return { calls, map };
}

describe('a batch answer read entry by entry', () => {
  it('fingerprints each entry on its text as received; parses and maps only those that differ from the stored answer', () => {
    const text = body('{"id":"A1","scans":[1]}', '{ "id": "b2", "scans": [2] }', '{"id":"C3","scans":[3]}');
    const first = new KnownAnswers('fdxglb', []);
    const { calls, map } = mapper();
    expect(mapSplitAnswer(text, entriesOf(text), ['A1', 'B2', 'C3'], first, map)?.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(calls[0].numbers).toEqual(['A1', 'B2', 'C3']);
    const probe = new KnownAnswers('fdxglb', []);
    probe.same('B2', '{ "id": "b2", "scans": [2] }');
    expect(first.fingerprintOf('B2')).toBe(probe.fingerprintOf('B2'));

    // A1 as stored, B2 stored from other data, C3 without a stored answer.
    const again = new KnownAnswers('fdxglb', [
      { tracking_number: 'A1', known_answer: first.fingerprintOf('A1') },
      { tracking_number: 'B2', known_answer: 'fdxglb.1:other' },
      { tracking_number: 'C3' },
    ]);
    const second = mapper();
    const results = mapSplitAnswer(text, entriesOf(text), ['A1', 'B2', 'C3'], again, second.map);
    expect(results).toEqual([
      { status: 'unchanged', tracking_number: 'A1' },
      { status: 'ok', tracking_number: 'B2', events: [] },
      { status: 'ok', tracking_number: 'C3', events: [] },
    ]);
    expect(second.calls).toEqual([
      {
        parsed: [
          { id: 'b2', scans: [2] },
          { id: 'C3', scans: [3] },
        ],
        numbers: ['B2', 'C3'],
      },
    ]);
    expect(again.fingerprintOf('A1')).toBe(first.fingerprintOf('A1'));
  });

  it('maps nothing when every entry is as stored', () => {
    const text = body('{"id":"A1"}');
    const probe = new KnownAnswers('lapost', []);
    probe.same('A1', '{"id":"A1"}');
    const known = new KnownAnswers('lapost', [{ tracking_number: 'A1', known_answer: probe.fingerprintOf('A1') }]);
    const { calls, map } = mapper();
    expect(mapSplitAnswer(text, entriesOf(text), ['A1'], known, map)).toEqual([{ status: 'unchanged', tracking_number: 'A1' }]);
    expect(calls).toEqual([]);
  });

  it('leaves the answer to be read whole when a number has no entry of its own, an entry is not JSON, or none are found', () => {
    const known = () => new KnownAnswers('fdxglb', []);
    const missing = body('{"id":"A1"}', '{"pieces":["B2"]}');
    expect(mapSplitAnswer(missing, entriesOf(missing), ['A1', 'B2'], known(), mapper().map)).toBeNull();
    // Brackets balance, so the walk finds the entry; it is not JSON, so it is not read entry by entry.
    const broken = body('{"id":"A1","scans":[1,]}');
    expect(mapSplitAnswer(broken, entriesOf(broken), ['A1'], known(), mapper().map)).toBeNull();
    expect(mapSplitAnswer('<html>', entriesOf('<html>'), ['A1'], known(), mapper().map)).toBeNull();
  });
});

import type { TrackResult } from '../carrier.js';
import { type KnownAnswers, normalize } from './known-answers.js';
import type { Span } from './raw-json.js';

/** One entry of a batch answer, as the carrier sent it, with the number it answers for by its own field (null: none). */
export interface RawEntry {
  number: string | null;
  span: Span;
}

/**
 * A batch answer read number by number: each asked number's entry (the first whose own number it is) is
 * fingerprinted on the text the carrier sent for it. An entry that is the data of the caller's stored answer
 * is answered `unchanged` without being parsed; the others are parsed and mapped by `map` (given the parsed
 * entries, and the numbers they answer for), as the adapter maps a whole answer.
 *
 * Null when the answer cannot be read so: its entries could not be found (`entries` null), an asked number has
 * no entry of its own (an entry may answer for it some other way, e.g. as a piece of another), or an entry is
 * not JSON. The adapter then parses and maps the answer whole. A fingerprint made so covers an entry's whole text:
 * it matches only when the carrier sent the very same bytes for the number again.
 */
export function mapSplitAnswer(
  text: string,
  entries: readonly RawEntry[] | null,
  numbers: readonly string[],
  answers: KnownAnswers,
  map: (parsed: unknown[], numbers: string[]) => TrackResult[] | null,
): TrackResult[] | null {
  if (!entries) return null;
  const byNumber = new Map<string, Span>();
  for (const entry of entries) {
    if (entry.number === null) continue;
    const key = normalize(entry.number);
    if (!byNumber.has(key)) byNumber.set(key, entry.span);
  }
  const results: TrackResult[] = [];
  const parsed: unknown[] = [];
  const rest: string[] = [];
  for (const number of numbers) {
    const span = byNumber.get(normalize(number));
    if (!span) return null;
    const raw = text.slice(span.start, span.end);
    if (answers.same(number, raw)) {
      results.push({ status: 'unchanged', tracking_number: number });
      continue;
    }
    try {
      parsed.push(JSON.parse(raw));
    } catch {
      return null;
    }
    rest.push(number);
  }
  if (rest.length === 0) return results;
  const mapped = map(parsed, rest);
  return mapped ? results.concat(mapped) : null;
}

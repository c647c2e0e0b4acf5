/**
 * Where the values of a JSON text are, found without parsing it: the span of an object's member or of an
 * array's elements. A batch answer is split by number this way, so that each number's entry is fingerprinted on
 * the bytes the carrier sent and only the entries that changed are parsed (src/carriers/sdk/split-answer.ts).
 *
 * Only the path walked is checked (brackets, separators, keys); the values skipped over are not, so a span is
 * JSON only if the text is: the caller parses what it reads, and reads the whole answer when a walk fails.
 */

/** A value's place in the text: `text.slice(start, end)` is the value. */
export interface Span {
  start: number;
  end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** The value at `path` (object members, from the top), or null when the text has none there. */
export function spanAt(text: string, path: readonly string[]): Span | null {
  const start = skipSpace(text, 0);
  const end = skipValue(text, start);
  if (end < 0 || skipSpace(text, end) !== text.length) return null;
  let span: Span | null = { start, end };
  for (const key of path) {
    span = memberOf(text, span, key);
    if (!span) return null;
  }
  return span;
}

/** The value of an object's member `key` (the last, as JSON.parse keeps it), or null when `span` is no object or has none. */
export function memberOf(text: string, span: Span | null, key: string): Span | null {
  if (!span || text.charCodeAt(span.start) !== OPEN_BRACE) return null;
  let found: Span | null = null;
  let i = skipSpace(text, span.start + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return null;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return null;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return null;
    const colon = skipSpace(text, keyEnd);
    if (text.charCodeAt(colon) !== COLON) return null;
    const valueStart = skipSpace(text, colon + 1);
    const valueEnd = skipValue(text, valueStart);
    if (valueEnd < 0) return null;
    if (keyText(text, i, keyEnd) === key) found = { start: valueStart, end: valueEnd };
    i = skipSpace(text, valueEnd);
    const next = text.charCodeAt(i);
    if (next === CLOSE_BRACE) return i + 1 === span.end ? found : null;
    if (next !== COMMA) return null;
    i = skipSpace(text, i + 1);
  }
}

/** The elements of an array, or null when `span` is no array. */
export function elementsOf(text: string, span: Span | null): Span[] | null {
  if (!span || text.charCodeAt(span.start) !== OPEN_BRACKET) return null;
  const elements: Span[] = [];
  let i = skipSpace(text, span.start + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return i + 1 === span.end ? elements : null;
  for (;;) {
    const end = skipValue(text, i);
    if (end < 0) return null;
    elements.push({ start: i, end });
    i = skipSpace(text, end);
    const next = text.charCodeAt(i);
    if (next === CLOSE_BRACKET) return i + 1 === span.end ? elements : null;
    if (next !== COMMA) return null;
    i = skipSpace(text, i + 1);
  }
}

/** The string a span holds, or null when it holds something else (or nothing). */
export function stringOf(text: string, span: Span | null): string | null {
  if (!span || text.charCodeAt(span.start) !== QUOTE) return null;
  const inner = text.slice(span.start + 1, span.end - 1);
  if (!inner.includes('\\')) return inner;
  try {
    const value: unknown = JSON.parse(text.slice(span.start, span.end));
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

function keyText(text: string, start: number, end: number): string | null {
  return stringOf(text, { start, end });
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** The end of the string opening at `i` (just past its closing quote), or -1. */
function skipString(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    for (let k = quote - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The end of the value starting at `i`, or -1 when none does (brackets that do not close, an unended string). */
function skipValue(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return skipString(text, i);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i = skipString(text, i);
        if (i < 0) return -1;
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  // A number, true, false or null: up to the next separator.
  const start = i;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) break;
    i++;
  }
  return i > start ? i : -1;
}

/**
 * Where the values of a JSON text are, found without parsing it: an object's member, the elements of an array.
 * A batch answer is split by number this way, so that each number's entry is fingerprinted on the text the
 * carrier sent and only the entries that changed are parsed (src/carriers/sdk/split-answer.ts).
 *
 * Built for speed over a large answer: a walk reads the text once, and checks only what it walks (brackets,
 * separators, keys). `elementsAt` walks the whole text, so that an answer cut short or followed by more is not
 * read, nor one whose path names a key twice. `memberOf` stops at the first occurrence of its key: JSON.parse
 * would keep the last, which only an answer that names a key twice inside one entry tells apart; such an entry
 * is parsed by the caller when it is not the very text stored, and mapped by what the parse reads. The values
 * a walk passes over are not checked, so a span is JSON only if the text is: the caller parses what it reads
 * from one, and reads the whole answer another way when a walk fails.
 */

/** A value's place in the text: `text.slice(start, end)` is the value. */
export interface Span {
  start: number;
  end: number;
}

// Kept in this module (src/http/body-parser.ts has the same few): read in the scanning loops, constants imported
// from another module made the walk several times slower when run through tsx.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** The whole text as one value (its surrounding white space left out), or null when it is empty. */
export function wholeOf(text: string): Span | null {
  const start = skipSpace(text, 0);
  let end = text.length;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return end > start ? { start, end } : null;
}

/**
 * The elements of the array at `path` (object members from the top of the text), or null when there is none
 * there. The text around the array is walked to its end too: null when it is not one value (cut short, or
 * followed by more), or when an object on the path has the path's key twice (JSON.parse keeps the last one).
 */
export function elementsAt(text: string, path: readonly string[]): Span[] | null {
  let at = skipSpace(text, 0);
  for (const key of path) {
    at = memberStart(text, at, key);
    if (at < 0) return null;
  }
  const array = elementsFrom(text, at);
  if (!array) return null;
  let end = array.end;
  for (let level = path.length - 1; level >= 0 && end >= 0; level--) end = objectEnd(text, end, path[level]);
  return end >= 0 && skipSpace(text, end) === text.length ? array.elements : null;
}

/** The value of an object's member `key`, or null when `span` is no object or has no such member. */
export function memberOf(text: string, span: Span | null, key: string): Span | null {
  if (!span) return null;
  const start = memberStart(text, span.start, key);
  if (start < 0) return null;
  const end = skipValue(text, start);
  return end < 0 || end > span.end ? null : { start, end };
}

/** The string a span holds, or null when it holds something else (or nothing). */
export function stringOf(text: string, span: Span | null): string | null {
  if (!span || text.charCodeAt(span.start) !== QUOTE || text.charCodeAt(span.end - 1) !== QUOTE || span.end - span.start < 2) return null;
  const inner = text.slice(span.start + 1, span.end - 1);
  if (!inner.includes('\\')) return inner;
  try {
    const value: unknown = JSON.parse(text.slice(span.start, span.end));
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** Where the value of member `key` of the object at `at` starts, or -1. */
function memberStart(text: string, at: number, key: string): number {
  if (text.charCodeAt(at) !== OPEN_BRACE) return -1;
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return -1;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return -1;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return -1;
    const colon = skipSpace(text, keyEnd);
    if (text.charCodeAt(colon) !== COLON) return -1;
    const valueStart = skipSpace(text, colon + 1);
    if (stringOf(text, { start: i, end: keyEnd }) === key) return valueStart;
    const valueEnd = skipValue(text, valueStart);
    if (valueEnd < 0) return -1;
    i = skipSpace(text, valueEnd);
    if (text.charCodeAt(i) !== COMMA) return -1;
    i = skipSpace(text, i + 1);
  }
}

/** The elements of the array at `at` and where it ends, or null when there is none there (or it does not close). */
function elementsFrom(text: string, at: number): { elements: Span[]; end: number } | null {
  if (text.charCodeAt(at) !== OPEN_BRACKET) return null;
  const elements: Span[] = [];
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return { elements, end: i + 1 };
  for (;;) {
    const end = skipValue(text, i);
    if (end < 0) return null;
    elements.push({ start: i, end });
    i = skipSpace(text, end);
    const next = text.charCodeAt(i);
    if (next === CLOSE_BRACKET) return { elements, end: i + 1 };
    if (next !== COMMA) return null;
    i = skipSpace(text, i + 1);
  }
}

/**
 * Just past the object whose member `key` has its value end at `at` (the members after it walked), or -1 when
 * the object does not close or names `key` again.
 */
function objectEnd(text: string, at: number, key: string): number {
  let i = skipSpace(text, at);
  for (;;) {
    const next = text.charCodeAt(i);
    if (next === CLOSE_BRACE) return i + 1;
    if (next !== COMMA) return -1;
    i = skipSpace(text, i + 1);
    if (text.charCodeAt(i) !== QUOTE) return -1;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0 || stringOf(text, { start: i, end: keyEnd }) === key) return -1;
    const colon = skipSpace(text, keyEnd);
    if (text.charCodeAt(colon) !== COLON) return -1;
    const valueEnd = skipValue(text, skipSpace(text, colon + 1));
    if (valueEnd < 0) return -1;
    i = skipSpace(text, valueEnd);
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, i: number): number {
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Just past the closing quote of the string opening at `i`, or -1 when it does not close. */
function skipString(text: string, i: number): number {
  const length = text.length;
  for (i++; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/** Just past the value starting at `i`, or -1 when none does (brackets that do not close, a string that does not end). */
function skipValue(text: string, i: number): number {
  const first = text.charCodeAt(i);
  const length = text.length;
  if (first === QUOTE) return skipString(text, i);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        // To the closing quote (the loop steps past it).
        i = skipString(text, i) - 1;
        if (i < 0) return -1;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
    }
    return -1;
  }
  // A number, true, false or null: up to the next separator.
  const start = i;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
    i++;
  }
  return i > start ? i : -1;
}

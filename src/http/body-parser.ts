import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidRequestError } from '../domain/errors.js';

/**
 * How deep a JSON body may nest. The deepest schema is four levels; free-form values (`additional_info`,
 * `carrier_metadata`, carrier `settings`) get room beyond that, but not the thousands of levels that make
 * JSON.stringify and other recursive code overflow the stack, or walks over the parsed value take seconds.
 */
export const MAX_BODY_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * Whether JSON text opens more than `max` arrays or objects inside one another, counting brackets outside
 * strings. One pass over the bytes that stops at the first level too many, before anything is parsed: these
 * bytes never occur inside a multi-byte UTF-8 character, and text that is not JSON fails the parse after.
 */
export function nestsDeeperThan(text: Uint8Array, max: number): boolean {
  // Text that opens no more than `max` arrays and objects in all cannot nest deeper: found by the native search for a
  // byte (a body of a few kilobytes opens a dozen), without reading every byte here.
  if (opensAtMost(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

const OPENING = [OPEN_BRACKET, OPEN_BRACE];

/** Whether `text` holds at most `max` bytes `[` and `{`, inside strings or not. */
function opensAtMost(text: Uint8Array, max: number): boolean {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  let opened = 0;
  for (const open of OPENING) {
    for (let at = bytes.indexOf(open); at !== -1; at = bytes.indexOf(open, at + 1)) {
      if (++opened > max) return false;
    }
  }
  return true;
}

/** The refusal of a body in a content type the route does not read, naming the ones it does. */
export function unsupportedContentType(request: FastifyRequest): InvalidRequestError {
  const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
  const expected = consumes && consumes.length > 0 ? consumes.join(' or ') : 'application/json';
  return new InvalidRequestError(`Invalid request format: unsupported Content-Type, send ${expected}`);
}

/** The refusal of a request that sent no body, or an empty one, where a JSON object is expected. */
export function emptyBody(): InvalidRequestError {
  return new InvalidRequestError('Invalid request format: the body is empty, send a JSON object as application/json');
}

/**
 * JSON bodies are checked as bytes before they are parsed: not empty, nested at most MAX_BODY_DEPTH levels
 * (in linear time, so a body nested 500,000 levels is refused as fast as any other), valid UTF-8 (never
 * decoded with replacement characters and stored so). Then Fastify's own parser, which refuses `__proto__`
 * and `constructor.prototype` keys; and no string may hold a lone surrogate (a `\u` escape of half a pair).
 * Text is not read as JSON: `text/plain` is refused like any other type.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The body's bytes, on routes whose config asks for them (`config: { rawBody: true }`). */
    rawBody?: Buffer;
  }
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  // No content coding is read: a compressed body is refused as such, not as bytes that are not UTF-8.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const coding = request.headers['content-encoding']?.trim();
    const hasBody = request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
    if (hasBody && coding && coding.toLowerCase() !== 'identity') {
      return done(
        new InvalidRequestError(
          `Invalid request format: Content-Encoding ${coding.slice(0, 40)} is not supported, send the body uncompressed`,
        ),
      );
    }
    done(null, payload);
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (body.length === 0) return done(emptyBody());
    if (nestsDeeperThan(body, MAX_BODY_DEPTH)) {
      return done(new InvalidRequestError(`Invalid request format: the body nests deeper than ${MAX_BODY_DEPTH} levels`));
    }
    if (!isUtf8(body)) return done(new InvalidRequestError('Invalid request format: the body is not valid UTF-8'));
    // Routes that check a signature over the bytes as sent (carrier pushes) keep them.
    if ((request.routeOptions.config as { rawBody?: boolean } | undefined)?.rawBody) request.rawBody = body;
    const text = body.toString('utf8');
    // Text without a `\u` escape holds no lone surrogate and no NUL, and spells every key as it is read.
    const escapes = text.includes('\\u');
    const parsed = (error: Error | null, value?: unknown) => {
      if (!error && escapes && SURROGATE_ESCAPE.test(text) && holdsLoneSurrogate(value, 0)) {
        return done(
          new InvalidRequestError('Invalid request format: a \\u escape in the body is half of a surrogate pair, not a character'),
        );
      }
      if (!error && value !== null && typeof value === 'object' && !(escapes && text.includes(NUL_ESCAPE))) withoutNul.add(value);
      if (!error && value !== null && typeof value === 'object' && mayHoldLargeNumber(text)) mayHoldInfinity.add(value);
      if (error && isJson(text)) {
        // Valid JSON that the parser refused: a key that would reach an object's prototype, not a syntax error.
        return done(new InvalidRequestError('Invalid request format: a __proto__ or constructor.prototype key is not accepted'));
      }
      done(error, value);
    };
    const plain = escapes ? undefined : parsedPlainly(text);
    if (plain !== undefined) parsed(null, plain);
    else parseJson(request, text, parsed);
  });
}

/**
 * The value of JSON text that Fastify's parser would hand back as JSON.parse reads it, read so without looking for
 * the keys it refuses: text (without `\u` escapes, the caller's part) that neither starts with a byte order mark nor
 * holds `"__proto__"` or `"constructor"` cannot spell one. undefined for any other text, or text that is not JSON: the
 * parser then reads it, and refuses it as it does.
 */
function parsedPlainly(text: string): unknown {
  if (text.charCodeAt(0) === 0xfeff || text.includes('"__proto__"') || text.includes('"constructor"')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether JSON text may hold a number JSON.parse could read as Infinity: a positive exponent of three digits or more,
 * or 210 digits in a row (an integer part of k digits overflows once k plus the exponent reaches 309, and an exponent
 * without three digits is at most 99).
 */
export function mayHoldLargeNumber(text: string): boolean {
  return LARGE_EXPONENT.test(text) || holdsDigitRun(text, 210);
}

const LARGE_EXPONENT = /\d[eE]\+?\d{3}/;
const mayHoldInfinity = new WeakSet<object>();

/**
 * Whether `text` holds `length` ASCII digits in a row. Only every `length`-th character is looked at first: any such
 * run covers one of them (a regular expression would try a run at every digit, the most of what it cost a body).
 */
function holdsDigitRun(text: string, length: number): boolean {
  for (let at = length - 1; at < text.length; at += length) {
    if (!isDigit(text.charCodeAt(at))) continue;
    let start = at;
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && isDigit(text.charCodeAt(end))) end++;
    if (end - start >= length) return true;
  }
  return false;
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/** Whether this body's text had a number large enough to have been read as infinity (only these are walked for one). */
export function parsedWithLargeNumber(body: object): boolean {
  return mayHoldInfinity.has(body);
}

/**
 * JSON text holds a NUL character only as this escape (a control character written as itself fails the parse), so a
 * body whose text has none holds no NUL in any value or key, and is not walked for one (validation.ts).
 */
const NUL_ESCAPE = '\\u0000';
const withoutNul = new WeakSet<object>();

/** Whether this body was parsed from JSON text without a NUL escape: none of its strings then holds NUL. */
export function parsedWithoutNul(body: object): boolean {
  return withoutNul.has(body);
}

/** A `\u` escape of a surrogate (D800–DFFF): a body without one holds no lone surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether a parsed body holds a string (value or key) with a lone surrogate: legal in JSON as a `\u` escape, but
 * no Unicode character, and stored as a replacement character (two different values then read back the same).
 * Depth is bounded by MAX_BODY_DEPTH, checked before the parse.
 */
function holdsLoneSurrogate(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (typeof value !== 'object' || value === null || depth > MAX_BODY_DEPTH) return false;
  if (Array.isArray(value)) return value.some((item) => holdsLoneSurrogate(item, depth + 1));
  return Object.entries(value).some(([key, item]) => LONE_SURROGATE.test(key) || holdsLoneSurrogate(item, depth + 1));
}

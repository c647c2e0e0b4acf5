import fc from 'fast-check';

/** The JSON Schema subset the API's request schemas use (as served in /openapi.json). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  maxProperties?: number;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
}

/** How many runs a property gets: small in `npm test`, large through `npm run fuzz` (FUZZ_RUNS). */
export function fuzzRuns(normal: number): number {
  const fromEnv = Number(process.env.FUZZ_RUNS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : normal;
}

/** Per-test timeout: generous in `npm test` (shared machines), unbounded in practice for long runs. */
export const FUZZ_TIMEOUT = process.env.FUZZ_RUNS ? 3_600_000 : 120_000;

/** Strings that have broken parsers, databases and renderers before. */
export const NASTY_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDFFF',
  '\u202Eevil\u202C',
  '\u200F\u200E\u061C',
  'ﷺ𒐫𒈙',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  'Z̸̢̛̲̪͎̐̽a̴l̷g̵o̶',
  '\r\n\t\v\f',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '9007199254740993',
  '0x1F',
  "' OR '1'='1' --",
  '"; DROP TABLE shipments; --',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text
  '{{7*7}}${7*7}',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '2026-02-30',
  '0000-00-00T25:61:61Z',
  '+275760-09-13T00:00:00.001Z',
  '__proto__',
  'constructor',
  'ａｂｃ', // full width
  'İıǅ', // case-mapping oddities
];

const BIG_STRING_LENGTHS = [51, 256, 1_001, 5_001, 70_000];

export const NASTY_NUMBERS: number[] = [
  -0,
  0,
  -1,
  0.5,
  1e308,
  -1e308,
  5e-324,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  1e21,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  1.7976931348623157e308,
];

/** A value nested `depth` levels deep: `[[[…]]]` or `{"a":{"a":…}}`. */
export function deep(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/**
 * Texts that `Number()` (and so a coercing validator) reads as a number, none of them one in plain decimal
 * notation: infinite, read as 0, in another base, with separators or white space, or empty.
 */
export const NUMERIC_EDGE_TEXTS = [
  '1e309',
  '-1e309',
  '1e-400',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '0b1',
  '0o7',
  '1_000',
  ' 5',
  '5 ',
  '',
  '+5',
  '1e2',
  '.5',
  '5.',
];

/** Whether a parameter's schema holds a number (alone or in a union). */
export function isNumericSchema(schema: JsonSchema): boolean {
  return (schema.anyOf ?? [schema]).some((branch) => branch.type === 'integer' || branch.type === 'number');
}

export const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(...BIG_STRING_LENGTHS).map((n) => 'é'.repeat(n)) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

/** Values of the wrong type or at the edges, for any position. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(...NASTY_NUMBERS) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], { a: null }, [[]], ['']) },
  { weight: 1, arbitrary: fc.constantFrom(100, 1_000).map((d) => deep(d, 'array')) },
  { weight: 1, arbitrary: fc.constantFrom(100, 1_000).map((d) => deep(d, 'object')) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const UNKNOWN_KEYS = ['constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'unknown_field', 'Shipment_ID', ''];

/** Defines keys as own properties, so `__proto__` is a key like any other. */
const withOwnKeys = (entries: Array<[string, unknown]>): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
};

function branches(schema: JsonSchema): JsonSchema[] | null {
  return schema.anyOf ?? schema.oneOf ?? null;
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') ?? 'null';
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  return undefined;
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 30, 30, Math.max(min, 30));
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= (schema.maxLength ?? 254));
    case 'uri':
      return fc.webUrl().filter((u) => u.length <= (schema.maxLength ?? 2048));
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
  }
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= (schema.maxLength ?? 1e9));
  }
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: max }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: max }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('Germany', 'DE', 'EUR', 'sb', 'WB4000001', 'Berlin', '2026-05-01', '2026-05-01T10:00:00+02:00'),
      },
    )
    .filter((s) => s.length >= min && s.length <= (schema.maxLength ?? 1e9));
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 1e-9) : -1e6);
  const max = schema.maximum ?? 1e9;
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, 2 ** 31 - 1)) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Values the schema accepts (business rules aside). */
export function validArb(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const anyOf = branches(schema);
  if (anyOf) return fc.oneof(...anyOf.map((b) => validArb(b, depth)));
  const type = typeOf(schema);
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'number':
      return numberFor(schema, false);
    case 'integer':
      return numberFor(schema, true);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, 3));
      return fc.array(validArb(schema.items ?? {}, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectArb(schema, depth, validArb);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArb(
  schema: JsonSchema,
  depth: number,
  child: (schema: JsonSchema, depth: number) => fc.Arbitrary<unknown>,
): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const keys = Object.keys(props);
  const required = new Set(schema.required ?? []);
  const recordArb = fc.record(Object.fromEntries(keys.map((k) => [k, child(props[k], depth + 1)])), {
    requiredKeys: keys.filter((k) => required.has(k)),
  }) as fc.Arbitrary<Record<string, unknown>>;
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object' && keys.length === 0) {
    const keyMax = Math.min(schema.propertyNames?.maxLength ?? 20, 20);
    return fc
      .dictionary(fc.string({ minLength: 1, maxLength: keyMax }), child(extra, depth + 1), {
        maxKeys: Math.min(schema.maxProperties ?? 3, 3),
      })
      .map((d) => withOwnKeys(Object.entries(d)));
  }
  return recordArb;
}

/**
 * Mostly-valid values with faults anywhere in the tree: wrong types, nasty strings, numbers at and past the
 * limits, strings and arrays past their maximum, nulls in nested places, missing required keys, unknown and
 * prototype-named keys.
 */
export function fuzzArb(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const faults: Array<fc.WeightedArbitrary<unknown>> = [{ weight: 2, arbitrary: nastyValue }];
  if (typeOf(schema) === 'string' && schema.maxLength !== undefined) {
    faults.push({ weight: 1, arbitrary: fc.constant('x'.repeat(schema.maxLength + 1)) });
    faults.push({ weight: 1, arbitrary: fc.constant('é'.repeat(schema.maxLength)) });
  }
  if (typeOf(schema) === 'number' || typeOf(schema) === 'integer') {
    const edges = [schema.minimum, schema.maximum, schema.exclusiveMinimum]
      .filter((n): n is number => n !== undefined)
      .flatMap((n) => [n, n - 1, n + 1, n - 1e-9, n + 0.5]);
    if (edges.length) faults.push({ weight: 2, arbitrary: fc.constantFrom(...edges) });
  }
  if (typeOf(schema) === 'array' && schema.maxItems !== undefined) {
    const item = validArb(schema.items ?? {}, depth + 1);
    faults.push({ weight: 1, arbitrary: item.map((v) => Array.from({ length: schema.maxItems! }, () => v)) });
    faults.push({ weight: 1, arbitrary: item.map((v) => Array.from({ length: schema.maxItems! + 1 }, () => v)) });
  }
  let sound: fc.Arbitrary<unknown>;
  const anyOf = branches(schema);
  if (anyOf && !schema.enum) sound = fc.oneof(...anyOf.map((b) => fuzzArb(b, depth)));
  else if (typeOf(schema) === 'object' && depth < 6) sound = fuzzObject(schema, depth);
  else if (typeOf(schema) === 'array' && depth < 6)
    sound = fc.array(fuzzArb(schema.items ?? {}, depth + 1), { maxLength: Math.min(schema.maxItems ?? 3, 3) });
  else sound = validArb(schema, depth);
  return fc.oneof({ weight: 6, arbitrary: sound }, ...faults);
}

function fuzzObject(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const base = objectArb(schema, depth, (s, d) => fuzzArb(s, d));
  const required = schema.required ?? [];
  return fc
    .tuple(
      base,
      fc.option(fc.constantFrom(...required, 'none'), { nil: undefined, freq: 4 }),
      fc.option(fc.tuple(fc.constantFrom(...UNKNOWN_KEYS), nastyValue), { nil: undefined, freq: 4 }),
    )
    .map(([obj, drop, extra]) => {
      const out = withOwnKeys(Object.entries(obj).filter(([k]) => k !== drop));
      if (extra) Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true, writable: true, configurable: true });
      return out;
    });
}

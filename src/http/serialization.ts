import fastJsonStringify, { type Schema as SerializerSchema } from 'fast-json-stringify';
import type { FastifyInstance } from 'fastify';

type Schema = Record<string, unknown>;

/**
 * `T | null` written as `anyOf: [T, {type: null}]` (how TypeBox spells nullable) makes the serializer try
 * each branch at run time; a type list (`type: ['string', 'null']`) serializes the same JSON several times
 * faster. Records become `additionalProperties` (see below). The OpenAPI document keeps the original schemas.
 */
export function simplifyNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplifyNullable);
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Schema;
  const branches = node.anyOf as Schema[] | undefined;
  if (Array.isArray(branches) && branches.length === 2) {
    const other = branches.find((b) => b.type !== 'null');
    if (other && branches.some((b) => b.type === 'null') && typeof other.type === 'string') {
      const simplified = simplifyNullable(other) as Schema;
      return { ...simplified, type: [simplified.type, 'null'] };
    }
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) out[key] = simplifyNullable(value);
  // A record (`patternProperties: {"^(.*)$": …}`) matches keys by a regular expression whose `.` stops at line
  // breaks, so keys holding one would be dropped from the output; any key is the intent.
  const patterns = out.patternProperties as Schema | undefined;
  if (patterns && Object.keys(patterns).length === 1 && '^(.*)$' in patterns) {
    out.additionalProperties = patterns['^(.*)$'];
    delete out.patternProperties;
  }
  return out;
}

/** A serializer from a response schema, with nullable types simplified; shared schemas resolve by $id. */
export function compileSerializer(schema: unknown, shared: Schema[] = []): (data: unknown) => string {
  const external = Object.fromEntries(shared.map((s) => [s.$id as string, simplifyNullable(s)]));
  return fastJsonStringify(simplifyNullable(schema) as SerializerSchema, { schema: external as Record<string, SerializerSchema> });
}

/**
 * Serializers already compiled in this process, by response schema and by the list of shared schemas they
 * resolve against (both are module constants): a second app built in one process (tests build many) reuses
 * them instead of compiling every route's again.
 */
const compiled = new WeakMap<Schema[], WeakMap<object, (data: unknown) => string>>();

/** Response serialization from the route schemas (`compileSerializer`). */
export function registerSerialization(app: FastifyInstance, shared: Schema[]): void {
  const cache = compiled.get(shared) ?? new WeakMap<object, (data: unknown) => string>();
  compiled.set(shared, cache);
  app.setSerializerCompiler(({ schema }) => {
    if (!schema || typeof schema !== 'object') return compileSerializer(schema, shared);
    const kept = cache.get(schema);
    if (kept) return kept;
    const serializer = compileSerializer(schema, shared);
    cache.set(schema, serializer);
    return serializer;
  });
}

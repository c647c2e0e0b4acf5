/**
 * A body schema with each nested object's checks moved into `$defs`, referenced where the object was
 * (`allOf: [{$ref}]`), for an Ajv that compiles references as functions of their own (`inlineRefs: false`).
 *
 * Ajv compiles a schema into one function. With every error reported, the shipment create's is about 350 KB of
 * source, far beyond what V8's optimizing compiler takes (60 KB of bytecode): it ran in the baseline tier on
 * every create and update. Split by object, each function is small enough to be optimized.
 *
 * What a merchant sees does not change: the same keywords check the same values at the same instance paths.
 * The object's `type` and `default` stay where they were, so that a nullable union's branches still report
 * their type errors under the union's schema path (errors.ts merges them by it) and a default is still
 * applied by the parent's `properties`. A sub-schema used in several places is compiled once.
 */
export function splitSchema(schema: object): object {
  // Ajv keeps what it compiled by schema object: the same split for the same schema is compiled once per process.
  let split = splits.get(schema);
  if (!split) {
    split = splitOnce(schema);
    splits.set(schema, split);
  }
  return split;
}

const splits = new WeakMap<object, object>();

function splitOnce(schema: object): object {
  const defs: Record<string, object> = {};
  const names = new Map<object, string>();

  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const source = node as Record<string, unknown>;
    if (isObjectSchema(source)) {
      let name = names.get(source);
      if (name === undefined) {
        name = `wb${names.size}`;
        names.set(source, name);
        const { type: _type, default: _default, ...checks } = source;
        defs[name] = walk(checks);
      }
      const kept: Record<string, unknown> = {};
      if ('type' in source) kept.type = source.type;
      if ('default' in source) kept.default = source.default;
      kept.allOf = [{ $ref: `#/$defs/${name}` }];
      return kept;
    }
    return walk(source);
  };

  /**
   * A copy of a schema object whose sub-schemas are visited (the root is walked, never moved); values that are data,
   * not schemas, are kept as they are.
   */
  const walk = (source: Record<string, unknown>): Record<string, unknown> => {
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source)) {
      if (DATA_KEYWORDS.has(key)) copy[key] = value;
      else if (MAP_KEYWORDS.has(key) && value !== null && typeof value === 'object') {
        copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, visit(sub)]));
      } else copy[key] = visit(value);
    }
    return copy;
  };

  const root = walk(schema as Record<string, unknown>);
  if (Object.keys(defs).length === 0) return schema;
  if ('$defs' in root) throw new Error('splitSchema: the schema has its own $defs');
  return { ...root, $defs: defs };
}

/** An object with named properties: what is moved into a function of its own. */
function isObjectSchema(node: Record<string, unknown>): boolean {
  return node.properties !== null && typeof node.properties === 'object' && !('$ref' in node);
}

/** Keywords whose values are data (compared, copied, or printed), never sub-schemas. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'required', 'format', 'pattern', 'description', 'title']);
/** Keywords whose values map names to sub-schemas. */
const MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);

import type { Ajv, ErrorObject } from 'ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { decodePointer } from './errors.js';
import { splitSchema } from './split-schema.js';

/**
 * Unknown fields in request bodies. Clients written for the vendor's API send fields the interface does not
 * list (`carrier_code`, `status`, flat `length`…): for a merchant caller they are removed before the request
 * goes on — never stored — and named in this response header. Accounts with `strict_fields` get them refused
 * (4030 "Unknown field."), as do callers that are not merchants (operators, carriers).
 */
export const IGNORED_FIELDS_HEADER = 'waybill-ignored-fields';

/** The header lists whole paths up to this many characters, then `+N` for the N paths left out. */
export const IGNORED_FIELDS_HEADER_MAX = 1000;

/** What Fastify calls to validate a body: false leaves the reasons in `errors`. */
type BodyValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Bodies whose unknown fields may be ignored, each with the reply that answers its request, from `markLenient` until
 * the body's validation takes it (`takeLenient`). Not one moment longer: a young collection holds a weak map's values
 * as strongly as any reference, and the reply holds the request and its body, the entry's key, so an entry left in
 * the map kept the whole request alive through young collections into the old generation, until a full collection
 * (6.5 KB a create, which cost creates alone a quarter more CPU: docs/performance.md).
 */
const lenientBodies = new WeakMap<object, FastifyReply>();

/**
 * A body validator: the schema as compiled (unknown fields refused), and only when that fails for a lenient
 * caller, its unknown fields removed and the body checked again. A body without unknown fields costs one
 * validation, as before.
 */
export function compileBodyValidator(ajv: Ajv, schema: object): BodyValidator {
  const validate = ajv.compile(splitSchema(schema));
  const check = ((data: unknown) => {
    const reply = data !== null && typeof data === 'object' ? takeLenient(data) : undefined;
    if (validate(data)) return true;
    const ignored = reply ? removeUnknown(data, validate.errors ?? []) : [];
    if (ignored.length === 0) {
      check.errors = validate.errors;
      return false;
    }
    announce(reply as FastifyReply, ignored);
    const valid = validate(data);
    check.errors = validate.errors;
    return valid;
  }) as BodyValidator;
  check.errors = null;
  return check;
}

/** The reply of a body marked lenient, handed out once: the entry leaves the map. */
function takeLenient(data: object): FastifyReply | undefined {
  const reply = lenientBodies.get(data);
  if (reply) lenientBodies.delete(data);
  return reply;
}

/** Marks, before validation, the bodies of merchant callers who do not want unknown fields refused. */
function markLenient(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const body = request.body;
  if (request.caller && !request.caller.strictFields && body !== null && typeof body === 'object') lenientBodies.set(body, reply);
  done();
}

/** Adds `markLenient` to every route with a body schema (and only those: other routes pay nothing). */
export function registerUnknownFields(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.schema?.body) return;
    const existing = route.preValidation;
    route.preValidation = existing ? [...[existing].flat(), markLenient] : [markLenient];
  });
}

/**
 * Deletes every property the schema reported as unknown; returns their paths (keys from the root). The body
 * schemas' unions are `object | null` only, so a property unknown to an object branch is unknown to the body.
 */
function removeUnknown(data: object, errors: ErrorObject[]): string[][] {
  const removed: string[][] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword !== 'additionalProperties') continue;
    const parentPath = decodePointer(error.instancePath);
    const key = String((error.params as { additionalProperty: string }).additionalProperty);
    const path = [...parentPath, key];
    const id = JSON.stringify(path);
    if (seen.has(id)) continue;
    seen.add(id);
    const parent = ownAt(data, parentPath);
    if (parent === null || !Object.hasOwn(parent, key)) continue;
    Reflect.deleteProperty(parent, key);
    removed.push(path);
  }
  return removed;
}

function ownAt(root: object, path: string[]): object | null {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return null;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== null && typeof node === 'object' ? node : null;
}

/**
 * A path as the header writes it: keys joined by `.`, each key percent-encoded outside `A-Z a-z 0-9 _ -`. A blank
 * key is `""`, a quoted empty string as a list element of an HTTP field may be (a key's own `"` is `%22`).
 */
export function headerPath(path: string[]): string {
  return (
    path
      // A lone surrogate (legal in JSON, not in UTF-8) would make encodeURIComponent throw: written as U+FFFD.
      .map((key) =>
        key === ''
          ? '""'
          : encodeURIComponent(key.replace(/\p{Surrogate}/gu, '\ufffd')).replace(
              /[!'()*.~]/g,
              (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
            ),
      )
      .join('.')
  );
}

/** The header's value: whole paths, comma-separated, cut at IGNORED_FIELDS_HEADER_MAX characters with `+N`. */
export function ignoredFieldsHeader(paths: string[][]): string {
  let value = '';
  for (const [i, path] of paths.entries()) {
    const next = `${value ? ',' : ''}${headerPath(path)}`;
    const rest = paths.length - i;
    // Room for this path, and if others follow, for the `,+N` that would name them.
    const reserve = rest > 1 ? `,+${rest - 1}`.length : 0;
    if (value.length + next.length + reserve > IGNORED_FIELDS_HEADER_MAX) return `${value}${value ? ',' : ''}+${rest}`;
    value += next;
  }
  return value;
}

function announce(reply: FastifyReply, paths: string[][]): void {
  reply.header(IGNORED_FIELDS_HEADER, ignoredFieldsHeader(paths));
  reply.log.debug({ ignored_fields: paths.slice(0, 100).map((p) => p.join('.')), count: paths.length }, 'unknown request fields ignored');
}

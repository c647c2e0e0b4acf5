import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { isDecimalText } from '../core/decimal-text.js';
import { ValidationError } from '../domain/errors.js';
import { parsedWithLargeNumber, parsedWithoutNul } from './body-parser.js';
import { fieldErrorAt } from './errors.js';
import { withFormats } from './formats.js';
import { withCharacterLengths } from './string-lengths.js';
import { compileBodyValidator, registerUnknownFields } from './unknown-fields.js';

interface Frame {
  value: unknown;
  key: string;
  parent: Frame | null;
}

/** The keys from the root down to `frame`. */
function pathOf(frame: Frame): string[] {
  const path: string[] = [];
  for (let f: Frame | null = frame; f?.parent; f = f.parent) path.push(f.key);
  return path.reverse();
}

/**
 * The path of the first string (value or key) holding a NUL character, or null. PostgreSQL cannot store NUL in
 * text, and no shipping field has a use for it. Iterative, and linear in the size of the value: each frame
 * links to its parent, and a path is built only for the string found.
 */
export function nulAt(input: unknown): string[] | null {
  return stringAt(input, holdsNul);
}

const holdsNul = (text: string) => text.includes('\u0000');

/** The path of the first string (value or key) in `input` that `holds` is true of, or null when none is. */
export function stringAt(input: unknown, holds: (text: string) => boolean): string[] | null {
  // Most requests have no path parameters or query: nothing to walk, nothing to allocate.
  if (input === null || typeof input !== 'object') return typeof input === 'string' && holds(input) ? [] : null;
  if (isEmpty(input)) return null;
  const stack: Frame[] = [{ value: input, key: '', parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value } = frame;
    if (typeof value === 'string') {
      if (holds(value)) return pathOf(frame);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) {
      if (holds(key)) return [...pathOf(frame), key];
      if (child !== null && (typeof child === 'object' || typeof child === 'string')) stack.push({ value: child, key, parent: frame });
    }
  }
  return null;
}

export const TOO_LARGE_NUMBER = 'Must be a number a double can hold: this one is too large.';

/** The path of the first number that is not finite (a JSON number too large for a double), or null. */
export function nonFiniteAt(input: unknown): string[] | null {
  const stack: Frame[] = [{ value: input, key: '', parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value } = frame;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return pathOf(frame);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) {
      if (child !== null && (typeof child === 'object' || typeof child === 'number')) stack.push({ value: child, key, parent: frame });
    }
  }
  return null;
}

function isEmpty(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

// strict: false relaxes strictNumbers too: kept on, so that a number too large for a double (1e400, parsed as
// Infinity) fails its type like any other value that is not a number, rather than being stored as null.
export const ajvOptions = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false, strictNumbers: true } as const;
let shared: { strictAjv: Ajv; coercingAjv: Ajv } | null = null;

/**
 * One pair of Ajv instances per process: Ajv keeps what it compiled by schema, and the route schemas are
 * module constants, so every app built in the process (tests build many) compiles each schema once. Compiled
 * validators hold no state of an app.
 */
function validators(): { strictAjv: Ajv; coercingAjv: Ajv } {
  shared ??= {
    strictAjv: withCharacterLengths(withFormats(new Ajv({ ...ajvOptions, coerceTypes: false, inlineRefs: false }))),
    coercingAjv: withCharacterLengths(withFormats(new Ajv({ ...ajvOptions, coerceTypes: 'array' }))),
  };
  return shared;
}

/**
 * Two validators: bodies are checked as sent (no type coercion: `null` stays null, "1" is not 1);
 * query strings and path parameters arrive as text, so they are coerced to the declared types.
 * Every error is reported (allErrors). Unknown fields are refused, except in the bodies of merchants who have
 * not asked for that: those are removed before the request goes on (unknown-fields.ts).
 * NUL characters anywhere are refused before any of that (4030 on the field); how deep a body nests was
 * checked before it was parsed (body-parser.ts).
 */
export function registerValidation(app: FastifyInstance): void {
  const { strictAjv, coercingAjv } = validators();
  // Unknown body fields of merchant callers are removed and named rather than refused (unknown-fields.ts).
  registerUnknownFields(app);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? compileBodyValidator(strictAjv, schema) : compileTextValidator(coercingAjv, schema),
  );
  const refuseNul = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    // A body that is not an object fails its schema at the root, which says more than its contents would.
    const body = request.body;
    const object = body !== null && typeof body === 'object' && !Array.isArray(body);
    const nul = nulAt(request.params) ?? nulAt(request.query) ?? (object && !parsedWithoutNul(body) ? nulAt(body) : null);
    if (nul) return done(new ValidationError(fieldErrorAt(nul, 'Must not contain the NUL character.')));
    done();
  };
  // After the schema, which names a typed field's own error: what is left is in free-form objects (additional_info,
  // carrier_metadata), where such a number would be stored as null.
  const refuseInfinity = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const body = request.body;
    const path = body !== null && typeof body === 'object' && parsedWithLargeNumber(body) ? nonFiniteAt(body) : null;
    if (path) return done(new ValidationError(fieldErrorAt(path, TOO_LARGE_NUMBER)));
    done();
  };
  const readUuidsLowercase = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    lowercaseUuids(request.params);
    lowercaseUuids(request.query);
    lowercaseUuids(request.body);
    done();
  };
  // On each route but the token endpoint, which judges credentials before its body, with OAuth error codes.
  // Decided when the route is added, not by reading `request.routeOptions` (an object built on each read).
  app.addHook('onRoute', (route) => {
    // A merchant route that takes no query still refuses one: an ignored parameter reads as one that was applied.
    if (route.url.startsWith('/v5/') && route.schema?.querystring === undefined) {
      route.schema = { ...route.schema, querystring: NO_QUERY };
    }
    if (route.url === '/auth/oauth/token/') return;
    // Signed links (/files/…) are ours, checked byte for byte as they were signed: their uuids are not read again.
    const own = route.url.startsWith('/files/') ? [] : [readUuidsLowercase];
    route.preValidation = [refuseNul, ...own, ...[route.preValidation ?? []].flat()] as RouteOptions['preValidation'];
    if ([route.method].flat().some((method) => BODY_METHODS.has(method))) {
      route.preHandler = [refuseInfinity, ...[route.preHandler ?? []].flat()] as RouteOptions['preHandler'];
    }
  });
}

type TextValidator = ((data: unknown) => boolean) & { errors: ErrorObject[] | null };

/** The methods whose requests carry a body to look into. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The query of a route that takes none. */
const NO_QUERY = { type: 'object', properties: {}, additionalProperties: false } as const;

/**
 * The validator of a query string, path parameters or headers: values that arrive as text, coerced to the types
 * the schema declares. A number must be written in plain decimal notation (core/decimal-text.ts) before Ajv
 * coerces it: Ajv reads text as `+text` does (`0x10` is 16, ` 5` is 5, `1e309` is Infinity) and, once the value
 * is not finite, skips the schema's minimum and maximum, so that `?limit=1e309` reached the database as Infinity.
 */
function compileTextValidator(ajv: Ajv, schema: object): ValidateFunction | TextValidator {
  const validate = ajv.compile(schema);
  const numbers = numericProperties(schema);
  if (numbers.size === 0) return validate;
  const check = ((data: unknown) => {
    const refused = refusedNumberTexts(data, numbers);
    const valid = validate(data);
    if (refused.length === 0) {
      check.errors = validate.errors ?? null;
      return valid;
    }
    const named = new Set(refused.map((error) => error.instancePath));
    check.errors = [...refused, ...(validate.errors ?? []).filter((error) => !named.has(error.instancePath))];
    return false;
  }) as TextValidator;
  check.errors = null;
  return check;
}

/** The schema's properties that hold a number (alone or with null), each with whether it must be whole. */
function numericProperties(schema: object): Map<string, boolean> {
  const found = new Map<string, boolean>();
  const properties = (schema as { properties?: Record<string, { type?: unknown; anyOf?: Array<{ type?: unknown }> }> }).properties;
  for (const [name, property] of Object.entries(properties ?? {})) {
    const types = (property.anyOf ?? [property]).map((branch) => branch.type);
    if (!types.some((type) => type === 'integer' || type === 'number')) continue;
    if (!types.every((type) => type === 'integer' || type === 'number' || type === 'null')) continue;
    found.set(name, !types.includes('number'));
  }
  return found;
}

/** A `type` error for each numeric property sent as text that is not a number in decimal notation. */
function refusedNumberTexts(data: unknown, numbers: Map<string, boolean>): ErrorObject[] {
  if (data === null || typeof data !== 'object') return [];
  const refused: ErrorObject[] = [];
  const record = data as Record<string, unknown>;
  for (const [name, integer] of numbers) {
    if (!Object.hasOwn(record, name)) continue;
    const value = record[name];
    // Sent twice (`?limit=1&limit=2`) is an array, which the schema refuses on its own.
    const texts = Array.isArray(value) && value.length === 1 ? value : [value];
    if (texts.every((text) => typeof text !== 'string' || isDecimalText(text, integer))) continue;
    refused.push({
      instancePath: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      schemaPath: `#/properties/${name}/type`,
      keyword: 'decimalText',
      params: { integer },
    });
  }
  return refused;
}

const UUID_IN_CAPITALS = /^(?=.*[A-F])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * UUIDs are read whatever their letters' case (RFC 9562), and ours are written lowercase: a UUID sent in
 * capitals in a field named `…uuid` (a path parameter, a query parameter, or a member at the top of a body)
 * is read in lowercase, so that it finds what its lowercase form finds. Other fields, the merchant's own
 * identifiers and texts included, are kept as sent.
 */
function lowercaseUuids(fields: unknown): void {
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) return;
  const record = fields as Record<string, unknown>;
  for (const key in record) {
    if (!key.endsWith('uuid')) continue;
    const value = record[key];
    if (typeof value === 'string' && UUID_IN_CAPITALS.test(value)) record[key] = value.toLowerCase();
  }
}

import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../domain/errors.js';
import { fieldErrorAt } from './errors.js';
import { compileBodyValidator, registerUnknownFields } from './unknown-fields.js';

/**
 * How deep a request body may nest. The deepest schema is four levels; free-form values (`additional_info`,
 * `carrier_metadata`, carrier `settings`) get room beyond that, but not the thousands of levels that make
 * JSON.stringify and other recursive code overflow the stack later on.
 */
export const MAX_BODY_DEPTH = 32;

interface Frame {
  value: unknown;
  depth: number;
  key: string;
  parent: Frame | null;
}

/** The path of the first value nested deeper than `max` levels, or null. Iterative: any depth is safe. */
export function tooDeep(body: unknown, max = MAX_BODY_DEPTH): string[] | null {
  const stack: Frame[] = [{ value: body, depth: 0, key: '', parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value, depth } = frame;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= max) {
      const path: string[] = [];
      for (let f: Frame | null = frame; f?.parent; f = f.parent) path.unshift(f.key);
      return path;
    }
    for (const [key, child] of Object.entries(value)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1, key, parent: frame });
    }
  }
  return null;
}

/**
 * The path of the first string (value or key) holding a NUL character, or null. PostgreSQL cannot store NUL in
 * text, and no shipping field has a use for it. Iterative.
 */
export function nulAt(input: unknown): string[] | null {
  const stack: Array<{ value: unknown; path: string[] }> = [{ value: input, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: string[] };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key];
      if (child !== null && (typeof child === 'object' || typeof child === 'string')) stack.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

/**
 * Two validators: bodies are checked as sent (no type coercion: `null` stays null, "1" is not 1);
 * query strings and path parameters arrive as text, so they are coerced to the declared types.
 * Every error is reported (allErrors). Unknown fields are refused, except in the bodies of merchants who have
 * not asked for that: those are removed before the request goes on (unknown-fields.ts).
 * Bodies nested deeper than MAX_BODY_DEPTH, and NUL characters anywhere, are refused before any of that
 * (4030 on the field).
 */
export function registerValidation(app: FastifyInstance): void {
  const options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false } as const;
  const strictAjv = addFormats.default(new Ajv({ ...options, coerceTypes: false }));
  const coercingAjv = addFormats.default(new Ajv({ ...options, coerceTypes: 'array' }));
  // Ajv caches compiled schemas itself, so routes sharing a schema compile it once.
  // Unknown body fields of merchant callers are removed and named rather than refused (unknown-fields.ts).
  registerUnknownFields(app);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? compileBodyValidator(strictAjv, schema) : coercingAjv.compile(schema),
  );
  app.addHook('preValidation', (request, _reply, done) => {
    // The token endpoint judges credentials before its body, with OAuth error codes.
    if (request.routeOptions.url === '/auth/oauth/token/') return done();
    // A body that is not an object fails its schema at the root, which says more than its contents would.
    const body = request.body;
    const object = body !== null && typeof body === 'object' && !Array.isArray(body);
    const nul = nulAt(request.params) ?? nulAt(request.query) ?? (object ? nulAt(body) : null);
    if (nul) return done(new ValidationError(fieldErrorAt(nul, 'Must not contain the NUL character.')));
    if (!object) return done();
    const path = tooDeep(body);
    if (!path) return done();
    done(new ValidationError(fieldErrorAt(path, `Nested too deeply: at most ${MAX_BODY_DEPTH} levels.`)));
  });
}

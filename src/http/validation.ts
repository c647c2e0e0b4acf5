import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Two validators: bodies are checked as sent (no type coercion: `null` stays null, "1" is not 1);
 * query strings and path parameters arrive as text, so they are coerced to the declared types.
 * Every error is reported (allErrors), and unknown fields are refused, never stripped.
 */
export function registerValidation(app: FastifyInstance): void {
  const options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false } as const;
  const strictAjv = addFormats.default(new Ajv({ ...options, coerceTypes: false }));
  const coercingAjv = addFormats.default(new Ajv({ ...options, coerceTypes: 'array' }));
  // Ajv caches compiled schemas itself, so routes sharing a schema compile it once.
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema));
}

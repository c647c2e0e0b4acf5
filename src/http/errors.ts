import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decimalTextMessage } from '../core/decimal-text.js';
import { DomainError, type FieldErrors, type InvalidRequestError, ValidationError } from '../domain/errors.js';
import { emptyBody, unsupportedContentType } from './body-parser.js';

/**
 * The interface's envelope for every failure: application errors carry `api_response` as a string,
 * gateway errors (authorization, throttling) as an integer. Nothing internal ever leaves the process.
 */
export interface Envelope {
  api_response: string | number;
  message: string;
  errors?: FieldErrors;
  data?: unknown;
}

const domainStatus: Record<DomainError['code'], { status: number; code: string | number }> = {
  validation: { status: 400, code: '4030' },
  invalid_request: { status: 400, code: '4000' },
  not_found: { status: 404, code: '4041' },
  feature_not_enabled: { status: 403, code: '4033' },
  conflict: { status: 409, code: '4090' },
  unauthorized: { status: 403, code: 403 },
  // A dependency (a carrier) did not answer: a system error by the interface's table, with a message that says so.
  unavailable: { status: 503, code: '500' },
};

export const keyNotAuthorized: Envelope = { api_response: 403, message: 'Key not authorized' };
export const throttled: Envelope = { api_response: 429, message: 'Throttled' };
export const systemError: Envelope = { api_response: '500', message: 'System error' };

interface AjvError {
  instancePath: string;
  /** Set when the failing value is an object key (propertyNames). */
  propertyName?: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  /** Where in the schema the failing keyword is (`#/properties/weight/anyOf/1/type`). */
  schemaPath?: string;
}

function messageFor(error: AjvError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return 'This field is required.';
    case 'additionalProperties':
      return 'Unknown field.';
    case 'maxLength':
      return `Ensure this field has no more than ${p.limit} characters.`;
    case 'minLength':
      return p.limit === 1 ? 'This field may not be blank.' : `Ensure this field has at least ${p.limit} characters.`;
    case 'maximum':
      return `Ensure this value is less than or equal to ${p.limit}.`;
    case 'minimum':
      return `Ensure this value is greater than or equal to ${p.limit}.`;
    case 'exclusiveMinimum':
      return `Ensure this value is greater than ${p.limit}.`;
    case 'maxItems':
      return `Ensure this list has no more than ${p.limit} items.`;
    case 'minItems':
      return `Ensure this list has at least ${p.limit} item${p.limit === 1 ? '' : 's'}.`;
    case 'maxProperties':
      return `Ensure this object has no more than ${p.limit} keys.`;
    case 'type':
      return `Must be of type ${String(p.type).replaceAll(',', ' or ')}.`;
    case 'format':
      return `Enter a valid ${formatName(String(p.format))}.`;
    case 'enum':
      return `Must be one of: ${(p.allowedValues as unknown[]).join(', ')}.`;
    case 'const':
      return `Must be ${JSON.stringify(p.allowedValue)}.`;
    case 'pattern':
      return 'Invalid format.';
    case 'decimalText':
      return decimalTextMessage(p.integer === true);
    default:
      return error.message ? `${error.message[0].toUpperCase()}${error.message.slice(1)}.` : 'Invalid value.';
  }
}

function formatName(format: string): string {
  return (
    { uuid: 'UUID', email: 'email address', uri: 'URL', 'web-url': 'http or https URL', 'date-time': 'date and time' }[format] ?? format
  );
}

/** A JSON pointer (`/items/0/name`) as its keys. */
export function decodePointer(pointer: string): string[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Field errors keyed by what the caller sent, so any key may come in (`__proto__`, `constructor`,
 * `toString`): only own properties are read, and every key is defined as an own property — never an
 * assignment that could reach a prototype.
 */
class SafeFieldErrors {
  private readonly root: FieldErrors = {};

  private static own(node: FieldErrors, key: string): string[] | FieldErrors | undefined {
    return Object.hasOwn(node, key) ? node[key] : undefined;
  }

  private static set(node: FieldErrors, key: string, value: string[] | FieldErrors): void {
    Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
  }

  add(fieldPath: string[], message: string): void {
    const path = fieldPath.length === 0 ? ['non_field_errors'] : fieldPath;
    let node = this.root;
    path.forEach((key, index) => {
      const existing = SafeFieldErrors.own(node, key);
      if (index === path.length - 1) {
        if (Array.isArray(existing)) {
          if (!existing.includes(message)) existing.push(message);
        } else if (existing === undefined) {
          SafeFieldErrors.set(node, key, [message]);
        } else {
          const own = SafeFieldErrors.own(existing, 'non_field_errors');
          SafeFieldErrors.set(existing, 'non_field_errors', [...(Array.isArray(own) ? own : []), message]);
        }
        return;
      }
      if (existing === undefined || Array.isArray(existing)) {
        const child: FieldErrors = {};
        if (Array.isArray(existing)) SafeFieldErrors.set(child, 'non_field_errors', existing);
        SafeFieldErrors.set(node, key, child);
        node = child;
      } else {
        node = existing;
      }
    });
  }

  result(): FieldErrors {
    return this.root;
  }
}

/** One message at one field path, safe for any key the caller sent. */
export function fieldErrorAt(fieldPath: string[], message: string): FieldErrors {
  const collector = new SafeFieldErrors();
  collector.add(fieldPath, message);
  return collector.result();
}

/** The union (`…/anyOf`) whose branch is a whole `{type}` schema, from a type error's schema path. */
const UNION_BRANCH_TYPE = /^(.*\/(?:anyOf|oneOf))\/\d+\/type$/;

/**
 * A nullable value (`anyOf: [T, {type: 'null'}]`) that fails also reports its null branch ("Must be of type
 * null."), which only says that the value is not null: that error goes. When the value has none of the
 * branches' types, their type errors become one ("Must be of type object or null.").
 */
function withoutNullBranches(errors: AjvError[]): AjvError[] {
  const unionOf = (error: AjvError): string | undefined => {
    const union = error.keyword === 'type' ? UNION_BRANCH_TYPE.exec(error.schemaPath ?? '')?.[1] : undefined;
    return union === undefined ? undefined : JSON.stringify([error.instancePath, union]);
  };
  const typesByNullable = new Map<string, string[]>();
  for (const error of errors) {
    const union = unionOf(error);
    if (union !== undefined && error.params.type === 'null') typesByNullable.set(union, []);
  }
  if (typesByNullable.size === 0) return errors;
  const rest: AjvError[] = [];
  const firstTypeError = new Map<string, AjvError>();
  for (const error of errors) {
    const union = unionOf(error);
    const types = union === undefined ? undefined : typesByNullable.get(union);
    if (union === undefined || types === undefined) {
      rest.push(error);
      continue;
    }
    if (error.params.type === 'null') continue;
    types.push(String(error.params.type));
    if (!firstTypeError.has(union)) {
      firstTypeError.set(union, error);
      rest.push(error);
    }
  }
  return rest.map((error) => {
    const union = unionOf(error);
    if (union === undefined || firstTypeError.get(union) !== error) return error;
    return { ...error, params: { ...error.params, type: [...(typesByNullable.get(union) ?? []), 'null'].join(',') } };
  });
}

/** Ajv's errors → field errors keyed by field, nested objects, array positions as strings. */
export function fieldErrorsFromAjv(errors: AjvError[]): FieldErrors {
  const collector = new SafeFieldErrors();
  for (const error of withoutNullBranches(errors)) {
    // anyOf/oneOf branches report their own failures too; the summary adds nothing a merchant can act on.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if' || error.keyword === 'propertyNames') continue;
    const path = decodePointer(error.instancePath);
    if (error.propertyName !== undefined) {
      path.push(error.propertyName);
      collector.add(path, `Invalid key: ${messageFor(error).replace('this field', 'this key')}`);
      continue;
    }
    if (error.keyword === 'required') path.push(String(error.params.missingProperty));
    if (error.keyword === 'additionalProperties') path.push(String(error.params.additionalProperty));
    collector.add(path, messageFor(error));
  }
  return collector.result();
}

export function validationEnvelope(errors: FieldErrors): Envelope {
  return { api_response: '4030', message: 'validation_error', errors };
}

function send(reply: FastifyReply, status: number, body: Envelope): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** A route can ask for its own error body (the booking endpoint nests errors under `data`). */
export type ErrorFormatter = (request: FastifyRequest, errors: FieldErrors) => Envelope;

declare module 'fastify' {
  interface FastifyContextConfig {
    formatValidationError?: ErrorFormatter;
  }
}

function validation(request: FastifyRequest, reply: FastifyReply, errors: FieldErrors): FastifyReply {
  const format = request.routeOptions.config?.formatValidationError;
  return send(reply, 400, format ? format(request, errors) : validationEnvelope(errors));
}

const frameworkMessages: Record<number, string> = {
  413: 'Request body too large',
};

/** A request whose format is wrong (`4000`, HTTP 400 by the interface's table). */
function invalidFormat(reply: FastifyReply, error: InvalidRequestError): FastifyReply {
  return send(reply, 400, { api_response: '4000', message: error.message });
}

/** Characters a route's pattern gives a meaning to (parameters, regular expressions, wildcards). */
const PATTERN_SYNTAX = /[*:()]/;

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { validation?: AjvError[] }, request, reply) => {
    if (error instanceof DomainError && error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
    if (error instanceof ValidationError) return validation(request, reply, error.errors);
    if (error instanceof DomainError) {
      const { status, code } = domainStatus[error.code];
      return send(reply, status, { api_response: code, message: error.message });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return invalidFormat(reply, unsupportedContentType(request));
    // No body at all where one is required: its format is wrong, not a field.
    if (error.validation && error.validationContext === 'body' && request.body === undefined) return invalidFormat(reply, emptyBody());
    if (error.validation) return validation(request, reply, fieldErrorsFromAjv(error.validation));
    const status = error.statusCode ?? 500;
    if (status === 429) return send(reply, 429, throttled);
    if (status >= 400 && status < 500) {
      const code = status === 413 ? '4130' : '4000';
      const message = frameworkMessages[status] ?? `Invalid request format: ${error.message}`;
      return send(reply, status, { api_response: code, message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, systemError);
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const methods = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
    // `hasRoute` reads its url as a route's pattern: a path holding the pattern's syntax (`*`, `:name(`) is no route
    // of ours whatever the method, and would make it throw.
    const routed = PATTERN_SYNTAX.test(url)
      ? () => false
      : (path: string, method: (typeof methods)[number]) => app.hasRoute({ url: path, method });
    const others = methods.filter((m) => m !== request.method && routed(url, m));
    if (others.length > 0) {
      reply.header('allow', others.join(', '));
      return send(reply, 405, {
        api_response: '4050',
        message: `Method ${request.method} not allowed on ${url}; use ${others.join(', ')}`,
      });
    }
    if (!url.endsWith('/') && methods.some((m) => routed(`${url}/`, m))) {
      return send(reply, 404, { api_response: '4040', message: `Not found: paths end with a trailing slash, use ${url}/` });
    }
    return send(reply, 404, { api_response: '4040', message: `Not found: ${request.method} ${url}` });
  });
}

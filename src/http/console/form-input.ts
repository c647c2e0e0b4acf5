import { FieldErrorCollector, type FieldErrors } from '../../domain/errors.js';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A query string as Fastify parses it: a field sent once is a string, sent again an array. */
export type QueryFields = Record<string, string | string[] | undefined>;

/**
 * The fields of a form or query as sent. Console routes have no schema, so a body may be anything a parser
 * made of it (a form, any JSON value, nothing): what is not an object has no fields.
 */
export function formFields(source: unknown): Readonly<Record<string, unknown>> {
  return source && typeof source === 'object' ? (source as Record<string, unknown>) : {};
}

/**
 * Reads text fields of a query string or a form. A field sent twice, or longer than allowed, is an error on
 * that field; an empty field is as good as absent (an unfilled form input).
 */
export class FormInput {
  private readonly errors = new FieldErrorCollector();
  private readonly source: Readonly<Record<string, unknown>>;

  constructor(source: unknown) {
    this.source = formFields(source);
  }

  text(name: string, maxLength: number): string | undefined {
    const value = Object.hasOwn(this.source, name) ? this.source[name] : undefined;
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.errors.add([name], 'Send this field once.');
      return undefined;
    }
    const trimmed = value.trim();
    if (trimmed === '') return undefined;
    if (trimmed.length > maxLength) {
      this.errors.add([name], `Ensure this field has no more than ${maxLength} characters.`);
      return undefined;
    }
    return trimmed;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.text(name, 100);
    if (value === undefined) return undefined;
    if (!allowed.includes(value as T)) {
      this.errors.add([name], `Must be one of: ${allowed.join(', ')}.`);
      return undefined;
    }
    return value as T;
  }

  positiveInteger(name: string): number | undefined {
    const value = this.text(name, 15);
    if (value === undefined) return undefined;
    if (!/^[1-9]\d{0,14}$/.test(value)) {
      this.errors.add([name], 'Must be a positive whole number.');
      return undefined;
    }
    return Number(value);
  }

  hasErrors(): boolean {
    return !this.errors.empty;
  }

  fieldErrors(): FieldErrors {
    return this.errors.result();
  }
}

/** Field errors as lines a person reads: `field: message`. */
export function errorLines(errors: FieldErrors, prefix = ''): string[] {
  const lines: string[] = [];
  for (const [field, value] of Object.entries(errors)) {
    const name = prefix ? `${prefix}.${field}` : field;
    if (Array.isArray(value))
      for (const message of value) lines.push(field === 'non_field_errors' && !prefix ? message : `${name}: ${message}`);
    else lines.push(...errorLines(value, name));
  }
  return lines;
}

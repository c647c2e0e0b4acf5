/**
 * Domain errors. Services throw these; one mapper (src/http/errors.ts) turns them into the
 * interface's envelope. No service knows about HTTP.
 */

/** Messages by field: a field maps to messages, an object or array position nests further. */
export interface FieldErrors {
  [field: string]: string[] | FieldErrors;
}

export type DomainErrorCode =
  | 'validation'
  | 'invalid_request'
  | 'not_found'
  | 'feature_not_enabled'
  | 'conflict'
  | 'unauthorized'
  | 'unavailable';

export class DomainError extends Error {
  /** Set when the refusal is about a passing state: the same request may succeed after this many seconds. */
  retryAfterSeconds?: number;

  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(readonly errors: FieldErrors) {
    super('validation', 'validation_error');
  }

  /** One message on one field path, e.g. `ValidationError.at(['line_items', 1, 'quantity'], '...')`. */
  static at(fieldPath: Array<string | number>, message: string): ValidationError {
    const errors = new FieldErrorCollector();
    errors.add(fieldPath, message);
    return new ValidationError(errors.result());
  }
}

export class InvalidRequestError extends DomainError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'No results found') {
    super('not_found', message);
  }
}

export class FeatureNotEnabledError extends DomainError {
  constructor(readonly feature: string) {
    super('feature_not_enabled', `Feature not enabled: ${feature}`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/** Gathers field messages at nested paths; array positions become string keys. */
export class FieldErrorCollector {
  // Objects without a prototype: a field name chosen by a caller (`__proto__`, `constructor`) is just a key.
  private readonly root: FieldErrors = Object.create(null);
  private count = 0;

  add(fieldPath: Array<string | number>, message: string): void {
    if (fieldPath.length === 0) fieldPath = ['non_field_errors'];
    let node: FieldErrors = this.root;
    fieldPath.forEach((segment, index) => {
      const key = String(segment);
      const last = index === fieldPath.length - 1;
      const existing = Object.hasOwn(node, key) ? node[key] : undefined;
      if (last) {
        if (Array.isArray(existing)) {
          if (!existing.includes(message)) existing.push(message);
        } else if (existing === undefined) {
          node[key] = [message];
        } else {
          // An object already holds nested messages for this key; keep both.
          const nested = existing as FieldErrors;
          const own = (nested.non_field_errors as string[] | undefined) ?? [];
          own.push(message);
          nested.non_field_errors = own;
        }
      } else {
        if (existing === undefined || Array.isArray(existing)) {
          const child: FieldErrors = Object.create(null);
          if (Array.isArray(existing)) child.non_field_errors = existing;
          node[key] = child;
        }
        node = node[key] as FieldErrors;
      }
    });
    this.count++;
  }

  get empty(): boolean {
    return this.count === 0;
  }

  result(): FieldErrors {
    return this.root;
  }

  throwIfAny(): void {
    if (!this.empty) throw new ValidationError(this.root);
  }
}

import { describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../src/domain/errors.js';

describe('FieldErrorCollector', () => {
  it('keeps caller-chosen field names as plain keys, never touching prototypes', () => {
    const errors = new FieldErrorCollector();
    errors.add(['__proto__', 'polluted'], 'x');
    errors.add(['constructor'], 'y');
    errors.add(['line_items', 1, 'toString'], 'z');
    const result = JSON.parse(JSON.stringify(errors.result()));
    expect(result).toEqual({ ['__proto__']: { polluted: ['x'] }, constructor: ['y'], line_items: { '1': { toString: ['z'] } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

import fs from 'node:fs';
import path from 'node:path';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'royalm');

/** A Royal Mail fixture body (test/carriers/fixtures/royalm/README.md lists them). */
export function royalmFixture(name: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
}

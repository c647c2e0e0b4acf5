import fs from 'node:fs';
import path from 'node:path';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'postnl');

/** A PostNL fixture body (test/carriers/fixtures/postnl/README.md lists them). */
export function postnlFixture(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
}

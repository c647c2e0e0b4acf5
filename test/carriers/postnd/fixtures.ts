import fs from 'node:fs';
import path from 'node:path';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'postnd');

/** A PostNord fixture body (test/carriers/fixtures/postnd/README.md lists them). */
export function postndFixture(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
}

import fs from 'node:fs';
import path from 'node:path';
import { parseCanposXml } from '../../../src/carriers/canpos/canpos.payload.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'canpos');

/** A Canada Post fixture's XML text (test/carriers/fixtures/canpos/README.md lists them). */
export function canposXml(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, `${name}.xml`), 'utf8');
}

/** A Canada Post fixture, parsed as the adapter parses answers. */
export function canposFixture(name: string): Record<string, unknown> | null {
  return parseCanposXml(canposXml(name));
}

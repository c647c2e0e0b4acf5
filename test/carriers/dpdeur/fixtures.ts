import fs from 'node:fs';
import path from 'node:path';
import { parseDpdXml } from '../../../src/carriers/dpdeur/dpdeur.payload.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'dpdeur');

/** A DPD fixture's text (test/carriers/fixtures/dpdeur/README.md lists them). */
export function dpdFixtureText(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, `${name}.xml`), 'utf8');
}

/** A DPD fixture parsed as the adapter parses answers. */
export function dpdFixture(name: string): Record<string, unknown> | null {
  return parseDpdXml(dpdFixtureText(name));
}

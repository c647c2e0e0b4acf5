import fs from 'node:fs';
import path from 'node:path';

/** The hand-written DHL answers of test/carriers/fixtures/dhlglb (README.md there names their sources). */
export const DHL_FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'dhlglb');

export function dhlFixture(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(DHL_FIXTURES, `${name}.json`), 'utf8'));
}

/** Synthetic numbers that pass DHL's check digits (src/carriers/detect/dhl.ts), by fixture. */
export const DHL_NUMBERS = {
  transit: '3742185064',
  failure: '5810932746',
  unknown: '9026154830',
  dst: '4603729152',
  statusOnly: '2059468316',
  expressOther: '7139582461',
  delivered: '340528176905',
  returned: '340591247656',
  piece1: 'JJD000390018273645',
  piece2: 'JJD000390018273646',
  ecommerce: 'GM2950183746512093',
} as const;

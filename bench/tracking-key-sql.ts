/**
 * What the tracking-number key's SQL costs SQLite a row (`node --import tsx bench/tracking-key-sql.ts`): the
 * expression `shipments_account_tracking_key` indexes (`trackingNumberKeySql`: 26 nested `replace()` and `upper()`),
 * which every create with a tracking number evaluates for its index entry, against `upper()` alone and against the
 * same replacements made only for a number with a character other than an ASCII letter or digit (a `glob` first),
 * over 100,000 numbers of which one in ten has a space and a dash. In ns a row, the median of 5 rounds, each a
 * `select` of the expression over the table (the `upper()` alone is the select's own cost beside the expression's).
 */
import Database from 'better-sqlite3';
import { trackingNumberKeySql } from '../src/db/tracking-number-key.js';
import { median } from './fixtures.js';

const ROWS = 100_000;
const ROUNDS = 5;

const db = new Database(':memory:');
try {
  db.exec('create table numbers (tracking_number text)');
  const insert = db.prepare('insert into numbers values (?)');
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) insert.run(i % 10 === 0 ? `JD 0002-${i}` : `1Z999AA1${String(i).padStart(10, '0')}`);
  })();
  const key = trackingNumberKeySql('tracking_number');
  const chain = /^upper\((.*)\)$/s.exec(key)?.[1];
  if (!chain) throw new Error('the key is no longer upper() of the replacements');
  const expressions: Array<[string, string]> = [
    ['the key as indexed', key],
    ['the replacements only past a glob', `upper(case when tracking_number glob '*[^0-9A-Za-z]*' then ${chain} else tracking_number end)`],
    ['upper() alone', 'upper(tracking_number)'],
  ];
  const statements = expressions.map(([name, sql]) => [name, db.prepare(`select ${sql} from numbers`).pluck()] as const);
  const [reference, ...others] = statements.map(([, statement]) => JSON.stringify(statement.all()));
  if (others[0] !== reference) throw new Error('the glob-first form gives other keys');
  const times = new Map<string, number[]>(expressions.map(([name]) => [name, []]));
  // The first round warms up.
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, statement] of statements) {
      const started = process.hrtime.bigint();
      statement.all();
      if (round > 0) times.get(name)?.push(Number(process.hrtime.bigint() - started) / ROWS);
    }
  }
  for (const [name, values] of times) console.log(`${name}: ${median(values).toFixed(0)} ns a row`);
} finally {
  db.close();
}

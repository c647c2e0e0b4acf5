import { type RawBuilder, sql } from 'kysely';

/**
 * Every character JavaScript's `\s` matches (the spaces and line ends that carrier detection's
 * `normalizeTrackingNumber` removes, src/carriers/detect/index.ts), and the dash it removes with them.
 */
const REMOVED =
  '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff-';

/**
 * The SQL of a tracking number as carrier detection reads it (spaces and dashes removed, upper case), for a
 * column of the shipments table: "jd 0002-1234" and "JD00021234" give the same key. Pushed numbers are matched
 * on it, so a carrier that sends the number in its own spelling still finds the shipment.
 *
 * Migration 0022 indexes exactly this text (an index on an expression is used only by a query that repeats
 * it), so it must not change without a migration that builds the index again. Both SQLite and PostgreSQL read
 * it; SQLite's `upper` changes ASCII letters only, which is what tracking numbers are made of.
 */
export function trackingNumberKeySql(column: string): string {
  let expression = column;
  for (const character of REMOVED) expression = `replace(${expression}, '${character}', '')`;
  return `upper(${expression})`;
}

/**
 * The key of a number given as a value (bound as a parameter), by the same SQL as `trackingNumberKeySql`, so
 * that it compares equal to the indexed key of every stored number it equals, whatever letters it holds.
 */
export function trackingNumberKeyOf(value: string): RawBuilder<string> {
  let expression: RawBuilder<unknown> = sql`${value}`;
  for (const character of REMOVED) expression = sql`replace(${expression}, ${sql.lit(character)}, '')`;
  return sql<string>`upper(${expression})`;
}

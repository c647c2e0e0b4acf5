import type { Kysely } from 'kysely';
import { PreparedQueryFamily } from '../prepared-query.js';
import type { Database } from '../schema.js';

/** One change to a cell's count of shipments with a transit, in an acceptance week. */
export interface TransitSample {
  level: number;
  cell_key: string;
  week: string;
  transit: number;
  /** +1 to count a first attempt, −1 to take one back (a parcel later returned or lost). */
  delta: number;
}

export interface TransitCount {
  cell_key: string;
  week: string;
  transit: number;
  shipments: number;
}

/**
 * A prediction reads the counts of a lane's cells (one key per level of the lane) for every shipment it
 * predicts: prepared once per number of keys (see PreparedQuery), where building the query cost more than
 * running it. Arguments: scope, sinceWeek, then the keys.
 */
const countsByKeys = new PreparedQueryFamily<string[], TransitCount>(16);

function countsQuery(db: Kysely<Database>, scope: string, cellKeys: readonly string[], sinceWeek: string) {
  return db
    .selectFrom('transit_histograms')
    .select(['cell_key', 'week', 'transit', 'shipments'])
    .where('scope', '=', scope)
    .where('cell_key', 'in', cellKeys)
    .where('week', '>=', sinceWeek)
    .where('shipments', '>', 0);
}

/** Transit histograms per lane cell and acceptance week: what delivery predictions learn from. */
export class TransitHistogramsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds the samples in one statement (the same upsert on SQLite and PostgreSQL). */
  async add(scope: string, samples: readonly TransitSample[]): Promise<void> {
    // 1,000 rows of 6 columns a statement, in the order given (the learner's key order).
    for (let i = 0; i < samples.length; i += 1_000)
      await this.db
        .insertInto('transit_histograms')
        .values(
          samples
            .slice(i, i + 1_000)
            .map((s) => ({ scope, level: s.level, cell_key: s.cell_key, week: s.week, transit: s.transit, shipments: s.delta })),
        )
        .onConflict((oc) =>
          oc
            .columns(['scope', 'cell_key', 'week', 'transit'])
            .doUpdateSet((eb) => ({ shipments: eb('transit_histograms.shipments', '+', eb.ref('excluded.shipments')) })),
        )
        .execute();
  }

  /** The counts of these cells from acceptance week `sinceWeek` on. */
  async counts(scope: string, cellKeys: readonly string[], sinceWeek: string): Promise<TransitCount[]> {
    if (cellKeys.length === 0) return [];
    const prepared = countsByKeys.get(
      String(cellKeys.length),
      () =>
        (db, ...args) =>
          countsQuery(db, args[0], args.slice(2), args[1]),
    );
    if (prepared) return prepared.execute(this.db, scope, sinceWeek, ...cellKeys);
    return countsQuery(this.db, scope, cellKeys, sinceWeek).execute();
  }
}

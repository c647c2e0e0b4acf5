import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';

/**
 * Version rows (0026_shipment_versions) for shipments a benchmark wrote straight into the table: on SQLite no trigger
 * writes them (0030), the shipments repository does, and a shipment without one is not found. A row that has one
 * (PostgreSQL's trigger wrote it) keeps it.
 */
export async function writeVersionRows(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  for (let at = 0; at < ids.length; at += 500) {
    await db
      .insertInto('shipment_versions')
      .values(ids.slice(at, at + 500).map((id) => ({ shipment_row_id: id, version: 0 })))
      .onConflict((conflict) => conflict.column('shipment_row_id').doNothing())
      .execute();
  }
}

import { sql } from 'kysely';
import type { MigrationDb } from './helpers.js';
import { isPostgres } from './helpers.js';

/**
 * On SQLite, drops the trigger of 0026_shipment_versions that wrote a new shipment's version row. The trigger made
 * each create's insert a statement that may write several rows, for which SQLite copies every page the insert
 * changes to a statement journal before it writes them (so did its `returning`, which the shipments repository no
 * longer asks for on SQLite): about 60,000 instructions a create, 5% of it (docs/performance.md). The shipments
 * repository writes the row itself, as the release before this migration already did beside the trigger
 * (docs/operations.md, "Upgrading past 0030"). The triggers that bump a version on an update and remove it with
 * its shipment stay. PostgreSQL keeps its trigger: it has no statement journal, and the row written by the
 * repository would cost a round trip more.
 */
export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql`drop trigger if exists shipment_versions_shipment_insert`.execute(db);
}

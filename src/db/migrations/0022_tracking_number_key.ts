import { sql } from 'kysely';
import { trackingNumberKeySql } from '../tracking-number-key.js';
import type { MigrationDb } from './helpers.js';

/**
 * Pushed numbers are matched to shipments on the number as detection reads it (spaces and dashes removed, upper
 * case), so "JD00021234" pushed finds the shipment stored as "jd 0002 1234": an index on that key within the
 * account keeps the match a lookup. Being an expression of the stored number, it holds for existing rows at once
 * and for every later write, with nothing to fill or keep in step.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create index shipments_account_tracking_key on shipments (account_id, (${sql.raw(trackingNumberKeySql('tracking_number'))}))`.execute(
    db,
  );
}

import { type MigrationDb, notNull } from './helpers.js';

/**
 * `tracking_stops`: the numbers an aggregator was told to stop following (a `carrier.stop` that succeeded), one
 * row per account, carrier configuration and number as carrier detection reads it (spaces and dashes removed,
 * upper case), written again when a number is stopped again. A poll of a number with a row has the aggregator
 * track it again before asking it (otherwise it answers what it had when it stopped) and removes the row; the
 * primary key makes that check one lookup per batch of numbers.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('tracking_stops')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('carrier_reference', 'text', notNull)
    .addColumn('tracking_key', 'text', notNull)
    .addColumn('stopped_at', 'text', notNull)
    .addPrimaryKeyConstraint('tracking_stops_pkey', ['account_id', 'carrier_reference', 'tracking_key'])
    .execute();
}

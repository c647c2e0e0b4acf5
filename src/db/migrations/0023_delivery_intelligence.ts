import { sql } from 'kysely';
import type { MigrationDb } from './helpers.js';
import { isPostgres, notNull } from './helpers.js';

/**
 * Delivery intelligence (docs/delivery-intelligence.md):
 * - `transit_histograms`: how many shipments of a lane cell, accepted in a week, took each transit (working
 *   days). One row per cell level per shipment's first attempt; predictions read the cells of a lane.
 *   `scope` is '' when history is pooled over the instance, else the account's id.
 * - `delivery_facts`: per tracked shipment, the milestones analytics count (acceptance, first attempt, outcome,
 *   the original window), so that a change is applied to the daily aggregates as the difference it makes.
 * - `delivery_daily` and `delivery_daily_transits`: per account, day (of acceptance, or of the first event
 *   for a shipment not accepted yet) and lane, the counts and transit histogram the analytics are answered from.
 * - `delivery_rollups`: the same per ISO week and per calendar month (`unit`, `start` its first day), kept by
 *   the same writes, with the histogram as a JSON text `[[transit, early, on_time, late, none], …]`: a period
 *   reads its whole weeks or months here and only the days at its ends from `delivery_daily`.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('transit_histograms')
    .addColumn('scope', 'text', notNull)
    .addColumn('level', 'integer', notNull)
    .addColumn('cell_key', 'text', notNull)
    .addColumn('week', 'text', notNull)
    .addColumn('transit', 'integer', notNull)
    .addColumn('shipments', 'integer', notNull)
    .addPrimaryKeyConstraint('transit_histograms_pkey', ['scope', 'cell_key', 'week', 'transit'])
    .execute();

  await db.schema
    .createTable('delivery_facts')
    .addColumn('shipment_row_id', 'bigint', (c) => c.primaryKey().references('shipments.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('day', 'text', notNull)
    .addColumn('lane_key', 'text', notNull)
    .addColumn('carrier_reference', 'text', notNull)
    .addColumn('carrier_id', 'text', notNull)
    .addColumn('shipping_service', 'text', notNull)
    .addColumn('origin_country', 'text', notNull)
    .addColumn('destination_country', 'text', notNull)
    .addColumn('destination_prefix', 'text', notNull)
    .addColumn('accepted_date', 'text')
    .addColumn('first_attempt_date', 'text')
    .addColumn('first_attempt_phase', 'text')
    .addColumn('delivered', 'integer', notNull)
    .addColumn('transit', 'integer')
    .addColumn('promised_from', 'text')
    .addColumn('promised_to', 'text')
    .addColumn('exception', 'integer', notNull)
    .addColumn('returned', 'integer', notNull)
    .addColumn('sampled', 'integer', notNull)
    .addColumn('last_scan_at', 'text')
    .execute();
  // The console's exception queue: open shipments of an account past their window.
  await db.schema.createIndex('delivery_facts_promised').on('delivery_facts').columns(['account_id', 'promised_to']).execute();

  await db.schema
    .createTable('delivery_daily')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('day', 'text', notNull)
    .addColumn('lane_key', 'text', notNull)
    .addColumn('carrier_reference', 'text', notNull)
    .addColumn('carrier_id', 'text', notNull)
    .addColumn('shipping_service', 'text', notNull)
    .addColumn('origin_country', 'text', notNull)
    .addColumn('destination_country', 'text', notNull)
    .addColumn('destination_prefix', 'text', notNull)
    .addColumn('shipments', 'integer', notNull)
    .addColumn('accepted', 'integer', notNull)
    .addColumn('first_attempts', 'integer', notNull)
    .addColumn('first_attempt_successes', 'integer', notNull)
    .addColumn('delivered', 'integer', notNull)
    .addColumn('on_time', 'integer', notNull)
    .addColumn('promised', 'integer', notNull)
    .addColumn('exceptions', 'integer', notNull)
    .addColumn('returned_to_sender', 'integer', notNull)
    .addPrimaryKeyConstraint('delivery_daily_pkey', ['account_id', 'day', 'lane_key'])
    .execute();

  await db.schema
    .createTable('delivery_daily_transits')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('day', 'text', notNull)
    .addColumn('lane_key', 'text', notNull)
    .addColumn('transit', 'integer', notNull)
    // Against the original window: 'early' (before from), 'on_time', 'late' (after to), 'none' (no window).
    .addColumn('timing', 'text', notNull)
    .addColumn('shipments', 'integer', notNull)
    .addPrimaryKeyConstraint('delivery_daily_transits_pkey', ['account_id', 'day', 'lane_key', 'transit', 'timing'])
    .execute();

  const rollups = db.schema
    .createTable('delivery_rollups')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('unit', 'text', notNull)
    .addColumn('start', 'text', notNull)
    .addColumn('lane_key', 'text', notNull)
    .addColumn('carrier_reference', 'text', notNull)
    .addColumn('carrier_id', 'text', notNull)
    .addColumn('shipping_service', 'text', notNull)
    .addColumn('origin_country', 'text', notNull)
    .addColumn('destination_country', 'text', notNull)
    .addColumn('destination_prefix', 'text', notNull)
    .addColumn('shipments', 'integer', notNull)
    .addColumn('accepted', 'integer', notNull)
    .addColumn('first_attempts', 'integer', notNull)
    .addColumn('first_attempt_successes', 'integer', notNull)
    .addColumn('delivered', 'integer', notNull)
    .addColumn('on_time', 'integer', notNull)
    .addColumn('promised', 'integer', notNull)
    .addColumn('exceptions', 'integer', notNull)
    .addColumn('returned_to_sender', 'integer', notNull)
    .addColumn('transits', 'text', notNull)
    .addPrimaryKeyConstraint('delivery_rollups_pkey', ['account_id', 'unit', 'start', 'lane_key']);
  // Stored in key order on SQLite: a period's weeks or months are then read as one run of pages, not one
  // look-up per row.
  await (isPostgres(db) ? rollups : rollups.modifyEnd(sql`without rowid`)).execute();
}

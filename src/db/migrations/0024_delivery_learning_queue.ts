import type { Kysely } from 'kysely';
import type { MigrationDb } from './helpers.js';
import { notNull } from './helpers.js';

/**
 * - `delivery_learning`: the shipments whose journey changed since delivery intelligence last counted them. A
 *   tracking change adds its shipment here in its own transaction (one row, written again however often it
 *   changes); the learner counts them in batches (src/jobs/delivery-learning.task.ts) and removes their rows in
 *   the same transaction, so a change is counted once and none is lost.
 * - `delivery_rollups` gains rows by carrier configuration and service (`unit` `carrier_day`, `carrier_week`, `carrier_month`,
 *   `lane_key` `["reference","carrier","service"]`, countries and prefix ''), summed here from the lane rows
 *   written so far; the learner keeps both from now on.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('delivery_learning')
    .addColumn('shipment_row_id', 'bigint', (c) => c.primaryKey().references('shipments.id').onDelete('cascade'))
    .addColumn('queued_at', 'text', notNull)
    .execute();
  await addCarrierRollups(db as Kysely<any>);
}

const COUNTERS = [
  'shipments',
  'accepted',
  'first_attempts',
  'first_attempt_successes',
  'delivered',
  'on_time',
  'promised',
  'exceptions',
  'returned_to_sender',
] as const;

/**
 * The carrier-grain rows of the lane rows there are, an account at a time: weeks and months from the lanes' weeks
 * and months, days from the daily rows and their transits.
 */
async function addCarrierRollups(db: Kysely<any>): Promise<void> {
  const accounts = await db.selectFrom('delivery_daily').select('account_id').distinct().execute();
  for (const { account_id } of accounts) {
    const lanes = await db
      .selectFrom('delivery_rollups')
      .selectAll()
      .where('account_id', '=', account_id)
      .where('unit', 'in', ['week', 'month'])
      .execute();
    const daily = await db.selectFrom('delivery_daily').selectAll().where('account_id', '=', account_id).execute();
    const transits = await db.selectFrom('delivery_daily_transits').selectAll().where('account_id', '=', account_id).execute();
    const timings = ['early', 'on_time', 'late', 'none'];
    const binsOf = new Map<string, number[][]>();
    for (const row of transits) {
      const at = timings.indexOf(row.timing);
      if (at < 0) continue;
      const key = JSON.stringify([row.day, row.lane_key]);
      const bins = binsOf.get(key) ?? [];
      const bin = [Number(row.transit), 0, 0, 0, 0];
      bin[1 + at] = Number(row.shipments);
      bins.push(bin);
      binsOf.set(key, bins);
    }
    for (const day of daily)
      lanes.push({
        ...day,
        unit: 'day',
        start: day.day,
        transits: JSON.stringify(binsOf.get(JSON.stringify([day.day, day.lane_key])) ?? []),
      });
    const rows = new Map<string, { row: Record<string, unknown>; bins: Map<number, number[]> }>();
    for (const lane of lanes) {
      const laneKey = JSON.stringify([lane.carrier_reference, lane.carrier_id, lane.shipping_service]);
      const unit = `carrier_${lane.unit}`;
      const id = JSON.stringify([unit, lane.start, laneKey]);
      let entry = rows.get(id);
      if (!entry) {
        entry = {
          row: {
            account_id,
            unit,
            start: lane.start,
            lane_key: laneKey,
            carrier_reference: lane.carrier_reference,
            carrier_id: lane.carrier_id,
            shipping_service: lane.shipping_service,
            origin_country: '',
            destination_country: '',
            destination_prefix: '',
            ...Object.fromEntries(COUNTERS.map((counter) => [counter, 0])),
          },
          bins: new Map(),
        };
        rows.set(id, entry);
      }
      for (const counter of COUNTERS) (entry.row[counter] as number) += Number(lane[counter]);
      for (const [transit, ...counts] of JSON.parse(lane.transits) as number[][]) {
        const sum = entry.bins.get(transit) ?? [0, 0, 0, 0];
        counts.forEach((n, i) => {
          sum[i] += n;
        });
        entry.bins.set(transit, sum);
      }
    }
    const values = [...rows.values()].map(({ row, bins }) => ({
      ...row,
      transits: JSON.stringify(
        [...bins]
          .filter(([, counts]) => counts.some((n) => n !== 0))
          .sort(([a], [b]) => a - b)
          .map(([transit, counts]) => [transit, ...counts]),
      ),
    }));
    for (let i = 0; i < values.length; i += 500) {
      await db
        .insertInto('delivery_rollups')
        .values(values.slice(i, i + 500))
        .execute();
    }
  }
}

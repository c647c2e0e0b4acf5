import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, DeliveryDailyTable, DeliveryFactsTable } from '../schema.js';

export type DeliveryFactRow = Selectable<DeliveryFactsTable>;

/** Counters of `delivery_daily` (everything but the key). */
export const DAILY_COUNTERS = [
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
export type DailyCounter = (typeof DAILY_COUNTERS)[number];

/** A change to one `delivery_daily` row: its key and the counters' differences. */
export type DailyDelta = Omit<Insertable<DeliveryDailyTable>, DailyCounter> & Record<DailyCounter, number>;

/** A change to one transit count of a `delivery_daily` row. */
export interface DailyTransitDelta {
  account_id: number;
  day: string;
  lane_key: string;
  transit: number;
  timing: string;
  delta: number;
}

/**
 * Per shipment, the milestones delivery analytics count, and the daily aggregates they are answered from.
 * A shipment's change reaches the aggregates as the difference between its old and new facts.
 */
export class DeliveryFactsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  get(shipmentRowId: number): Promise<DeliveryFactRow | undefined> {
    return this.db.selectFrom('delivery_facts').selectAll().where('shipment_row_id', '=', shipmentRowId).executeTakeFirst();
  }

  async put(fact: DeliveryFactRow): Promise<void> {
    const { shipment_row_id: _id, ...rest } = fact;
    await this.db
      .insertInto('delivery_facts')
      .values(fact)
      .onConflict((oc) => oc.column('shipment_row_id').doUpdateSet(rest))
      .execute();
  }

  /** Adds the differences to the daily rows (created at zero when missing), one statement per table. */
  async applyDaily(rows: readonly DailyDelta[], transits: readonly DailyTransitDelta[]): Promise<void> {
    if (rows.length > 0) {
      await this.db
        .insertInto('delivery_daily')
        .values([...rows])
        .onConflict((oc) =>
          oc.columns(['account_id', 'day', 'lane_key']).doUpdateSet((eb) => {
            const set: Record<string, unknown> = {};
            for (const counter of DAILY_COUNTERS) set[counter] = eb(`delivery_daily.${counter}`, '+', eb.ref(`excluded.${counter}`));
            return set;
          }),
        )
        .execute();
    }
    if (transits.length > 0) {
      await this.db
        .insertInto('delivery_daily_transits')
        .values(transits.map(({ delta, ...key }) => ({ ...key, shipments: delta })))
        .onConflict((oc) =>
          oc
            .columns(['account_id', 'day', 'lane_key', 'transit', 'timing'])
            .doUpdateSet((eb) => ({ shipments: eb('delivery_daily_transits.shipments', '+', eb.ref('excluded.shipments')) })),
        )
        .execute();
    }
  }
}

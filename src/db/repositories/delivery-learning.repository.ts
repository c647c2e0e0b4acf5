import type { Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { PreparedQuery } from '../prepared-query.js';
import type { Database } from '../schema.js';

// Written with every change of a tracked shipment's journey: compiled once. A shipment already queued is
// written again rather than left: on PostgreSQL the write waits for a learner that holds the row (and has read
// the shipment as it was), and queues the shipment again once that learner is done.
const queueOne = new PreparedQuery((db, shipmentRowId: number, queuedAt: string) =>
  db
    .insertInto('delivery_learning')
    .values({ shipment_row_id: shipmentRowId, queued_at: queuedAt })
    .onConflict((oc) => oc.column('shipment_row_id').doUpdateSet((eb) => ({ queued_at: eb.ref('excluded.queued_at') }))),
);

/** The shipments delivery intelligence has yet to count again (`delivery_learning`). */
export class DeliveryLearningRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  async queue(shipmentRowId: number, queuedAt: string): Promise<void> {
    await queueOne.execute(this.db, shipmentRowId, queuedAt);
  }

  /**
   * Up to `limit` queued shipments, in id order, held for the rest of the transaction: on PostgreSQL those held
   * by another learner are skipped (SQLite transactions are serial).
   */
  async claim(limit: number): Promise<number[]> {
    const query = this.db.selectFrom('delivery_learning').select('shipment_row_id').orderBy('shipment_row_id').limit(limit);
    const rows = await (this.dialect === 'postgres' ? query.forUpdate().skipLocked() : query).execute();
    return rows.map((row) => Number(row.shipment_row_id));
  }

  async remove(shipmentRowIds: readonly number[]): Promise<void> {
    if (shipmentRowIds.length === 0) return;
    await this.db
      .deleteFrom('delivery_learning')
      .where('shipment_row_id', 'in', [...shipmentRowIds])
      .execute();
  }

  /** How many shipments wait to be counted (operators' metrics, tests). */
  async size(): Promise<number> {
    const row = await this.db
      .selectFrom('delivery_learning')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

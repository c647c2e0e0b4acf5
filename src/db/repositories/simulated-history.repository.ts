import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { ShipmentRow } from './shipments.repository.js';

/**
 * The shipments of a simulated history (src/domain/delivery/simulated-history.writer.ts): found and deleted by
 * their `source`, within one account. Deleting a shipment removes its events, tags, notifications, webhook events
 * and delivery facts with it (their foreign keys cascade).
 */
export class SimulatedHistoryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Up to `limit` of the account's shipments with this source, by row id after `afterId`. */
  page(accountId: number, source: string, afterId: number, limit: number): Promise<ShipmentRow[]> {
    return this.db
      .selectFrom('shipments')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('source', '=', source)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Deletes these shipments of the account when they have this source; answers how many went. */
  async delete(accountId: number, source: string, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db
      .deleteFrom('shipments')
      .where('account_id', '=', accountId)
      .where('source', '=', source)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** How many of the account's shipments have this source. */
  async count(accountId: number, source: string): Promise<number> {
    const row = await this.db
      .selectFrom('shipments')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('account_id', '=', accountId)
      .where('source', '=', source)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { DialectName } from '../connection.js';
import type { Database, ShipmentsTable } from '../schema.js';

export type ShipmentRow = Selectable<ShipmentsTable>;

export interface ShipmentListFilter {
  createdFrom?: string;
  createdTo?: string;
  updatedFrom?: string;
  updatedTo?: string;
  shipmentId?: string;
  orderId?: string;
  trackingNumber?: string;
  carrierReference?: string;
  status?: string;
  tag?: string;
}

export class ShipmentsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /**
   * Claims shipments whose poll is due, oldest due first, by moving their next poll to the end of a
   * lease: a worker that dies mid-poll leaves them due again when the lease ends, and two workers never
   * claim the same shipment. Cost follows the number due (index on next_poll_at), not the number tracked.
   */
  async claimDuePolls(now: string, leaseUntil: string, limit: number): Promise<ShipmentRow[]> {
    const lock = this.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const result = await sql<ShipmentRow>`
      update shipments set next_poll_at = ${leaseUntil}
      where id in (
        select id from shipments where next_poll_at <= ${now} order by next_poll_at limit ${limit} ${lock}
      )
      returning *`.execute(this.db);
    return result.rows;
  }

  /** Locks one shipment row for the rest of the transaction (PostgreSQL; SQLite transactions are serial). */
  async lock(id: number): Promise<ShipmentRow | undefined> {
    let query = this.db.selectFrom('shipments').selectAll().where('id', '=', id);
    if (this.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  insert(row: Insertable<ShipmentsTable>): Promise<ShipmentRow> {
    return this.db.insertInto('shipments').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, changes: Updateable<ShipmentsTable>): Promise<ShipmentRow> {
    return this.db.updateTable('shipments').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  findByUuid(accountId: number, shipmentUuid: string): Promise<ShipmentRow | undefined> {
    return this.db
      .selectFrom('shipments')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('shipment_uuid', '=', shipmentUuid)
      .executeTakeFirst();
  }

  findByShipmentId(accountId: number, shipmentId: string): Promise<ShipmentRow | undefined> {
    return this.db
      .selectFrom('shipments')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('shipment_id', '=', shipmentId)
      .executeTakeFirst();
  }

  async replaceTags(accountId: number, shipmentRowId: number, tags: string[]): Promise<void> {
    await this.db.deleteFrom('shipment_tags').where('shipment_row_id', '=', shipmentRowId).execute();
    const unique = [...new Set(tags)];
    if (unique.length > 0) {
      await this.db
        .insertInto('shipment_tags')
        .values(unique.map((tag) => ({ shipment_row_id: shipmentRowId, account_id: accountId, tag })))
        .execute();
    }
  }

  /** Newest first, keyset-paginated on the row id: stable while new shipments arrive. */
  list(accountId: number, filter: ShipmentListFilter, limit: number, beforeId: number | null): Promise<ShipmentRow[]> {
    let query = this.db.selectFrom('shipments').selectAll('shipments').where('shipments.account_id', '=', accountId);
    if (beforeId !== null) query = query.where('shipments.id', '<', beforeId);
    if (filter.createdFrom) query = query.where('shipments.created_at', '>=', filter.createdFrom);
    if (filter.createdTo) query = query.where('shipments.created_at', '<=', filter.createdTo);
    if (filter.updatedFrom) query = query.where('shipments.updated_at', '>=', filter.updatedFrom);
    if (filter.updatedTo) query = query.where('shipments.updated_at', '<=', filter.updatedTo);
    if (filter.shipmentId) query = query.where('shipments.shipment_id', '=', filter.shipmentId);
    if (filter.trackingNumber) query = query.where('shipments.tracking_number', '=', filter.trackingNumber);
    if (filter.carrierReference) query = query.where('shipments.carrier_reference', '=', filter.carrierReference);
    if (filter.status) query = query.where('shipments.status', '=', filter.status);
    if (filter.orderId) {
      const orderId = filter.orderId;
      query = query.where('shipments.order_row_id', 'in', (qb) =>
        qb.selectFrom('orders').select('orders.id').where('orders.account_id', '=', accountId).where('orders.order_id', '=', orderId),
      );
    }
    if (filter.tag) {
      const tag = filter.tag;
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('shipment_tags')
            .select(sql`1`.as('one'))
            .whereRef('shipment_tags.shipment_row_id', '=', 'shipments.id')
            .where('shipment_tags.account_id', '=', accountId)
            .where('shipment_tags.tag', '=', tag),
        ),
      );
    }
    return query.orderBy('shipments.id', 'desc').limit(limit).execute();
  }
}

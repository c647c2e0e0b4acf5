import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DialectName } from '../connection.js';
import type { Database, ReturnsTable } from '../schema.js';

export type ReturnRow = Selectable<ReturnsTable>;

export class ReturnsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  insert(row: Insertable<ReturnsTable>): Promise<ReturnRow> {
    return this.db.insertInto('returns').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<ReturnsTable>): Promise<ReturnRow> {
    return this.db.updateTable('returns').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * The caller's return by service uuid or merchant return id, locked for the transaction on PostgreSQL against
   * other writers of it (the lock an update takes; rows referring to it may still be written).
   */
  async findForUpdate(accountId: number, by: { return_uuid?: string; return_id?: string }): Promise<ReturnRow | undefined> {
    let query = this.db.selectFrom('returns').selectAll().where('account_id', '=', accountId);
    query = by.return_uuid ? query.where('return_uuid', '=', by.return_uuid) : query.where('return_id', '=', by.return_id ?? '');
    if (this.dialect === 'postgres') query = query.forNoKeyUpdate();
    return query.executeTakeFirst();
  }

  findByReturnId(accountId: number, returnId: string): Promise<ReturnRow | undefined> {
    return this.db
      .selectFrom('returns')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('return_id', '=', returnId)
      .executeTakeFirst();
  }

  findByShipment(shipmentRowId: number): Promise<ReturnRow | undefined> {
    return this.db.selectFrom('returns').selectAll().where('shipment_row_id', '=', shipmentRowId).executeTakeFirst();
  }

  /** The account's returns, newest first, with their shipment's ids; `beforeId` continues after the last row of a page. */
  listForAccount(accountId: number, options: { status?: string; beforeId?: number; limit: number }) {
    let query = this.db
      .selectFrom('returns as r')
      .innerJoin('shipments as s', 's.id', 'r.shipment_row_id')
      .selectAll('r')
      .select(['s.shipment_uuid', 's.shipment_id'])
      .where('r.account_id', '=', accountId);
    if (options.status) query = query.where('r.status', '=', options.status);
    if (options.beforeId !== undefined) query = query.where('r.id', '<', options.beforeId);
    return query.orderBy('r.id', 'desc').limit(options.limit).execute();
  }
}

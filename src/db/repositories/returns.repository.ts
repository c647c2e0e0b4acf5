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

  /** The caller's return by service uuid or merchant return id, locked for the transaction on PostgreSQL. */
  async findForUpdate(accountId: number, by: { return_uuid?: string; return_id?: string }): Promise<ReturnRow | undefined> {
    let query = this.db.selectFrom('returns').selectAll().where('account_id', '=', accountId);
    query = by.return_uuid ? query.where('return_uuid', '=', by.return_uuid) : query.where('return_id', '=', by.return_id ?? '');
    if (this.dialect === 'postgres') query = query.forUpdate();
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
}

import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { PreparedQuery } from '../prepared-query.js';
import type { Database, DocumentsTable } from '../schema.js';

export type DocumentRow = Selectable<DocumentsTable>;

const listForShipment = new PreparedQuery((db, shipmentRowId: number) =>
  db.selectFrom('documents').selectAll().where('shipment_row_id', '=', shipmentRowId).orderBy('id'),
);

export class DocumentsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(row: Insertable<DocumentsTable>): Promise<DocumentRow> {
    return this.db.insertInto('documents').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<DocumentsTable>): Promise<DocumentRow> {
    return this.db.updateTable('documents').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  findByUuid(accountId: number, documentUuid: string): Promise<DocumentRow | undefined> {
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('document_uuid', '=', documentUuid)
      .executeTakeFirst();
  }

  /** For signed downloads, which carry no account: the signature is the authority. */
  findByUuidAnyAccount(documentUuid: string): Promise<DocumentRow | undefined> {
    return this.db.selectFrom('documents').selectAll().where('document_uuid', '=', documentUuid).executeTakeFirst();
  }

  findById(id: number): Promise<DocumentRow | undefined> {
    return this.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listForShipments(shipmentRowIds: number[], type?: string): Promise<DocumentRow[]> {
    if (shipmentRowIds.length === 0) return Promise.resolve([]);
    if (shipmentRowIds.length === 1 && !type) return listForShipment.execute(this.db, shipmentRowIds[0]);
    let query = this.db.selectFrom('documents').selectAll().where('shipment_row_id', 'in', shipmentRowIds);
    if (type) query = query.where('type', '=', type);
    return query.orderBy('id').execute();
  }

  listForBooking(bookingRowId: number): Promise<DocumentRow[]> {
    return this.db.selectFrom('documents').selectAll().where('booking_row_id', '=', bookingRowId).orderBy('id').execute();
  }
}

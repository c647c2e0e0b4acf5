import { sql } from 'kysely';
import type { MigrationDb } from './helpers.js';
import { isPostgres } from './helpers.js';

/**
 * On SQLite, `shipment_tags` is rebuilt as a table WITHOUT ROWID keyed by its primary key (shipment, tag). Before, it
 * was three B-trees: the rows by a hidden rowid, the primary key's index, and `shipment_tags_account_tag`. Every
 * read goes by one of the two keys and never by the rowid, so the rows now live in the primary key's own B-tree: a
 * tag written is one B-tree fewer to change, and a create's commit writes one page fewer to the log
 * (`node --import tsx bench/create-cost.ts` counts them). The rows, the keys, the cascade from `shipments` and the
 * account's index are as they were. The copy is one pass in key order: 2,000,000 tags took 2.8 s. PostgreSQL
 * keeps its table: its rows have no such second tree.
 */
export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  // One transaction: migrations on SQLite run statement by statement, and a process stopped between the drop and
  // the rename would leave the tags out of the table every query reads.
  await db.transaction().execute(async (trx) => {
    await sql`
      create table shipment_tags_rebuilt (
        shipment_row_id bigint not null references shipments (id) on delete cascade,
        account_id bigint not null,
        tag text not null,
        constraint shipment_tags_pk primary key (shipment_row_id, tag)
      ) without rowid`.execute(trx);
    // A tag whose shipment is gone (written with foreign keys off) cannot move under the new table's key, and no
    // query could reach it: it is left behind rather than stopping every start.
    await sql`
      insert into shipment_tags_rebuilt (shipment_row_id, account_id, tag)
      select shipment_row_id, account_id, tag from shipment_tags
      where exists (select 1 from shipments where shipments.id = shipment_tags.shipment_row_id)`.execute(trx);
    await sql`drop table shipment_tags`.execute(trx);
    await sql`alter table shipment_tags_rebuilt rename to shipment_tags`.execute(trx);
    await trx.schema
      .createIndex('shipment_tags_account_tag')
      .on('shipment_tags')
      .columns(['account_id', 'tag', 'shipment_row_id'])
      .execute();
  });
}

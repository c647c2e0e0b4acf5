import { sql } from 'kysely';
import type { MigrationDb } from './helpers.js';
import { isPostgres } from './helpers.js';

/**
 * `shipment_versions`: one number per shipment that changes with everything its rendering is made from (the
 * shipment's row, its order, its events, its documents, its return ticket). Shipment renderings kept by a
 * process are checked against it with one narrow read (src/domain/shipments/shipment-json-cache.ts), so a change
 * made by any process, or straight in the database, is never answered from a stale copy.
 *
 * Triggers keep it, in the transaction of the write: every write path is covered, including those added later,
 * and a write rolled back takes its bump with it. (On SQLite, 0030 dropped the insert's trigger: the shipments
 * repository writes a new shipment's row.) It is a table of its own, not a column of `shipments`: SQLite
 * cannot change the row a trigger fires for except by writing it again, and a shipment row holds its whole body.
 *
 * An update of a shipment bumps it when it sets a column the rendering shows (`SHOWN_COLUMNS`); the poller's bookkeeping
 * (next poll, failures, digests, push subscription, webhook sequence) and the proof-of-delivery file (whose link is
 * made for every answer from the row's head) do not. test/shipments/shipments.render-cache.test.ts checks that
 * changing any other column changes no rendering: a presenter that starts showing one needs a migration adding it.
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('shipment_versions')
    .addColumn('shipment_row_id', postgres ? 'bigint' : 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into shipment_versions (shipment_row_id, version) select id, 0 from shipments`.execute(db);
  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

/** The columns of `shipments` a rendering shows (with `account_id` and `id`, which never change). */
export const SHOWN_COLUMNS = [
  'shipment_uuid',
  'shipment_id',
  'tracking_number',
  'carrier_reference',
  'carrier_id',
  'order_row_id',
  'status',
  'phase_key',
  'source',
  'shipment_type',
  'tracking_page_reference',
  'body',
  'created_at',
  'updated_at',
  'collection_point',
];

const bump = (idExpression: string) => `update shipment_versions set version = version + 1 where shipment_row_id = ${idExpression}`;
const bumpOrder = (order: string) =>
  `update shipment_versions set version = version + 1 where shipment_row_id in ` +
  `(select id from shipments where account_id = ${order}.account_id and order_row_id = ${order}.id)`;

/** Tables whose rows belong to one shipment (`shipment_row_id`) and show in its rendering. */
const PARTS = ['tracking_events', 'documents', 'returns'] as const;

async function sqliteTriggers(db: MigrationDb): Promise<void> {
  const statements = [
    `create trigger shipment_versions_shipment_insert after insert on shipments begin
       insert into shipment_versions (shipment_row_id, version) values (new.id, 0); end`,
    `create trigger shipment_versions_shipment_update after update of ${SHOWN_COLUMNS.join(', ')} on shipments begin ${bump('new.id')}; end`,
    `create trigger shipment_versions_shipment_delete after delete on shipments begin
       delete from shipment_versions where shipment_row_id = old.id; end`,
    `create trigger shipment_versions_order_update after update on orders begin ${bumpOrder('new')}; end`,
  ];
  for (const table of PARTS) {
    statements.push(
      `create trigger shipment_versions_${table}_insert after insert on ${table} begin ${bump('new.shipment_row_id')}; end`,
      `create trigger shipment_versions_${table}_update after update on ${table} begin
         ${bump('new.shipment_row_id')}; ${bump('old.shipment_row_id')}; end`,
      `create trigger shipment_versions_${table}_delete after delete on ${table} begin ${bump('old.shipment_row_id')}; end`,
    );
  }
  for (const statement of statements) await sql.raw(statement).execute(db);
}

async function postgresTriggers(db: MigrationDb): Promise<void> {
  const statements = [
    `create function shipment_versions_of_shipment() returns trigger language plpgsql as $$
     begin
       if tg_op = 'INSERT' then
         insert into shipment_versions (shipment_row_id, version) values (new.id, 0);
       elsif tg_op = 'UPDATE' then
         ${bump('new.id')};
       else
         delete from shipment_versions where shipment_row_id = old.id;
       end if;
       return null;
     end $$`,
    `create trigger shipment_versions_shipment_update after update of ${SHOWN_COLUMNS.join(', ')} on shipments
       for each row execute function shipment_versions_of_shipment()`,
    `create function shipment_versions_of_order() returns trigger language plpgsql as $$
     begin ${bumpOrder('new')}; return null; end $$`,
    `create function shipment_versions_of_part() returns trigger language plpgsql as $$
     begin
       if tg_op <> 'DELETE' then ${bump('new.shipment_row_id')}; end if;
       if tg_op <> 'INSERT' and (tg_op = 'DELETE' or old.shipment_row_id <> new.shipment_row_id) then
         ${bump('old.shipment_row_id')};
       end if;
       return null;
     end $$`,
    `create trigger shipment_versions_shipment after insert or delete on shipments
       for each row execute function shipment_versions_of_shipment()`,
    `create trigger shipment_versions_order after update on orders for each row execute function shipment_versions_of_order()`,
  ];
  for (const table of PARTS) {
    statements.push(
      `create trigger shipment_versions_${table} after insert or update or delete on ${table}
         for each row execute function shipment_versions_of_part()`,
    );
  }
  for (const statement of statements) await sql.raw(statement).execute(db);
}

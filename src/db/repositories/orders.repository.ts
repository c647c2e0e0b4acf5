import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DialectName } from '../connection.js';
import { flattenRows, PreparedQuery, PreparedQueryFamily, preparedForRow, rowsFromArgs } from '../prepared-query.js';
import type { Database, OrdersTable } from '../schema.js';

export type OrderRow = Selectable<OrdersTable>;

const findById = new PreparedQuery((db, id: number) => db.selectFrom('orders').selectAll().where('id', '=', id));

/**
 * Single-order `insertOrGet` by columns: every create with an order writes the same ones. On PostgreSQL the id comes
 * back by `returning`; on SQLite the insert returns nothing, and says whether it inserted and the row id it gave
 * (`returning` would make SQLite copy the pages the insert changes to a statement journal first: docs/decisions.md,
 * on a new shipment's version row).
 */
const insertOneQueries = new PreparedQueryFamily<unknown[], { id: number }>(8);
const insertOneWithoutIdQueries = new PreparedQueryFamily<unknown[], unknown>(8);
/** Multi-row order inserts by row count and columns (imports write full chunks, so few shapes recur). */
const insertManyQueries = new PreparedQueryFamily<unknown[], OrderRow>(16);

/** An order's insert that does nothing when the account has an order with its order_id. */
const unlessTaken = (db: Kysely<Database>, values: Insertable<OrdersTable>) =>
  db
    .insertInto('orders')
    .values(values)
    .onConflict((oc) => oc.columns(['account_id', 'order_id']).doNothing());

export class OrdersRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  findByOrderId(accountId: number, orderId: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('orders').selectAll().where('account_id', '=', accountId).where('order_id', '=', orderId).executeTakeFirst();
  }

  findById(id: number): Promise<OrderRow | undefined> {
    return findById.executeTakeFirst(this.db, id);
  }

  /**
   * Inserts the order, or returns the account's existing order with the same order_id. A new order is the row
   * given with its id: every column is written, so only the id is read back.
   */
  async insertOrGet(row: Insertable<OrdersTable>): Promise<{ order: OrderRow; created: boolean }> {
    const id = this.dialect === 'sqlite' ? await this.insertOnSqlite(row) : await this.insertReturningId(row);
    if (id !== undefined) return { order: { order_reference: null, source_type: null, source_name: null, ...row, id }, created: true };
    return { order: (await this.findByOrderId(row.account_id, row.order_id)) as OrderRow, created: false };
  }

  /** The new order's id, or undefined when the account has an order with its order_id. */
  private async insertReturningId(row: Insertable<OrdersTable>): Promise<number | undefined> {
    const build = (db: Kysely<Database>, values: Insertable<OrdersTable>) => unlessTaken(db, values).returning('id');
    const prepared = preparedForRow(insertOneQueries, row, build);
    const inserted = prepared
      ? await prepared.query.executeTakeFirst(this.db, ...prepared.values)
      : await build(this.db, row).executeTakeFirst();
    return inserted?.id;
  }

  /** `insertReturningId` on SQLite, without `returning`. */
  private async insertOnSqlite(row: Insertable<OrdersTable>): Promise<number | undefined> {
    const prepared = preparedForRow(insertOneWithoutIdQueries, row, unlessTaken);
    const { changes, lastInsertRowid } = prepared
      ? await prepared.query.executeWrite(this.db, ...prepared.values)
      : await unlessTaken(this.db, row)
          .executeTakeFirstOrThrow()
          .then((result) => ({ changes: Number(result.numInsertedOrUpdatedRows), lastInsertRowid: Number(result.insertId) }));
    return changes > 0 ? lastInsertRowid : undefined;
  }

  /**
   * `insertOrGet` for many orders of one account in two statements: each order_id is inserted unless the
   * account has it, and comes back with whether this call created it.
   */
  async insertOrGetMany(accountId: number, rows: Insertable<OrdersTable>[]): Promise<Map<string, { order: OrderRow; created: boolean }>> {
    const out = new Map<string, { order: OrderRow; created: boolean }>();
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const { columns, values, bindable } = flattenRows(chunk);
      const prepared = bindable
        ? insertManyQueries.forColumns(
            chunk.length,
            columns,
            () =>
              (db, ...args) =>
                db
                  .insertInto('orders')
                  .values(rowsFromArgs(chunk.length, columns, args))
                  .onConflict((oc) => oc.columns(['account_id', 'order_id']).doNothing())
                  .returningAll(),
          )
        : null;
      const inserted = prepared
        ? await prepared.execute(this.db, ...values)
        : await this.db
            .insertInto('orders')
            .values(chunk)
            .onConflict((oc) => oc.columns(['account_id', 'order_id']).doNothing())
            .returningAll()
            .execute();
      for (const order of inserted) out.set(order.order_id, { order, created: true });
      const rest = chunk.map((row) => row.order_id).filter((orderId) => !out.has(orderId));
      if (rest.length === 0) continue;
      const existing = await this.db
        .selectFrom('orders')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('order_id', 'in', rest)
        .execute();
      for (const order of existing) out.set(order.order_id, { order, created: false });
    }
    return out;
  }

  async findByIds(ids: number[]): Promise<OrderRow[]> {
    if (ids.length === 0) return [];
    if (ids.length === 1) return findById.execute(this.db, ids[0]);
    return this.db.selectFrom('orders').selectAll().where('id', 'in', ids).execute();
  }

  async update(
    id: number,
    changes: Partial<Pick<OrderRow, 'order_reference' | 'source_type' | 'source_name' | 'updated_at'>>,
  ): Promise<OrderRow> {
    return this.db.updateTable('orders').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }
}

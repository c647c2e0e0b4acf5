import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';

export type MigrationDb = Kysely<unknown>;

/** Whether the migration runs on PostgreSQL (decided by the dialect's adapter name). */
export function isPostgres(db: MigrationDb): boolean {
  return db.getExecutor().adapter.constructor.name.startsWith('Postgres');
}

/** An auto-incrementing integer primary key in either dialect. */
export function withId<T extends string>(db: MigrationDb, table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
export const now = sql`CURRENT_TIMESTAMP`;

import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresIntrospector,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/**
 * PostgreSQL as the query layer speaks it, with its tables looked up in the service's own schema alone. The
 * migrator asks whether its bookkeeping tables exist through the dialect's introspector, and kysely's reads every
 * column of every table in every schema of the database, calling `has_schema_privilege` and `pg_get_serial_sequence`
 * by name on each: a schema dropped or a table altered meanwhile by anyone else on the database (another
 * deployment's migrations, a test run's cleanup) fails that query, with `schema "…" does not exist` or `column "…"
 * of relation "…" does not exist`, and the service does not start.
 */
export class SchemaPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SchemaIntrospector(db, this.schema);
  }
}

/**
 * The tables and views of one schema, kysely's own among them, by name from the catalog's rows alone; without their
 * columns, which nothing here reads.
 */
class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<any>,
    private readonly schema: string,
  ) {}

  getSchemas(): Promise<SchemaMetadata[]> {
    return new PostgresIntrospector(this.db).getSchemas();
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; kind: string }>`
      select c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = ${this.schema} and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(this.db);
    return rows.map((row) => ({ name: row.name, schema: this.schema, isView: row.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

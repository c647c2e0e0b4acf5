import type { Kysely, Selectable } from 'kysely';
import type { AccountsTable, Database } from '../schema.js';

export type AccountRow = Selectable<AccountsTable>;

export class AccountsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: { account_uuid: string; name: string; features: string; strict_fields: number; at: string }): Promise<AccountRow> {
    return this.db
      .insertInto('accounts')
      .values({
        account_uuid: row.account_uuid,
        name: row.name,
        features: row.features,
        strict_fields: row.strict_fields,
        created_at: row.at,
        updated_at: row.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  findByUuid(accountUuid: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('account_uuid', '=', accountUuid).executeTakeFirst();
  }

  findById(id: number): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  list(): Promise<AccountRow[]> {
    return this.db.selectFrom('accounts').selectAll().orderBy('id').execute();
  }

  async update(id: number, changes: { name?: string; features?: string; strict_fields?: number; at: string }): Promise<AccountRow> {
    const { at, ...rest } = changes;
    return this.db
      .updateTable('accounts')
      .set({ ...rest, updated_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}

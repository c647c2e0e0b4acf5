import type { Kysely, Selectable } from 'kysely';
import { PreparedQuery } from '../prepared-query.js';
import type { ApiCredentialsTable, Database } from '../schema.js';

export type CredentialRow = Selectable<ApiCredentialsTable>;

/** A credential joined with what a request needs to know of its account. */
export interface CredentialWithAccount {
  client_id: string;
  secret_hash: string;
  revoked_at: string | null;
  account_id: number;
  account_uuid: string;
  features: string;
  strict_fields: number;
}

const findWithAccount = new PreparedQuery((db, clientId: string) =>
  db
    .selectFrom('api_credentials as c')
    .innerJoin('accounts as a', 'a.id', 'c.account_id')
    .select(['c.client_id', 'c.secret_hash', 'c.revoked_at', 'c.account_id', 'a.account_uuid', 'a.features', 'a.strict_fields'])
    .where('c.client_id', '=', clientId),
);

export class CredentialsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: { account_id: number; client_id: string; secret_hash: string; at: string }): Promise<void> {
    await this.db
      .insertInto('api_credentials')
      .values({ account_id: row.account_id, client_id: row.client_id, secret_hash: row.secret_hash, created_at: row.at })
      .execute();
  }

  findWithAccount(clientId: string): Promise<CredentialWithAccount | undefined> {
    return findWithAccount.executeTakeFirst(this.db, clientId);
  }

  listForAccount(accountId: number): Promise<CredentialRow[]> {
    return this.db.selectFrom('api_credentials').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
  }

  /** Marks the credential revoked; returns false when the account has no such live credential. */
  async revoke(accountId: number, clientId: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_credentials')
      .set({ revoked_at: at })
      .where('account_id', '=', accountId)
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

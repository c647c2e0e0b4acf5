import type { Kysely, Selectable } from 'kysely';
import type { Database, ReturnPoliciesTable } from '../schema.js';

export type ReturnPolicyRow = Selectable<ReturnPoliciesTable>;

/** Each account's returns policy and portal reference (`return_policies`), one row per account. */
export class ReturnPoliciesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async of(accountId: number): Promise<ReturnPolicyRow | undefined> {
    return this.db.selectFrom('return_policies').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  }

  async byPortalReference(portalReference: string): Promise<ReturnPolicyRow | undefined> {
    return this.db.selectFrom('return_policies').selectAll().where('portal_reference', '=', portalReference).executeTakeFirst();
  }

  /**
   * The account's row, made with this reference and policy when it has none. Two first reads at once both get
   * the one row that was stored first.
   */
  async ensure(row: { account_id: number; portal_reference: string; policy: string; created_at: string }): Promise<ReturnPolicyRow> {
    await this.db
      .insertInto('return_policies')
      .values({ ...row, updated_at: null })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .execute();
    const stored = await this.of(row.account_id);
    if (!stored) throw new Error(`return policy of account ${row.account_id} was not stored`);
    return stored;
  }

  /** Replaces the policy of an account that has its row; the portal reference stays. */
  async put(accountId: number, policy: string, now: string): Promise<void> {
    await this.db.updateTable('return_policies').set({ policy, updated_at: now }).where('account_id', '=', accountId).execute();
  }
}

import type { Kysely, Selectable } from 'kysely';
import type { CarrierConfigsTable, Database } from '../schema.js';

export type CarrierConfigRow = Selectable<CarrierConfigsTable>;

export class CarrierConfigsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(row: Omit<CarrierConfigRow, 'id'>): Promise<CarrierConfigRow> {
    return this.db.insertInto('carrier_configs').values(row).returningAll().executeTakeFirstOrThrow();
  }

  listForAccount(accountId: number): Promise<CarrierConfigRow[]> {
    return this.db.selectFrom('carrier_configs').selectAll().where('account_id', '=', accountId).orderBy('carrier_reference').execute();
  }

  find(accountId: number, carrierReference: string): Promise<CarrierConfigRow | undefined> {
    return this.db
      .selectFrom('carrier_configs')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('carrier_reference', '=', carrierReference)
      .executeTakeFirst();
  }

  async delete(accountId: number, carrierReference: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('carrier_configs')
      .where('account_id', '=', accountId)
      .where('carrier_reference', '=', carrierReference)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

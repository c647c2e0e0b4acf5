import type { Insertable, Kysely, Selectable } from 'kysely';
import { PreparedQuery } from '../prepared-query.js';
import type { CarrierConfigsTable, Database } from '../schema.js';

export type CarrierConfigRow = Selectable<CarrierConfigsTable>;

const listForAccount = new PreparedQuery((db, accountId: number) =>
  db.selectFrom('carrier_configs').selectAll().where('account_id', '=', accountId).orderBy('carrier_reference'),
);
const carrierIdOf = new PreparedQuery((db, accountId: number, carrierReference: string) =>
  db
    .selectFrom('carrier_configs')
    .select('carrier_id')
    .where('account_id', '=', accountId)
    .where('carrier_reference', '=', carrierReference),
);
const find = new PreparedQuery((db, accountId: number, carrierReference: string) =>
  db.selectFrom('carrier_configs').selectAll().where('account_id', '=', accountId).where('carrier_reference', '=', carrierReference),
);

export class CarrierConfigsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(row: Insertable<CarrierConfigsTable>): Promise<CarrierConfigRow> {
    return this.db.insertInto('carrier_configs').values(row).returningAll().executeTakeFirstOrThrow();
  }

  listForAccount(accountId: number): Promise<CarrierConfigRow[]> {
    return listForAccount.execute(this.db, accountId);
  }

  /** The carrier of a configuration, without its settings (a create only checks that the reference exists). */
  carrierOf(accountId: number, carrierReference: string): Promise<{ carrier_id: string } | undefined> {
    return carrierIdOf.executeTakeFirst(this.db, accountId, carrierReference);
  }

  find(accountId: number, carrierReference: string): Promise<CarrierConfigRow | undefined> {
    return find.executeTakeFirst(this.db, accountId, carrierReference);
  }

  async update(
    accountId: number,
    carrierReference: string,
    changes: Partial<Pick<CarrierConfigRow, 'settings_sealed' | 'booking_outbound' | 'booking_return' | 'fallback' | 'updated_at'>>,
  ): Promise<CarrierConfigRow | undefined> {
    return this.db
      .updateTable('carrier_configs')
      .set(changes)
      .where('account_id', '=', accountId)
      .where('carrier_reference', '=', carrierReference)
      .returningAll()
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

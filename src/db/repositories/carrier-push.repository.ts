import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Carrier configurations as pushing carriers find them: by the hash of their push token. */
export class CarrierPushRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async setTokenHash(accountId: number, carrierReference: string, hash: string): Promise<void> {
    await this.db
      .updateTable('carrier_configs')
      .set({ push_token_hash: hash })
      .where('account_id', '=', accountId)
      .where('carrier_reference', '=', carrierReference)
      .execute();
  }

  /** The push token hash of one configuration, or null when it has none. */
  async tokenHashOf(accountId: number, carrierReference: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('carrier_configs')
      .select('push_token_hash')
      .where('account_id', '=', accountId)
      .where('carrier_reference', '=', carrierReference)
      .executeTakeFirst();
    return row?.push_token_hash ?? null;
  }

  findByTokenHash(carrierId: string, hash: string) {
    return this.db
      .selectFrom('carrier_configs')
      .select(['id', 'account_id', 'carrier_reference', 'carrier_id'])
      .where('carrier_id', '=', carrierId)
      .where('push_token_hash', '=', hash)
      .executeTakeFirst();
  }

  /** The account's tracked shipments with this carrier configuration and tracking number. */
  shipmentsTracking(accountId: number, carrierReference: string, trackingNumber: string) {
    return this.db
      .selectFrom('shipments')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('carrier_reference', '=', carrierReference)
      .where('tracking_number', '=', trackingNumber)
      .execute();
  }
}

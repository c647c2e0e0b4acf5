import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';
import { trackingNumberKeySql } from '../tracking-number-key.js';

/** The key pushed numbers are matched on, as indexed by `shipments_account_tracking_key` (0022). */
const TRACKING_KEY = sql.raw<string>(trackingNumberKeySql('tracking_number'));

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

  /**
   * The account's shipments with this carrier configuration whose number reads as `normalizedNumber` (spaces
   * and dashes removed, upper case: `normalizeTrackingNumber` of carrier detection), however the merchant typed it.
   */
  shipmentsTracking(accountId: number, carrierReference: string, normalizedNumber: string) {
    return this.db
      .selectFrom('shipments')
      .selectAll()
      .where('account_id', '=', accountId)
      .where(TRACKING_KEY, '=', normalizedNumber)
      .where('carrier_reference', '=', carrierReference)
      .execute();
  }
}

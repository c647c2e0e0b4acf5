import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A shipment of the exception queue: still open, its window over, and no first attempt scanned. */
export interface DeliveryExceptionRow {
  shipment_uuid: string;
  shipment_id: string;
  tracking_number: string | null;
  status: string;
  carrier_reference: string;
  shipping_service: string;
  destination_country: string;
  accepted_date: string | null;
  promised_to: string;
  last_scan_at: string | null;
}

/** Shipment statuses that are over: a delivered or expired parcel is not waiting for anyone any more. */
const CLOSED_STATUSES = ['delivered', 'expired'];

/**
 * The console's exception queue, read from `delivery_facts` (kept by the delivery learner) joined to the
 * shipments: the account's parcels past the end of their original window without a first attempt, not
 * returned and not closed, the longest overdue first.
 */
export class DeliveryExceptionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Whether the account has any tracked shipment in the delivery facts (a new account is shown how to get some). */
  async hasFacts(accountId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('delivery_facts')
      .select('shipment_row_id')
      .where('account_id', '=', accountId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * `today` is a `YYYY-MM-DD` date: a window that ended before it is over. `delivery_facts_promised`
   * (account, promised_to) serves the order and the limit.
   */
  pastWindow(
    accountId: number,
    today: string,
    options: { limit: number; carrierReference?: string; shippingService?: string },
  ): Promise<DeliveryExceptionRow[]> {
    let query = this.db
      .selectFrom('delivery_facts as f')
      .innerJoin('shipments as s', 's.id', 'f.shipment_row_id')
      .select([
        's.shipment_uuid',
        's.shipment_id',
        's.tracking_number',
        's.status',
        'f.carrier_reference',
        'f.shipping_service',
        'f.destination_country',
        'f.accepted_date',
        'f.promised_to',
        'f.last_scan_at',
      ])
      .where('f.account_id', '=', accountId)
      .where('f.promised_to', '<', today)
      .where('f.first_attempt_date', 'is', null)
      .where('f.returned', '=', 0)
      .where('s.status', 'not in', CLOSED_STATUSES);
    if (options.carrierReference !== undefined) query = query.where('f.carrier_reference', '=', options.carrierReference);
    if (options.shippingService !== undefined) query = query.where('f.shipping_service', '=', options.shippingService);
    return query.orderBy('f.promised_to').orderBy('f.shipment_row_id').limit(options.limit).execute() as Promise<DeliveryExceptionRow[]>;
  }
}

import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';

/** An outbound shipment of an order, with when the carrier first reported it delivered. */
export interface PortalOrderShipment {
  id: number;
  body: string;
  status: string;
  delivered_at: string | null;
}

/** What the consumer's returns portal reads: an order's shipments and returns, and one return by its uuid. */
export class ReturnsPortalRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The order's shipments that are not returns, oldest first. */
  async orderShipments(accountId: number, orderRowId: number): Promise<PortalOrderShipment[]> {
    return this.db
      .selectFrom('shipments')
      .select(['shipments.id', 'shipments.body', 'shipments.status'])
      .select((eb) =>
        eb
          .selectFrom('tracking_events')
          .select(sql<string | null>`min(tracking_events.time_utc)`.as('delivered_at'))
          .whereRef('tracking_events.shipment_row_id', '=', 'shipments.id')
          .where('tracking_events.phase_key', '=', 'delivered')
          .as('delivered_at'),
      )
      .where('shipments.account_id', '=', accountId)
      .where('shipments.order_row_id', '=', orderRowId)
      .where((eb) => eb.or([eb('shipments.shipment_type', 'is', null), eb('shipments.shipment_type', '!=', 'return')]))
      .orderBy('shipments.id')
      .execute();
  }

  /** The bodies of the return shipments of the order's returns that still hold their items (not rejected or cancelled). */
  async activeReturnBodies(accountId: number, orderId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('returns')
      .innerJoin('shipments', 'shipments.id', 'returns.shipment_row_id')
      .select('shipments.body')
      .where('returns.account_id', '=', accountId)
      .where('returns.order_id', '=', orderId)
      .where('returns.status', 'not in', ['rejected', 'cancelled'])
      .execute();
    return rows.map((row) => row.body);
  }

  /** A return of the account by its uuid, with its shipment. */
  async returnWithShipment(accountId: number, returnUuid: string) {
    return this.db
      .selectFrom('returns')
      .innerJoin('shipments', 'shipments.id', 'returns.shipment_row_id')
      .select([
        'returns.id',
        'returns.return_uuid',
        'returns.return_id',
        'returns.status',
        'returns.details',
        'returns.order_id',
        'returns.requested_at',
        'returns.updated_at',
        'returns.shipment_row_id',
        'shipments.shipment_uuid',
        'shipments.body',
        'shipments.tracking_number',
        'shipments.carrier_id',
        'shipments.tracking_page_reference',
      ])
      .where('returns.account_id', '=', accountId)
      .where('returns.return_uuid', '=', returnUuid)
      .executeTakeFirst();
  }
}

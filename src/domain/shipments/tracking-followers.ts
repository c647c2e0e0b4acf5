import { SHIPMENT_STATUS } from '../../core/shipment-status.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { EventSink } from '../webhooks/webhook-outbox.js';

/** Told, in the transaction of the change, when tracking changed what a shipment shows. */
export interface ShipmentChangeListener {
  shipmentChanged(repos: Repositories, before: ShipmentRow, after: ShipmentRow, now: string): Promise<void>;
}

/**
 * A listener told in two steps by a writer that writes the row once: `prepare` before the write returns the row to
 * write (what the followers add to it: the prediction in its body), `announce` after it is told the change.
 */
export interface ShipmentWriteFollowers {
  prepare(repos: Repositories, before: ShipmentRow, after: ShipmentRow, now: string): Promise<ShipmentRow>;
  announce(repos: Repositories, before: ShipmentRow, after: ShipmentRow, now: string): Promise<void>;
}

/** Delivery intelligence: brings a shipment's predicted window and delivery facts up to date (src/domain/delivery). */
export interface DeliveryFollowingTracking {
  /** The body to write with the row as it is about to be written (null: as it is). `before`: the row before the change. */
  revise(repos: Repositories, shipment: ShipmentRow, now: string, before?: ShipmentRow): Promise<string | null>;
}

/** The part of the returns service that follows the tracking of return shipments. */
export interface ReturnsFollowingTracking {
  followTracking(repos: Repositories, shipment: ShipmentRow, now: string): Promise<unknown>;
}

/**
 * What follows a tracking change (carrier polls, pushed updates, manual events): the predicted delivery window
 * and delivery analytics are brought up to date, a return shipment's ticket
 * moves with its status or phase, the change is announced as shipment.updated, arriving at delivered is
 * announced on its own as shipment.delivered, and the consumer is notified of a new phase.
 */
export class TrackingFollowers implements ShipmentWriteFollowers {
  constructor(
    private readonly returns: ReturnsFollowingTracking,
    private readonly events: EventSink,
    /** Consumer notifications: told last, in the same transaction. */
    private readonly notifications: ShipmentChangeListener | null = null,
    /** Told first: a changed prediction is part of the update the others announce. */
    private readonly delivery: DeliveryFollowingTracking | null = null,
  ) {}

  async prepare(repos: Repositories, before: ShipmentRow, after: ShipmentRow, now: string): Promise<ShipmentRow> {
    const body = this.delivery ? await this.delivery.revise(repos, after, now, before) : null;
    return body === null ? after : { ...after, body };
  }

  async announce(repos: Repositories, before: ShipmentRow, after: ShipmentRow, now: string): Promise<void> {
    if (after.status !== before.status || after.phase_key !== before.phase_key) await this.returns.followTracking(repos, after, now);
    await this.events.emit(repos, { accountId: after.account_id, type: 'shipment.updated', shipmentRowId: after.id });
    if (after.status === SHIPMENT_STATUS.delivered && before.status !== SHIPMENT_STATUS.delivered) {
      await this.events.emit(repos, { accountId: after.account_id, type: 'shipment.delivered', shipmentRowId: after.id });
    }
    await this.notifications?.shipmentChanged(repos, before, after, now);
  }
}

import { triggerOfPhase, triggersOfReturn } from '../../core/notification-triggers.js';
import type { DomainEvent } from '../../core/webhook-types.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import { detailsOf } from '../returns/return.presenter.js';
import type { ShipmentChangeListener } from '../shipments/tracking-followers.js';
import type { EventSink } from '../webhooks/webhook-outbox.js';
import type { NotificationPlanner } from './notification-planner.js';

/** A shipment reaching a new phase (by a poll, a push or a manual event) fires that phase's trigger. */
export class ShipmentNotifications implements ShipmentChangeListener {
  constructor(private readonly planner: NotificationPlanner) {}

  async shipmentChanged(repos: Repositories, before: ShipmentRow, after: ShipmentRow, now: string): Promise<void> {
    if (after.phase_key === before.phase_key) return;
    const trigger = triggerOfPhase(after.phase_key);
    if (trigger) await this.planner.plan(repos, after, trigger, now);
  }
}

/**
 * The event sink, with a return's course (requested, approved, rejected, received, refunded) told to the
 * consumer: every change of a ticket is announced through the sink, so the notification is planned in the same
 * transaction.
 */
export class ReturnNotifyingSink implements EventSink {
  constructor(
    private readonly inner: EventSink,
    private readonly planner: NotificationPlanner,
    private readonly now: () => string,
  ) {}

  async emit(repos: Repositories, event: DomainEvent): Promise<void> {
    await this.inner.emit(repos, event);
    await this.follow(repos, event);
  }

  async emitMany(repos: Repositories, events: DomainEvent[]): Promise<void> {
    await this.inner.emitMany(repos, events);
    for (const event of events) await this.follow(repos, event);
  }

  private async follow(repos: Repositories, event: DomainEvent): Promise<void> {
    if ((event.type !== 'return.updated' && event.type !== 'return.created') || event.refs?.return_row_id === undefined) return;
    const ticket = await repos.returns.findByShipment(event.shipmentRowId);
    if (!ticket) return;
    const refundedAt = detailsOf(ticket).refund_issued_at ?? null;
    const triggers = triggersOfReturn(event.type === 'return.created' ? 'created' : 'updated', {
      status: ticket.status,
      refund_issued_at: refundedAt,
    });
    if (triggers.length === 0) return;
    const shipment = await repos.shipments.findById(event.shipmentRowId);
    if (!shipment) return;
    for (const trigger of triggers) {
      // A refund is as old as its record: one planned again by a much later change is stale, not news.
      const eventAt = trigger === 'refund_issued' ? refundedAt : ticket.updated_at;
      await this.planner.plan(repos, shipment, trigger, this.now(), { eventAt });
    }
  }
}

import { RETURN_STATUS } from '../../core/return-status.js';
import type { DomainEvent } from '../../core/webhook-types.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { EventSink } from '../webhooks/webhook-outbox.js';

/**
 * The returns service's event sink, with one more duty: a portal return the merchant approves (a pending one,
 * `return.updated` to `approved`) gets a `return.label` job in the same transaction, which books its label, so
 * the consumer finds it on the status page without asking.
 */
export class PortalLabelSink implements EventSink {
  constructor(
    private readonly inner: EventSink,
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
    if (event.type !== 'return.updated' || event.refs?.return_row_id === undefined) return;
    const ticket = await repos.returns.findByShipment(event.shipmentRowId);
    if (ticket?.status !== RETURN_STATUS.approved) return;
    const shipment = await repos.shipments.findById(event.shipmentRowId);
    if (shipment?.source !== 'portal') return;
    await repos.jobs.enqueue(
      'return.label',
      { return_uuid: ticket.return_uuid },
      { now: this.now(), accountId: ticket.account_id, dedupeKey: `return.label:${ticket.return_uuid}` },
    );
  }
}

import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { DomainEvent } from '../../core/webhook-types.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { WebhookEndpointRow } from '../../db/repositories/webhooks.repository.js';

/** First try, then retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. */
export const WEBHOOK_MAX_ATTEMPTS = 8;

/** Where services announce what happened, in the transaction of the change. */
export interface EventSink {
  emit(repos: Repositories, event: DomainEvent): Promise<void>;
  /** Many events of one transaction (imports): the same as emitting each, with shared look-ups. */
  emitMany(repos: Repositories, events: DomainEvent[]): Promise<void>;
}

export function subscribes(endpoint: WebhookEndpointRow, type: string): boolean {
  if (endpoint.enabled !== 1) return false;
  if (endpoint.events === null) return true;
  return (JSON.parse(endpoint.events) as string[]).includes(type);
}

/**
 * The transactional outbox: an event and one delivery job per subscribed endpoint are written in the
 * transaction of the change, so nothing is announced that did not happen and nothing that happened goes
 * unannounced, even when the process dies right after the commit.
 */
export class WebhookOutbox implements EventSink {
  constructor(private readonly clock: Clock) {}

  /**
   * An account's endpoints as this transaction sees them, read once per transaction: a tracking batch
   * announces changes of many shipments of few accounts. Nothing that writes endpoints emits events.
   */
  private readonly endpointsByTransaction = new WeakMap<Repositories, Map<number, WebhookEndpointRow[]>>();

  async emit(repos: Repositories, event: DomainEvent): Promise<void> {
    await this.emitTo(repos, event, await this.endpointsOf(repos, event.accountId));
  }

  async emitMany(repos: Repositories, events: DomainEvent[]): Promise<void> {
    for (const event of events) await this.emitTo(repos, event, await this.endpointsOf(repos, event.accountId));
  }

  private async endpointsOf(repos: Repositories, accountId: number): Promise<WebhookEndpointRow[]> {
    if (!repos.db.isTransaction) return repos.webhooks.listEndpoints(accountId);
    let byAccount = this.endpointsByTransaction.get(repos);
    if (!byAccount) {
      byAccount = new Map();
      this.endpointsByTransaction.set(repos, byAccount);
    }
    let endpoints = byAccount.get(accountId);
    if (!endpoints) {
      endpoints = await repos.webhooks.listEndpoints(accountId);
      byAccount.set(accountId, endpoints);
    }
    return endpoints;
  }

  private async emitTo(repos: Repositories, event: DomainEvent, all: WebhookEndpointRow[]): Promise<void> {
    const endpoints = all.filter((endpoint) => subscribes(endpoint, event.type));
    if (endpoints.length === 0) return;
    const now = this.clock.now().toISOString();
    const sequence = await repos.webhooks.nextSequence(event.shipmentRowId);
    const row = await repos.webhooks.insertEvent({
      account_id: event.accountId,
      event_id: `msg_${randomUUID().replace(/-/g, '')}`,
      type: event.type,
      shipment_row_id: event.shipmentRowId,
      sequence,
      refs: JSON.stringify(event.refs ?? {}),
      created_at: now,
    });
    for (const endpoint of endpoints) {
      const delivery = await repos.webhooks.insertDelivery({
        account_id: event.accountId,
        endpoint_id: endpoint.id,
        event_row_id: row.id,
        status: 'pending',
        body: null,
        attempts: 0,
        created_at: now,
        updated_at: now,
      });
      await repos.jobs.enqueue(
        'webhook.deliver',
        { delivery_id: delivery.id },
        { now, accountId: event.accountId, maxAttempts: WEBHOOK_MAX_ATTEMPTS },
      );
    }
  }
}

import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import type { JobPayloads } from '../db/repositories/jobs.repository.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../db/repositories/webhooks.repository.js';
import type { ShapeVersion } from '../domain/shipments/shipment.presenter.js';
import { guardedLookup, refuseAtDelivery } from '../domain/webhooks/address-guard.js';
import type { WebhookEndpointsService } from '../domain/webhooks/webhook-endpoints.service.js';
import { WEBHOOK_MAX_ATTEMPTS } from '../domain/webhooks/webhook-outbox.js';
import type { WebhookPayloads } from '../domain/webhooks/webhook-payload.js';
import type { JobHandler, JobOutcome, JobRun } from './job-handler.js';

const SCHEDULE_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
const TIMEOUT_MS = 10_000;
/** An endpoint failing this long without one success is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 3_600_000;
/**
 * Deliveries in flight to one endpoint at once, per process; as many more may wait their turn in memory.
 * Half the worker's slots: the delivery rate to one busy endpoint (docs/performance.md) relies on 16.
 */
const PER_ENDPOINT = 16;

/**
 * Delivers one webhook: the body is fixed at the first attempt, signed per Standard Webhooks (the event id
 * is the `webhook-id` on every retry), posted with a 10 s timeout and no redirects. 2xx is delivered;
 * anything else is retried on the schedule, then the delivery is failed (and can be resent).
 */
export class WebhookDeliveryJob implements JobHandler<'webhook.deliver'> {
  readonly kind = 'webhook.deliver';
  readonly maxAttempts = WEBHOOK_MAX_ATTEMPTS;
  private readonly agent: Agent;
  private readonly lanes = new Map<number, { running: number; waiting: Array<() => void> }>();

  constructor(
    private readonly repos: Repositories,
    private readonly endpoints: WebhookEndpointsService,
    private readonly payloads: WebhookPayloads,
    private readonly clock: Clock,
    private readonly allowPrivate: boolean,
  ) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(allowPrivate), timeout: TIMEOUT_MS },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
  }

  backoffMs(attempt: number): number {
    return SCHEDULE_MS[Math.min(attempt - 1, SCHEDULE_MS.length - 1)];
  }

  async run({ payload, attempt }: JobRun<JobPayloads['webhook.deliver']>): Promise<JobOutcome> {
    const delivery = await this.repos.webhooks.findDelivery(payload.delivery_id);
    if (!delivery || delivery.status === 'delivered' || delivery.status === 'cancelled') return { result: 'done' };
    const endpoint = await this.repos.webhooks.findEndpointById(delivery.endpoint_id);
    if (!endpoint) return { result: 'done' };
    if (endpoint.enabled !== 1) {
      await this.repos.webhooks.updateDelivery(delivery.id, { status: 'failed', last_error: 'endpoint disabled', updated_at: this.now() });
      return { result: 'done' };
    }
    // A busy endpoint's deliveries queue here, a few at most; the rest go back to the table without using an
    // attempt, so one slow endpoint holds only a few of the worker's slots and never delays other accounts.
    const lane = this.lanes.get(endpoint.id) ?? { running: 0, waiting: [] };
    this.lanes.set(endpoint.id, lane);
    if (lane.running >= PER_ENDPOINT) {
      if (lane.waiting.length >= PER_ENDPOINT) return { result: 'defer', delayMs: 200 };
      await new Promise<void>((resolve) => lane.waiting.push(resolve));
    }
    lane.running++;
    try {
      return await this.attempt(delivery, endpoint, attempt);
    } finally {
      lane.running--;
      const next = lane.waiting.shift();
      if (next) next();
      else if (lane.running === 0) this.lanes.delete(endpoint.id);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async attempt(delivery: WebhookDeliveryRow, endpoint: WebhookEndpointRow, attempt: number): Promise<JobOutcome> {
    const event = await this.repos.webhooks.findEvent(delivery.event_row_id);
    if (!event) return { result: 'done' };
    let body = delivery.body;
    if (body === null) {
      body = await this.payloads.render(event, endpoint.format as ShapeVersion);
      await this.repos.webhooks.setDeliveryBody(delivery.id, body);
    }
    const sentAt = this.clock.now();
    const signatures = this.endpoints.signingSecrets(endpoint).map((secret) => new Webhook(secret).sign(event.event_id, sentAt, body));
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const refusal = refuseAtDelivery(endpoint.url, this.allowPrivate);
      if (refusal) throw Object.assign(new Error(refusal), { code: 'EBLOCKED' });
      const response = await request(endpoint.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Waybill-Webhooks/1',
          'webhook-id': event.event_id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signatures.join(' '),
        },
        body,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      statusCode = response.statusCode;
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
    } catch (failure) {
      error = failure instanceof Error ? `${(failure as NodeJS.ErrnoException).code ?? failure.name}: ${failure.message}` : String(failure);
    }
    const latency = Math.round(performance.now() - started);
    const now = this.now();
    const record = {
      delivery_id: delivery.id,
      endpoint_id: endpoint.id,
      attempted_at: now,
      status_code: statusCode,
      latency_ms: latency,
      error,
    };

    if (error === null) {
      await this.repos.transaction(async (repos) => {
        await repos.webhooks.recordAttempt(record, 'delivered', attempt);
        if (endpoint.failing_since !== null) await repos.webhooks.updateEndpoint(endpoint.id, { failing_since: null });
      });
      return { result: 'done' };
    }
    const last = attempt >= this.maxAttempts;
    await this.repos.transaction(async (repos) => {
      await repos.webhooks.recordAttempt(record, last ? 'failed' : 'pending', attempt);
      const failingSince = endpoint.failing_since ?? now;
      const disable = this.clock.now().getTime() - new Date(failingSince).getTime() >= DISABLE_AFTER_MS;
      await repos.webhooks.updateEndpoint(endpoint.id, {
        failing_since: failingSince,
        ...(disable
          ? { enabled: 0, disabled_reason: `Every delivery failed since ${failingSince} (last: ${error}); disabled after 3 days.` }
          : {}),
      });
    });
    return last ? { result: 'dead', error } : { result: 'retry', error };
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

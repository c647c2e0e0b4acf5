import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { WebhookEndpointRow } from '../../db/repositories/webhooks.repository.js';
import type { Secrets } from '../../secrets.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { refuseWebhookUrl } from './address-guard.js';
import { WEBHOOK_MAX_ATTEMPTS } from './webhook-outbox.js';

export const SECRET_OVERLAP_MS = 24 * 60 * 60_000;

export interface WebhookInput {
  url?: string;
  format?: 'v5' | 'v5.2';
  events?: string[] | null;
  enabled?: boolean;
}

export function endpointView(row: WebhookEndpointRow) {
  return {
    webhook_uuid: row.webhook_uuid,
    url: row.url,
    format: row.format,
    events: row.events ? (JSON.parse(row.events) as string[]) : null,
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    failing_since: row.failing_since,
    created_date: row.created_at,
    updated_date: row.updated_at,
  };
}

/** Webhook endpoints of an account: registration, secrets and their rotation, the delivery log, resending. */
export class WebhookEndpointsService {
  constructor(
    private readonly repos: Repositories,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly allowPrivate: boolean,
  ) {}

  async create(accountId: number, input: WebhookInput & { url: string }) {
    await this.checkUrl(input.url);
    const secret = newSecret();
    const now = this.clock.now().toISOString();
    const row = await this.repos.webhooks.insertEndpoint({
      account_id: accountId,
      webhook_uuid: randomUUID(),
      url: input.url,
      format: input.format ?? 'v5.2',
      events: input.events ? JSON.stringify([...new Set(input.events)]) : null,
      enabled: input.enabled === false ? 0 : 1,
      secret_sealed: this.secrets.encrypt(secret),
      created_at: now,
      updated_at: now,
    });
    return { ...endpointView(row), secret };
  }

  async list(accountId: number) {
    return (await this.repos.webhooks.listEndpoints(accountId)).map(endpointView);
  }

  async get(accountId: number, webhookUuid: string) {
    return endpointView(await this.require(accountId, webhookUuid));
  }

  async update(accountId: number, webhookUuid: string, input: WebhookInput) {
    const row = await this.require(accountId, webhookUuid);
    if (input.url !== undefined) await this.checkUrl(input.url);
    const enabling = input.enabled === true && row.enabled !== 1;
    const updated = await this.repos.webhooks.updateEndpoint(row.id, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.format !== undefined ? { format: input.format } : {}),
      ...(input.events !== undefined ? { events: input.events ? JSON.stringify([...new Set(input.events)]) : null } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled ? 1 : 0 } : {}),
      ...(enabling ? { disabled_reason: null, failing_since: null } : {}),
      updated_at: this.clock.now().toISOString(),
    });
    return endpointView(updated);
  }

  async remove(accountId: number, webhookUuid: string): Promise<void> {
    await this.repos.webhooks.deleteEndpoint((await this.require(accountId, webhookUuid)).id);
  }

  /** A new secret; the old one keeps signing beside it for 24 hours so receivers can switch without loss. */
  async rotateSecret(accountId: number, webhookUuid: string) {
    const row = await this.require(accountId, webhookUuid);
    const secret = newSecret();
    const now = this.clock.now();
    const updated = await this.repos.webhooks.updateEndpoint(row.id, {
      secret_sealed: this.secrets.encrypt(secret),
      previous_secret_sealed: row.secret_sealed,
      previous_secret_expires_at: new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString(),
      updated_at: now.toISOString(),
    });
    return { ...endpointView(updated), secret, previous_secret_expires_date: updated.previous_secret_expires_at };
  }

  /** The secrets that sign now: the current one, and the previous one during its overlap. */
  signingSecrets(row: WebhookEndpointRow): string[] {
    const secrets = [this.secrets.decrypt(row.secret_sealed)];
    if (row.previous_secret_sealed && row.previous_secret_expires_at && row.previous_secret_expires_at > this.clock.now().toISOString()) {
      secrets.push(this.secrets.decrypt(row.previous_secret_sealed));
    }
    return secrets;
  }

  async deliveryLog(accountId: number, webhookUuid: string) {
    const row = await this.require(accountId, webhookUuid);
    return (await this.repos.webhooks.recentAttempts(row.id, 100)).map((a) => ({
      event_id: a.event_id,
      type: a.type,
      attempted_date: a.attempted_at,
      status_code: a.status_code,
      latency_ms: a.latency_ms,
      error: a.error,
      delivery_status: a.delivery_status,
    }));
  }

  async failedCount(accountId: number, webhookUuid?: string): Promise<number> {
    const endpoint = webhookUuid ? await this.require(accountId, webhookUuid) : null;
    return this.repos.webhooks.countFailed(accountId, endpoint?.id);
  }

  /** Sends failed deliveries again, with their original event ids (receivers de-duplicate by them). */
  async resendFailed(accountId: number, options: { webhookUuid?: string; since?: string }): Promise<number> {
    const endpoint = options.webhookUuid ? await this.require(accountId, options.webhookUuid) : null;
    return this.repos.transaction(async (repos) => {
      const failed = await repos.webhooks.listFailed(accountId, { endpointId: endpoint?.id, since: options.since, limit: 1000 });
      const now = this.clock.now().toISOString();
      for (const delivery of failed) {
        await repos.webhooks.updateDelivery(delivery.id, { status: 'pending', attempts: 0, updated_at: now });
        await repos.jobs.enqueue('webhook.deliver', { delivery_id: delivery.id }, { now, accountId, maxAttempts: WEBHOOK_MAX_ATTEMPTS });
      }
      return failed.length;
    });
  }

  private async require(accountId: number, webhookUuid: string): Promise<WebhookEndpointRow> {
    const row = await this.repos.webhooks.findEndpoint(accountId, webhookUuid);
    if (!row) throw new NotFoundError(`No webhook ${webhookUuid}`);
    return row;
  }

  private async checkUrl(url: string): Promise<void> {
    const refusal = await refuseWebhookUrl(url, this.allowPrivate);
    if (refusal) throw ValidationError.at(['url'], refusal);
  }
}

function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

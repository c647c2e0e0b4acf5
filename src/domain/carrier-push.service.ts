import type { CarrierAdapter } from '../carriers/carrier.js';
import { acceptsPush } from '../carriers/push.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import type { Repositories } from '../db/repositories/index.js';
import { randomToken, sha256Hex } from '../secrets.js';
import { DomainError, InvalidRequestError } from './errors.js';
import type { TrackingService } from './shipments/tracking.service.js';

export class PushNotAuthorizedError extends DomainError {
  constructor() {
    super('unauthorized', 'Push token missing or wrong for this carrier');
  }
}

/**
 * Carriers that push tracking updates: each configuration of such a carrier gets a push token (shown once),
 * and what the carrier posts goes through the same normalization as a poll.
 */
export class CarrierPushService {
  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly tracking: TrackingService,
    private readonly publicUrl: string,
  ) {}

  /** A new push token for a configuration of a pushing carrier, or null for a carrier that does not push. */
  async issueToken(
    accountId: number,
    carrierReference: string,
    carrierId: string,
  ): Promise<{ push_token: string; push_url: string } | null> {
    const adapter = this.carriers.get(carrierId);
    if (!adapter?.capabilities.push || !acceptsPush(adapter)) return null;
    const token = `wbpush_${randomToken(32)}`;
    await this.repos.carrierPush.setTokenHash(accountId, carrierReference, sha256Hex(token));
    return { push_token: token, push_url: `${this.publicUrl}/carrier-hooks/${carrierId}/` };
  }

  async receive(carrierId: string, token: string | null, body: unknown): Promise<{ updates: number; shipments: number }> {
    const adapter = this.carriers.get(carrierId);
    if (!token || !adapter || !acceptsPush(adapter)) throw new PushNotAuthorizedError();
    // The hash is looked up, never compared: a wrong token finds nothing, in the same time as a right one.
    const config = await this.repos.carrierPush.findByTokenHash(carrierId, sha256Hex(token));
    if (!config) throw new PushNotAuthorizedError();
    const parsed = adapter.parsePush(body);
    if (!parsed.ok) throw new InvalidRequestError(parsed.message);
    let shipments = 0;
    for (const update of parsed.updates) {
      const rows = await this.repos.carrierPush.shipmentsTracking(config.account_id, config.carrier_reference, update.tracking_number);
      for (const row of rows) {
        await this.tracking.apply(row, update.result, { adapter: adapter as CarrierAdapter });
        shipments++;
      }
    }
    return { updates: parsed.updates.length, shipments };
  }
}

import { createHmac } from 'node:crypto';
import type { CarrierAdapter } from '../carriers/carrier.js';
import { normalizeTrackingNumber } from '../carriers/detect/index.js';
import { acceptsPush, bearerPushToken, type PushedRequest, type PushHook } from '../carriers/push.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import { randomToken, safeEqual, sha256Hex } from '../secrets.js';
import type { CarrierConfigsService } from './carrier-configs.service.js';
import { DomainError, InvalidRequestError } from './errors.js';
import type { TrackingService } from './shipments/tracking.service.js';

/** What the push token endpoint says its tokens last: the push token does not expire, but a carrier asks again daily. */
export const PUSH_ACCESS_TOKEN_SECONDS = 86_400;

/** Hook tokens: `wbhook_<push token hash>.<signature>`, see `hookFor`. */
const HOOK_TOKEN = /^wbhook_([0-9a-f]{64})\.([A-Za-z0-9_-]{43})$/;

export class PushNotAuthorizedError extends DomainError {
  constructor() {
    super('unauthorized', 'Push token missing or wrong for this carrier');
  }
}

/**
 * Carriers that push tracking updates: each configuration of such a carrier gets a push token (shown once).
 * A push is checked (token, then the carrier's own signature), acknowledged at once, and applied by a job
 * through the same normalization as a poll: a carrier never waits on our database, and a push survives a
 * crash right after its acknowledgement.
 */
export class CarrierPushService {
  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly carrierConfigs: CarrierConfigsService,
    private readonly tracking: TrackingService,
    private readonly clock: Clock,
    private readonly publicUrl: string,
    private readonly hookKey: Buffer,
  ) {}

  /** A new push token for a configuration of a pushing carrier, or null for a carrier that does not push. */
  async issueToken(
    accountId: number,
    carrierReference: string,
    carrierId: string,
  ): Promise<{ push_token: string; push_url: string; push_token_url: string } | null> {
    const adapter = this.carriers.get(carrierId);
    if (!adapter?.capabilities.push || !acceptsPush(adapter)) return null;
    const token = `wbpush_${randomToken(32)}`;
    await this.repos.carrierPush.setTokenHash(accountId, carrierReference, sha256Hex(token));
    const pushUrl = `${this.publicUrl}/carrier-hooks/${carrierId}/`;
    return { push_token: token, push_url: pushUrl, push_token_url: `${pushUrl}oauth/token/` };
  }

  /**
   * OAuth 2.0 client credentials for carriers that fetch a token before they push (UPS Track Alert): the
   * client secret is the configuration's push token, and the access token given is that push token again, so
   * `receive` checks a push the same way whichever route the token took (see docs/decisions.md).
   */
  async accessToken(carrierId: string, clientSecret: string): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }> {
    const adapter = this.carriers.get(carrierId);
    if (!adapter?.capabilities.push || !acceptsPush(adapter) || !clientSecret) throw new PushNotAuthorizedError();
    const config = await this.repos.carrierPush.findByTokenHash(carrierId, sha256Hex(clientSecret));
    if (!config) throw new PushNotAuthorizedError();
    return { access_token: clientSecret, token_type: 'Bearer', expires_in: PUSH_ACCESS_TOKEN_SECONDS };
  }

  /**
   * For carriers told where to push in each subscription (DHL): the configuration's push URL and a hook
   * token for it, or null when the configuration has no push token. Only the push token's hash is stored, so
   * the hook token is derived from that hash and signed with the service's key: `wbhook_<hash>.<signature>`.
   * It needs no storage, is found the way a push token is (by the hash it carries), and stops working when a
   * new push token is issued (see docs/decisions.md).
   */
  async hookFor(accountId: number, carrierReference: string, carrierId: string): Promise<PushHook | null> {
    const hash = await this.repos.carrierPush.tokenHashOf(accountId, carrierReference);
    if (!hash) return null;
    return { url: `${this.publicUrl}/carrier-hooks/${carrierId}/`, token: `wbhook_${hash}.${this.hookSignature(carrierId, hash)}` };
  }

  private hookSignature(carrierId: string, hash: string): string {
    return createHmac('sha256', this.hookKey).update(`${carrierId}:${hash}`).digest('base64url');
  }

  /** The push token hash a token stands for: a hook token's own (when its signature holds), else the token's. */
  private tokenHash(carrierId: string, token: string): string | null {
    const hook = HOOK_TOKEN.exec(token);
    if (!hook) return sha256Hex(token);
    return safeEqual(hook[2], this.hookSignature(carrierId, hook[1])) ? hook[1] : null;
  }

  /**
   * Checks a push and queues it. A body the carrier's mapping cannot read is refused now (so the carrier
   * sees the fault); a readable one is stored as a job in the same breath as the answer.
   */
  async receive(carrierId: string, request: PushedRequest, body: unknown): Promise<{ updates: number; queued: boolean }> {
    const adapter = this.carriers.get(carrierId);
    if (!adapter || !acceptsPush(adapter)) throw new PushNotAuthorizedError();
    const token = adapter.pushToken ? adapter.pushToken(request.headers, request) : bearerPushToken(request.headers);
    const hash = token ? this.tokenHash(carrierId, token) : null;
    if (!hash) throw new PushNotAuthorizedError();
    // The hash is looked up, never compared: a wrong token finds nothing, in the same time as a right one.
    const config = await this.repos.carrierPush.findByTokenHash(carrierId, hash);
    if (!config) throw new PushNotAuthorizedError();
    if (adapter.verifyPush) {
      const resolved = await this.carrierConfigs.resolve(config.account_id, config.carrier_reference);
      const settings = resolved ? (adapter.effectiveSettings?.(resolved.settings) ?? resolved.settings) : {};
      if (!adapter.verifyPush(request, settings)) throw new PushNotAuthorizedError();
    }
    const parsed = adapter.parsePush(body);
    if (!parsed.ok) throw new InvalidRequestError(parsed.message);
    await this.repos.jobs.enqueue(
      'carrier.push',
      { carrier_id: carrierId, carrier_reference: config.carrier_reference, body },
      { now: this.clock.now().toISOString(), accountId: config.account_id },
    );
    return { updates: parsed.updates.length, queued: true };
  }

  /**
   * Applies a queued push to the configuration's shipments with the pushed numbers, compared as carrier detection
   * reads them (spaces, dashes and case aside); returns how many.
   */
  async apply(accountId: number, carrierId: string, carrierReference: string, body: unknown): Promise<number> {
    const adapter = this.carriers.get(carrierId);
    if (!adapter || !acceptsPush(adapter)) return 0;
    const parsed = adapter.parsePush(body);
    if (!parsed.ok) return 0;
    let shipments = 0;
    for (const update of parsed.updates) {
      // Read as detection reads numbers: a carrier's "JD00021234" is the merchant's "jd 0002 1234".
      const number = normalizeTrackingNumber(update.tracking_number);
      if (number === '') continue;
      const rows = await this.repos.carrierPush.shipmentsTracking(accountId, carrierReference, number);
      for (const row of rows) {
        await this.tracking.apply(row, update.result, { adapter: adapter as CarrierAdapter });
        shipments++;
      }
    }
    return shipments;
  }
}

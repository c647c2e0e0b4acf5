import { Type } from '@sinclair/typebox';
import type { CarrierCapabilities, CarrierError, CarrierRecord, CarrierSettings, TrackResult } from '../carrier.js';
import type { PushCapable, PushUpdate, SubscribeOptions, SubscriptionResult } from '../push.js';
import { redact } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import { type CarrierLimits, nextReset } from '../sdk/limits.js';
import { CredentialText, PollIntervalSetting, secret } from '../sdk/settings.js';
import { DHLGLB_CODES, DHLGLB_SERVICES, type DhlService } from './dhlglb.codes.js';
import { mapShipmentsBody, problemText, refused } from './dhlglb.mapper.js';
import { text } from './dhlglb.payload.js';
import { type Download, mayFetch, proofOfDelivery } from './dhlglb.pod.js';
import { parseDhlPush, subscriptionBody } from './dhlglb.push.js';
import { QuotaInference } from './dhlglb.throttle.js';

/**
 * Push subscriptions by tracking number: at most 10 numbers per call (unverified, see docs/carriers/dhlglb.md);
 * DHL documents no end to a subscription, so one is taken to run 30 days and is renewed before.
 */
const SUBSCRIPTION = { numbers_per_call: 10, valid_seconds: 30 * 86_400 } as const;

/**
 * DHL Shipment Tracking – Unified (every DHL division behind one API): `GET /track/shipments` with the
 * `DHL-API-Key` header, one tracking number per call; push through Shipment Tracking – Unified – Push
 * (`POST /tracking/push/v1/subscription`, shipments posted to the configuration's push URL with its hook
 * token). docs/carriers/dhlglb.md has the sources.
 */
export class DhlUnifiedCarrier extends HttpCarrier implements PushCapable {
  static readonly id = 'dhlglb';

  readonly record: CarrierRecord = {
    id: DhlUnifiedCarrier.id,
    name: 'DHL',
    // Parcel networks of the divisions this API searches; DHL Express itself delivers worldwide.
    country_iso: ['DE', 'NL', 'PL', 'GB', 'CZ', 'ES', 'PT', 'US'],
    language: ['en'],
    supported_languages: ['en', 'de'],
    contact: null,
    site_link: 'https://www.dhl.com/',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: true };

  readonly subscription = SUBSCRIPTION;

  readonly settingsSchema = Type.Object({
    // Required, but a key the operator provides (WAYBILL_CARRIER_<ID>_API_KEY) counts: a configuration is refused
    // only when neither the merchant nor the operator has one.
    api_key: secret(
      CredentialText(
        'DHL API key: the Consumer Key of a developer.dhl.com app with "Shipment Tracking - Unified". ' +
          'Leave it out to use the key this deployment provides.',
      ),
    ),
    service: Type.Optional(
      Type.Unsafe<DhlService>({
        type: 'string',
        enum: [...DHLGLB_SERVICES],
        description:
          'The DHL division to search first (express, parcel-de, ecommerce, …). Without it DHL may answer with another ' +
          "division's record of the same parcel.",
      }),
    ),
    language: Type.Optional(
      Type.String({
        pattern: '^[a-z]{2}$',
        description: 'ISO 639-1 language of DHL texts (default en); divisions answer in the languages they have',
      }),
    ),
    poll_interval_seconds: PollIntervalSetting,
  });

  /**
   * The Starter service level every new key gets (1 call a second, 250 a day, reset at 24:00 GMT); DHL
   * also asks for at most 10 fetches of one shipment a day, spread evenly.
   */
  readonly limits: CarrierLimits = {
    numbers_per_call: 1,
    concurrent_calls: 1,
    requests_per_second: 1,
    daily_quota: 250,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 8_640,
  };

  /** Production only: DHL offers no test environment for this API to external customers. */
  protected readonly baseUrls = { production: 'https://api-eu.dhl.com' };

  private readonly quota = new QuotaInference(() => this.kit.now());

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    const apiKey = context.settings.api_key;
    if (typeof apiKey !== 'string' || apiKey.trim() === '') {
      return {
        status: 'error',
        retryable: false,
        message: 'DHL: no API key. Set settings.api_key, or the operator sets WAYBILL_CARRIER_DHLGLB_API_KEY.',
      };
    }
    return Promise.all(numbers.map((number) => this.trackOne(number, apiKey, context)));
  }

  /**
   * Pushed shipments (the tracking API's structure) → one update each, through the tracking mapper. DHL
   * sends the hook token we gave in the subscription as `Authorization: Bearer <hook token>`.
   */
  parsePush(body: unknown): { ok: true; updates: PushUpdate[] } | { ok: false; message: string } {
    return parseDhlPush(body, { eventKeyOf: (code) => this.code(DHLGLB_CODES, [code]) });
  }

  /**
   * Subscribes up to 10 numbers with the credential's key and within its limits, telling DHL the
   * configuration's push URL and hook token. DHL answers for the call as a whole: every number is accepted
   * or none is.
   */
  async subscribe(
    numbers: readonly string[],
    settings: CarrierSettings,
    options: SubscribeOptions,
  ): Promise<SubscriptionResult | CarrierError> {
    if (numbers.length === 0 || numbers.length > SUBSCRIPTION.numbers_per_call) {
      return { status: 'error', retryable: false, message: `DHL subscribes 1 to ${SUBSCRIPTION.numbers_per_call} numbers per call` };
    }
    if (!options.hook) {
      return { status: 'error', retryable: false, message: 'DHL push: issue a push token for this configuration first.' };
    }
    const context = this.prepare(settings, options);
    if ('status' in context) return context;
    const apiKey = context.settings.api_key;
    if (typeof apiKey !== 'string' || apiKey.trim() === '') {
      return { status: 'error', retryable: false, message: 'DHL: no API key for push subscriptions.' };
    }
    const hook = options.hook;
    const asked = numbers.map((n) => n.replace(/\s+/g, '').toUpperCase());
    const response = await this.gated(context, () =>
      this.call(context, {
        method: 'POST',
        url: `${context.baseUrl}/tracking/push/v1/subscription`,
        headers: { 'DHL-API-Key': apiKey, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(subscriptionBody(asked, hook, text(context.settings.service))),
        isQuotaExceeded: (answer) => this.quota.isQuotaExceeded(context.credentialKey, answer),
      }),
    );
    if ('retryable' in response) return response;
    if (response.status >= 200 && response.status < 300) {
      return { accepted: [...numbers], refused: [], until: new Date(options.now.getTime() + SUBSCRIPTION.valid_seconds * 1000) };
    }
    if (response.status >= 400 && response.status < 500) {
      const why = problemText(response.json());
      const access = response.status === 401 || response.status === 403 ? ' (push access is granted by DHL on request)' : '';
      return {
        status: 'error',
        retryable: false,
        message: redact(`DHL refused the push subscription (HTTP ${response.status})${access}${why ? `: ${why}` : ''}`, context.secrets),
      };
    }
    return this.unreadable(context, response, 'subscription answer');
  }

  private async trackOne(trackingNumber: string, apiKey: string, context: CallContext): Promise<TrackResult> {
    const query = new URLSearchParams({ trackingNumber });
    const service = text(context.settings.service);
    const language = text(context.settings.language);
    if (service) query.set('service', service);
    if (language) query.set('language', language);
    const answer = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}/track/shipments?${query}`,
      headers: { 'DHL-API-Key': apiKey },
      isQuotaExceeded: (response) => this.quota.isQuotaExceeded(context.credentialKey, response),
    });
    if ('retryable' in answer) {
      if (answer.throttled === 'quota' && answer.retry_after_seconds === undefined) {
        const untilReset = nextReset(this.kit.now(), this.limits.quota_reset_utc) - this.kit.now();
        return { ...answer, tracking_number: trackingNumber, retry_after_seconds: Math.max(1, Math.ceil(untilReset / 1000)) };
      }
      return { ...answer, tracking_number: trackingNumber };
    }
    if (answer.status === 200) {
      // The body is this number's alone: the same bytes as the stored answer's are that answer again.
      const unchanged = this.unchangedAnswer(context, trackingNumber, answer.body);
      if (unchanged) return unchanged;
      return mapShipmentsBody(trackingNumber, answer.json(), {
        eventKeyOf: (code) => this.code(DHLGLB_CODES, [code]),
        proofOfDelivery: (link, shipmentId) =>
          mayFetch(link.url, new URL(context.baseUrl).origin) ? proofOfDelivery(link, shipmentId, this.download(apiKey, context)) : null,
      });
    }
    if (answer.status === 404) return { status: 'not_found', tracking_number: trackingNumber };
    if (answer.status >= 400 && answer.status < 500) {
      const error = refused(answer.status, answer.json());
      return { ...error, tracking_number: trackingNumber, message: redact(error.message, context.secrets) };
    }
    return { ...this.unreadable(context, answer), tracking_number: trackingNumber };
  }

  /**
   * Downloads a proof-of-delivery link through the carrier transport. A link on the API's own origin is a
   * call on the key (sent only there), so it waits for the credential's limits like a tracking call.
   */
  private download(apiKey: string, context: CallContext): Download {
    const origin = new URL(context.baseUrl).origin;
    return async (url, signal) => {
      const onApi = new URL(url).origin === origin;
      const call = { ...context, signal };
      // On the API's origin it is a call on the key: paced and counted like a tracking call (this.call).
      const answer = onApi
        ? await this.gated(call, () => this.call(call, { method: 'GET', url, headers: { 'DHL-API-Key': apiKey, accept: '*/*' } }))
        : await this.kit.http.call({
            carrier: this.record.id,
            method: 'GET',
            url,
            headers: { accept: '*/*' },
            secrets: context.secrets,
            signal,
          });
      return 'retryable' in answer ? answer : { status: answer.status, body: answer.body };
    };
  }
}

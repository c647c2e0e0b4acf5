import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type {
  BookingCapable,
  BookingError,
  BookRequest,
  BookResult,
  CarrierFieldError,
  CarrierPudoLocation,
  CarrierPudoQuery,
  FoundBooking,
  PudoSearchCapable,
} from '../booking.js';
import type { CarrierCapabilities, CarrierError, CarrierRecord, CarrierSettings, TrackResult } from '../carrier.js';
import type { PushCapable, PushUpdate, SubscribeOptions, SubscriptionResult } from '../push.js';
import { type CallAuth, redact } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { clientCredentialsToken } from '../sdk/oauth.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { searchAccessPoints } from './upsglb.access-points.js';
import { checkUpsBooking, UPS_BOOKING_SETTINGS, UPS_MAX_PARCELS, UPS_PRODUCTS } from './upsglb.booking.js';
import { UPS_CODES } from './upsglb.codes.js';
import { describeMessages, errorsOf, mapTrackResponse } from './upsglb.mapper.js';
import { parseTrackAlert, readSubscriptionAnswer } from './upsglb.push.js';
import { type UpsApi, UpsShipping } from './upsglb.shipping.js';

/** Identifies Waybill to UPS in every call's `transactionSrc` header. */
const TRANSACTION_SOURCE = 'waybill';

/** Track Alert subscriptions: at most 100 numbers per call, each valid 14 days (UPSTrackAlert.yaml). */
const SUBSCRIPTION = { numbers_per_call: 100, valid_seconds: 14 * 86_400 } as const;

/**
 * UPS: OAuth client credentials (`POST /security/v1/oauth/token`, HTTP Basic), then the Track API
 * (`GET /api/track/v1/details/{inquiryNumber}`), one number per call; push through Track Alert
 * (`POST /api/track/v2/subscription/standard/package`, events posted to the configuration's push URL);
 * booking through the Shipping API (ship, void, label recovery: `upsglb.shipping.ts`) and Access Point
 * search through the Locator (`upsglb.access-points.ts`), with the same token and limits.
 * docs/carriers/upsglb.md has the sources, limits and what a merchant sees.
 */
export class UpsCarrier extends HttpCarrier implements PushCapable, BookingCapable, PudoSearchCapable {
  static readonly id = 'upsglb';

  readonly record: CarrierRecord = {
    id: UpsCarrier.id,
    name: 'UPS',
    country_iso: [
      'US',
      'CA',
      'MX',
      'GB',
      'IE',
      'DE',
      'FR',
      'NL',
      'BE',
      'LU',
      'IT',
      'ES',
      'PT',
      'AT',
      'CH',
      'PL',
      'SE',
      'DK',
      'NO',
      'FI',
      'CN',
      'HK',
      'JP',
      'KR',
      'SG',
      'IN',
      'AU',
      'BR',
    ],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: 'https://www.ups.com',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: true, pudo: true, push: true };

  readonly subscription = SUBSCRIPTION;

  readonly settingsSchema = Type.Object({
    client_id: CredentialText('Client ID of the UPS developer app (developer.ups.com), with the Tracking API added'),
    client_secret: secret(CredentialText('Client secret of the UPS developer app')),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
    ...UPS_BOOKING_SETTINGS,
  });

  readonly maxParcels = UPS_MAX_PARCELS;
  readonly cancellation = "Voided at UPS (Void Shipment) within UPS's void period, until UPS has the parcel.";
  readonly products = UPS_PRODUCTS;

  /** UPS publishes no figures for the Track API: these stay well inside what one app is allowed. */
  readonly limits: CarrierLimits = {
    numbers_per_call: 1,
    concurrent_calls: 4,
    requests_per_second: 5,
    daily_quota: null,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 300,
  };

  protected readonly baseUrls = { production: 'https://onlinetools.ups.com', sandbox: 'https://wwwcie.ups.com' };

  /** Booking and search calls: JSON with UPS's headers, the tracking token, within the credential's limits. */
  private readonly api: UpsApi = {
    now: () => this.kit.now(),
    context: (settings, options) => this.prepare(settings, options),
    send: (context, call) =>
      this.gated(context, () =>
        this.call(context, {
          method: call.method,
          url: `${context.baseUrl}${call.path}`,
          headers: {
            transId: randomUUID().replace(/-/g, ''),
            transactionSrc: TRANSACTION_SOURCE,
            ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
          auth: this.tokenAuth(context),
          retry: call.retry,
          ...(call.maxBytes ? { maxBytes: call.maxBytes } : {}),
          ...(call.timeoutMs ? { timeoutMs: call.timeoutMs } : {}),
        }),
      ),
  };

  private readonly shipping = new UpsShipping(this.api);

  checkBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
    return checkUpsBooking(request, this.effectiveSettings(settings));
  }

  book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult> {
    return this.shipping.book(request, settings, options);
  }

  cancel(
    shipmentId: string,
    settings: CarrierSettings,
    options?: { now?: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok' } | BookingError> {
    return this.shipping.cancel(shipmentId, settings, options);
  }

  findBooking(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<FoundBooking> {
    return this.shipping.findBooking(request, settings, options);
  }

  searchPudo(
    query: CarrierPudoQuery,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
    return searchAccessPoints(this.api, this.record.id, query, settings, options);
  }

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    return Promise.all(numbers.map((number) => this.trackOne(number, context)));
  }

  /**
   * A Track Alert `TrackingEventRequest` (or a list of them) → updates, through the Track API's mapper.
   * UPS authenticates with the bearer token it got from the configuration's token endpoint (the push token).
   */
  parsePush(body: unknown): { ok: true; updates: PushUpdate[] } | { ok: false; message: string } {
    return parseTrackAlert(body, (codes) => this.code(UPS_CODES, codes));
  }

  /**
   * Subscribes up to 100 numbers to Track Alert for 14 days, with the tracking token and within the
   * credential's limits. UPS posts their events to the webhook registered for the UPS app (the merchant's
   * push URL): v2 takes no destination in the request.
   */
  async subscribe(
    numbers: readonly string[],
    settings: CarrierSettings,
    options: SubscribeOptions,
  ): Promise<SubscriptionResult | CarrierError> {
    if (numbers.length === 0 || numbers.length > SUBSCRIPTION.numbers_per_call) {
      return { status: 'error', retryable: false, message: `UPS subscribes 1 to ${SUBSCRIPTION.numbers_per_call} numbers per call` };
    }
    const context = this.prepare(settings, options);
    if ('status' in context) return context;
    const asked = numbers.map((n) => n.replace(/\s+/g, '').toUpperCase());
    const response = await this.gated(context, () =>
      this.call(context, {
        method: 'POST',
        url: `${context.baseUrl}/api/track/v2/subscription/standard/package`,
        headers: { transId: randomUUID().replace(/-/g, ''), transactionSrc: TRANSACTION_SOURCE, 'content-type': 'application/json' },
        body: JSON.stringify({ locale: 'en_US', countryCode: 'US', trackingNumberList: asked }),
        auth: this.tokenAuth(context),
      }),
    );
    if ('retryable' in response) return response;
    const answer = response.status === 200 || response.status === 400 ? readSubscriptionAnswer(response.json()) : null;
    if (!answer) return this.unreadable(context, response, 'subscription answer');
    if (response.status === 400 && answer.invalid.length === 0) {
      // The whole request was refused (VSS… codes): not a number's fault, and asking again changes nothing.
      return {
        status: 'error',
        retryable: false,
        message: redact(`UPS refused the subscription (HTTP 400): ${describeMessages(answer.errors)}`, context.secrets),
      };
    }
    const valid = new Set(response.status === 200 ? answer.valid : []);
    const invalid = new Set(answer.invalid);
    const reason = answer.errors.length > 0 ? describeMessages(answer.errors) : 'UPS listed it as invalid';
    const result: SubscriptionResult = {
      accepted: [],
      refused: [],
      until: new Date(options.now.getTime() + SUBSCRIPTION.valid_seconds * 1000),
    };
    numbers.forEach((number, i) => {
      if (valid.has(asked[i]) && !invalid.has(asked[i])) result.accepted.push(number);
      else
        result.refused.push({
          tracking_number: number,
          message: invalid.has(asked[i]) ? reason : 'UPS did not list it as subscribed',
        });
    });
    return result;
  }

  /** The bearer token of this credential, shared by tracking and subscription calls. */
  private tokenAuth(context: CallContext): CallAuth {
    return this.bearer(context, () =>
      clientCredentialsToken(this.kit.http, {
        carrier: this.record.id,
        tokenUrl: `${context.baseUrl}/security/v1/oauth/token`,
        clientId: String(context.settings.client_id),
        clientSecret: String(context.settings.client_secret),
        style: 'basic',
        signal: context.signal,
      }),
    );
  }

  private async trackOne(number: string, context: CallContext): Promise<TrackResult> {
    const query = new URLSearchParams({ locale: 'en_US', returnSignature: 'true', returnMilestones: 'false', returnPOD: 'false' });
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}/api/track/v1/details/${encodeURIComponent(number)}?${query}`,
      // transId: unique per request, at most 32 characters.
      headers: { transId: randomUUID().replace(/-/g, ''), transactionSrc: TRANSACTION_SOURCE },
      auth: this.tokenAuth(context),
    });
    if ('retryable' in response) return { ...response, tracking_number: number };
    if (response.status === 200) {
      // The body is this number's alone: the same bytes as the stored answer's are that answer again.
      const unchanged = this.unchangedAnswer(context, number, response.body);
      if (unchanged) return unchanged;
      const result = mapTrackResponse(response.json(), number, (codes) => this.code(UPS_CODES, codes));
      // A 200 that is not a Track API answer (a gateway's page) is retryable (the SDK's rule for 2xx).
      return 'tracking_number' in result ? result : { ...this.unreadable(context, response), tracking_number: number };
    }
    const errors = errorsOf(response.json());
    // 404 "Tracking number information not found", in UPS's error shape (not some proxy's page).
    if (response.status === 404 && errors.length > 0) return { status: 'not_found', tracking_number: number };
    if (response.status === 400 && errors.length > 0) {
      return {
        status: 'error',
        tracking_number: number,
        retryable: false,
        message: redact(`UPS refused the request for this number (HTTP 400): ${describeMessages(errors)}`, context.secrets),
      };
    }
    return { ...this.unreadable(context, response), tracking_number: number };
  }
}

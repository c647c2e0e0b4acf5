import { Type } from '@sinclair/typebox';
import type {
  BookingCapable,
  BookingError,
  BookRequest,
  BookResult,
  CarrierFieldError,
  CarrierPudoLocation,
  CarrierPudoQuery,
  PudoSearchCapable,
} from '../booking.js';
import type { CarrierCapabilities, CarrierError, CarrierRecord, CarrierSettings, TrackResult } from '../carrier.js';
import type { CallAuth, CarrierResponse } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import { type CarrierLimits, nextReset } from '../sdk/limits.js';
import { clientCredentialsToken } from '../sdk/oauth.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { checkGlsBooking, GLS_BOOKING_SETTINGS, GLS_MAX_PARCELS, GLS_PRODUCTS } from './glsglb.booking.js';
import { GLS_CODES } from './glsglb.codes.js';
import { gatewayMessage, isQuotaFault, mapGlsResponse, problemText } from './glsglb.mapper.js';
import { searchParcelShops } from './glsglb.parcelshops.js';
import { SHIPIT_MEDIA_TYPE } from './glsglb.shipit.js';
import { type GlsApi, GlsShipping } from './glsglb.shipping.js';

/** Where the Track And Trace V1 paths and the token path sit below the base URL. */
export const GLS_TOKEN_PATH = '/oauth2/v2/token';
export const GLS_TRACK_PATH = '/track-and-trace-v1/tracking/simple/trackids/';

/**
 * GLS Track And Trace V1 (GLS Group developer portal): OAuth2 client credentials, up to ten parcel numbers
 * or Track IDs per call, a daily quota per app. Booking, cancelling and ParcelShop search through ShipIT (the
 * portal's ShipIT Farm API, `/shipit-farm/v1/backend/rs/…` on the same host, with the same token):
 * `glsglb.shipping.ts`, `glsglb.parcelshops.ts`. docs/carriers/glsglb.md describes the APIs and the choices.
 */
export class GlsCarrier extends HttpCarrier implements BookingCapable, PudoSearchCapable {
  static readonly id = 'glsglb';

  readonly record: CarrierRecord = {
    id: GlsCarrier.id,
    name: 'GLS',
    country_iso: [
      'AT',
      'BE',
      'BG',
      'CZ',
      'DE',
      'DK',
      'EE',
      'ES',
      'FI',
      'FR',
      'GB',
      'HR',
      'HU',
      'IE',
      'IT',
      'LU',
      'LV',
      'LT',
      'NL',
      'PL',
      'PT',
      'RO',
      'SI',
      'SK',
    ],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: 'https://gls-group.com',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: true, pudo: true, push: false };

  readonly settingsSchema = Type.Object({
    client_id: CredentialText('Client ID (API key) of the app on the GLS Group developer portal'),
    client_secret: secret(CredentialText('Client secret of the app on the GLS Group developer portal')),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
    ...GLS_BOOKING_SETTINGS,
  });

  readonly maxParcels = GLS_MAX_PARCELS;
  readonly cancellation = 'Cancelled at GLS parcel by parcel (ShipIT cancel by Track ID), until GLS has scanned a parcel.';
  readonly products = GLS_PRODUCTS;

  readonly limits: CarrierLimits = {
    numbers_per_call: 10,
    // Not documented: two calls at a time and one a second are well above what 500 calls a day need.
    concurrent_calls: 2,
    requests_per_second: 1,
    daily_quota: 500,
    // Not documented: the gateway's day is assumed to start at midnight UTC.
    quota_reset_utc: '00:00',
    // Not documented: 500 calls of 10 numbers a day poll ~100 parcels every 30 minutes.
    min_poll_interval_seconds: 1800,
  };

  protected readonly baseUrls = { production: 'https://api.gls-group.net', sandbox: 'https://api-sandbox.gls-group.net' };

  /**
   * ShipIT calls: GLS's media type and the tracking token. They are not paced nor counted by tracking's limits
   * (Track And Trace's daily quota and assumed rate): ShipIT is another product of the app, a merchant's booking
   * must not wait behind polling, and GLS publishes no limit for it. A throttle GLS answers is still an error.
   */
  private readonly api: GlsApi = {
    now: () => this.kit.now(),
    context: (settings, options) => this.prepare(settings, options),
    send: (context, call) =>
      this.kit.http.call({
        carrier: this.record.id,
        method: call.method,
        url: `${context.baseUrl}${call.path}`,
        headers: {
          accept: `${SHIPIT_MEDIA_TYPE}, application/json`,
          ...(call.body === undefined ? {} : { 'content-type': SHIPIT_MEDIA_TYPE }),
        },
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
        auth: this.tokenAuth(context),
        retry: call.retry,
        secrets: context.secrets,
        signal: context.signal,
        isQuotaExceeded: (answer) => answer.status !== 200 && isQuotaFault(answer.json()),
        ...(call.maxBytes ? { maxBytes: call.maxBytes } : {}),
        ...(call.timeoutMs ? { timeoutMs: call.timeoutMs } : {}),
      }),
  };

  private readonly shipping = new GlsShipping(this.api);

  checkBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
    return checkGlsBooking(request, this.effectiveSettings(settings));
  }

  book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult> {
    return this.shipping.book(request, settings, options);
  }

  validateBooking(
    request: BookRequest,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; warnings?: string[] } | BookingError> {
    return this.shipping.validate(request, settings, options);
  }

  cancel(
    identifier: string,
    settings: CarrierSettings,
    options?: { now?: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok' } | BookingError> {
    return this.shipping.cancel(identifier, settings, options);
  }

  searchPudo(
    query: CarrierPudoQuery,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
    return searchParcelShops(this.api, this.record.id, query, settings, options);
  }

  /** The bearer token of this credential, shared by tracking and ShipIT calls. */
  private tokenAuth(context: CallContext): CallAuth {
    return this.bearer(context, () =>
      clientCredentialsToken(this.kit.http, {
        carrier: this.record.id,
        tokenUrl: `${context.baseUrl}${GLS_TOKEN_PATH}`,
        clientId: String(context.settings.client_id),
        clientSecret: String(context.settings.client_secret),
        style: 'basic',
        signal: context.signal,
      }),
    );
  }

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    const ids = numbers.map((n) => encodeURIComponent(n.replace(/\s+/g, ''))).join(',');
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}${GLS_TRACK_PATH}${ids}?showEvents=true`,
      headers: { 'accept-language': 'EN' },
      auth: this.tokenAuth(context),
      isQuotaExceeded: (answer) => answer.status !== 200 && isQuotaFault(answer.json()),
    });
    if ('retryable' in response) return this.untilReset(response);
    if (response.status === 200)
      return mapGlsResponse(response.json(), numbers, (codes) => this.code(GLS_CODES, codes), this.sameAnswer(context));
    return this.refused(context, response);
  }

  /** A spent daily quota pauses the credential until the (assumed) reset, unless GLS said when. */
  private untilReset(error: CarrierError): CarrierError {
    if (error.throttled !== 'quota' || error.retry_after_seconds !== undefined) return error;
    const seconds = Math.max(1, Math.ceil((nextReset(this.kit.now(), this.limits.quota_reset_utc) - this.kit.now()) / 1000));
    return { ...error, retry_after_seconds: seconds };
  }

  /** A whole request refused (400, 404, …): GLS's own words when it gave some. */
  private refused(context: CallContext, response: CarrierResponse): CarrierError {
    const body = response.json();
    const said = problemText(body) || gatewayMessage(body);
    if (!said) return this.unreadable(context, response);
    let message = `GLS refused the tracking request (HTTP ${response.status}): ${said}`;
    for (const value of context.secrets) if (value.length >= 4) message = message.split(value).join('[redacted]');
    // A 404 for the whole call is not a verdict on the numbers (GLS answers unknown ids inside a 200).
    return { status: 'error', retryable: response.status === 404 || response.status >= 500, message };
  }
}

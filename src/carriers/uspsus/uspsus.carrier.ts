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
import { answeredStatus, type CallAuth, type CarrierResponse, heldBack, redact } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { clientCredentialsToken } from '../sdk/oauth.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { TokenCache } from '../sdk/token-cache.js';
import { checkUspsBooking, USPS_BOOKING_SETTINGS, USPS_MAX_PARCELS, USPS_PRODUCTS } from './uspsus.booking.js';
import { USPS_CATEGORIES, USPS_CODES } from './uspsus.codes.js';
import { describe, errorEntries } from './uspsus.errors.js';
import { searchPostOffices } from './uspsus.locations.js';
import { mapErrorAnswer, mapTrackingAnswer, normalizeNumber } from './uspsus.mapper.js';
import { PAYMENT_HEADER, PAYMENT_PATH, paymentRequest, readPaymentAnswer } from './uspsus.payment.js';
import { type UspsApi, type UspsCall, UspsShipping } from './uspsus.shipping.js';

const TABLE = { ...USPS_CODES, ...USPS_CATEGORIES };
const HOUR_MS = 3_600_000;
/**
 * How long a label call waits for USPS when `WAYBILL_CARRIER_USPSUS_TIMEOUT_SECONDS` is not set; the booking's own
 * deadline still applies. Past it the label may have been made: the booking is `outcome_unknown`.
 */
const LABEL_TIMEOUT_SECONDS = 60;

/** What USPS accepts as a tracking number (`TrackingRequestBody.trackingNumber`: 4 to 34 letters and digits). */
const ACCEPTED = /^[A-Z0-9]{4,34}$/;

/**
 * USPS through USPS's APIs (OAuth 2.0 client credentials): Tracking 3.2 (up to 35 numbers per call); labels
 * through Labels 3.0 with a payment authorization token of Payments 3.0 (`uspsus.shipping.ts`), and Post
 * Offices that hold parcels for pickup through Locations 3.0 (`uspsus.locations.ts`).
 * docs/carriers/uspsus.md has the endpoints, the limits and their sources.
 */
export class UspsCarrier extends HttpCarrier implements BookingCapable, PudoSearchCapable {
  static readonly id = 'uspsus';

  readonly record: CarrierRecord = {
    id: UspsCarrier.id,
    name: 'USPS',
    country_iso: ['US'],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: 'https://www.usps.com',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: true, pudo: true, push: false };

  readonly settingsSchema = Type.Object({
    client_id: CredentialText('Consumer Key of the app in the USPS Developer Portal (developers.usps.com)'),
    client_secret: secret(CredentialText('Consumer Secret of the same app')),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
    ...USPS_BOOKING_SETTINGS,
  });

  readonly maxParcels = USPS_MAX_PARCELS;
  readonly cancellation = "Cancelled at USPS (DELETE /labels/v3/label): the label's postage is refunded or a refund requested.";
  readonly products = USPS_PRODUCTS;

  /**
   * USPS gives an app a quota of calls per hour for all its USPS APIs together (60 by default, raised on request);
   * it is spent here at most one call a minute, 35 numbers each, and counted per day for the poller's ranking.
   */
  readonly limits: CarrierLimits = {
    numbers_per_call: 35,
    concurrent_calls: 1,
    requests_per_second: 60 / 3600,
    daily_quota: 60 * 24,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 1800,
  };

  protected readonly baseUrls = { production: 'https://apis.usps.com', sandbox: 'https://apis-tem.usps.com' };

  /** Label, cancel and locator calls: USPS's OAuth token, and the payment authorization where postage is spent. */
  private readonly api: UspsApi = {
    now: () => this.kit.now(),
    labelTimeoutMs: () => this.kit.operator.bookingTimeoutMs(this.record.id, LABEL_TIMEOUT_SECONDS),
    context: (settings, options) => this.prepare(settings, options),
    send: (context, call) => this.send(context, call),
  };

  private readonly shipping = new UspsShipping(this.api);

  checkBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
    return checkUspsBooking(request, this.effectiveSettings(settings));
  }

  book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult> {
    return this.shipping.book(request, settings, options);
  }

  cancel(
    trackingNumber: string,
    settings: CarrierSettings,
    options?: { now?: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok' } | BookingError> {
    return this.shipping.cancel(trackingNumber, settings, options);
  }

  searchPudo(
    query: CarrierPudoQuery,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
    return searchPostOffices(this.api, this.record.id, query, settings, options);
  }

  /**
   * One label, cancel or locator call. It is not paced like tracking (one call a minute would outlast a
   * booking's deadline), but it is held back while USPS has paused the credential, it spaces the polls that
   * follow it, and USPS's throttling answers pause the credential for every call.
   */
  private async send(context: CallContext, call: UspsCall): Promise<CarrierResponse | CarrierError> {
    const gate = this.kit.gates.gate(context.credentialKey, this.limits);
    const paused = gate.paused();
    if (paused) return heldBack(this.record.name, paused, this.kit.now());
    const bearer = this.tokenAuth(context);
    const query = call.query && [...call.query.keys()].length > 0 ? `?${call.query}` : '';
    const response = await this.kit.http.call({
      carrier: this.record.id,
      method: call.method,
      url: `${context.baseUrl}${call.path}${query}`,
      headers: {
        ...(call.accept ? { accept: call.accept } : {}),
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      auth: call.payment ? this.paymentAuth(context, bearer) : bearer,
      retry: call.retry,
      secrets: context.secrets,
      signal: context.signal,
      sent: () => gate.sent(),
      isQuotaExceeded: (answer) => answer.status === 429 && /quota/i.test(answer.text()),
      ...(call.maxBytes ? { maxBytes: call.maxBytes } : {}),
      ...(call.timeoutMs ? { timeoutMs: call.timeoutMs } : {}),
    });
    if ('retryable' in response && response.throttled && !response.held) {
      // USPS's quota is hourly: without a Retry-After the pause ends at the next hour (`explained`), not the day's reset.
      const throttled = this.explained(response);
      const until = throttled.retry_after_seconds !== undefined ? this.kit.now() + throttled.retry_after_seconds * 1000 : undefined;
      gate.pause(response.throttled, until);
      return throttled;
    }
    if ('retryable' in response && [401, 403].includes(answeredStatus(response) ?? 0)) {
      const api = call.payment ? 'Labels and Payments APIs (scopes "labels" and "payments")' : 'Locations API (scope "locations")';
      return { ...response, message: `${response.message} (check the Consumer Key and Secret, and that the USPS app has the ${api})` };
    }
    return response;
  }

  /**
   * The OAuth token and the payment authorization token (`X-Payment-Authorization-Token`), the latter cached
   * per credential and payment account until it expires; a 401 drops both and the call is sent once more.
   */
  private paymentAuth(context: CallContext, bearer: CallAuth): CallAuth {
    const key = TokenCache.key(`${this.record.id}-payment`, [
      context.credentialKey,
      ...['crid', 'mid', 'manifest_mid', 'account_type', 'account_number', 'permit_zip'].map((name) => context.settings[name] ?? null),
    ]);
    let current: string | null = null;
    return {
      headers: async () => {
        const headers = await bearer.headers();
        if ('status' in headers) return headers;
        const token = await this.kit.tokens.get(key, () => this.authorizePayment(context, bearer));
        if (typeof token !== 'string') return token;
        current = token;
        if (!context.secrets.includes(token)) context.secrets.push(token);
        return { ...headers, [PAYMENT_HEADER]: token };
      },
      invalidate: () => {
        bearer.invalidate();
        if (current) this.kit.tokens.invalidate(key, current);
      },
    };
  }

  /** Payments 3.0: the payment account's roles → a payment authorization token. */
  private async authorizePayment(context: CallContext, bearer: CallAuth) {
    const response = await this.kit.http.call({
      carrier: this.record.id,
      method: 'POST',
      url: `${context.baseUrl}${PAYMENT_PATH}`,
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(paymentRequest(context.settings)),
      auth: bearer,
      secrets: context.secrets,
      signal: context.signal,
    });
    if ('retryable' in response) return response;
    const body = response.json();
    const answer = response.status === 200 || response.status === 201 ? readPaymentAnswer(body, this.kit.now()) : null;
    if (answer) return { access_token: answer.token, expires_in_seconds: answer.seconds };
    const entries = errorEntries(body);
    const message = redact(
      `USPS refused the payment authorization (HTTP ${response.status}): ${entries.length > 0 ? describe(entries) : response.text().slice(0, 200)}`,
      context.secrets,
    );
    if (response.status >= 500 || response.status < 300) return { status: 'error' as const, retryable: true, message };
    return {
      status: 'error' as const,
      retryable: false,
      message,
      field_errors: [
        { path: ['carrier_reference'], message: `${message} (check the crid, mid, account_type and account_number settings)` },
      ],
    };
  }

  /** The bearer token of this credential, shared by tracking, label and locator calls. */
  private tokenAuth(context: CallContext): CallAuth {
    return this.bearer(context, () =>
      clientCredentialsToken(this.kit.http, {
        carrier: this.record.id,
        tokenUrl: `${context.baseUrl}/oauth2/v3/token`,
        clientId: String(context.settings.client_id),
        clientSecret: String(context.settings.client_secret),
        style: 'body',
        encoding: 'json',
        signal: context.signal,
      }),
    );
  }

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    const refused: TrackResult[] = [];
    const asked: string[] = [];
    for (const number of numbers) {
      if (ACCEPTED.test(normalizeNumber(number))) asked.push(number);
      else
        refused.push({
          status: 'error',
          tracking_number: number,
          retryable: false,
          message: 'USPS tracking numbers are 4 to 34 letters and digits',
        });
    }
    if (asked.length === 0) return refused;
    const response = await this.call(context, {
      method: 'POST',
      url: `${context.baseUrl}/tracking/v3r2/tracking`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(asked.map((number) => ({ trackingNumber: normalizeNumber(number) }))),
      auth: this.tokenAuth(context),
      isQuotaExceeded: (answer) => answer.status === 429 && /quota/i.test(answer.text()),
    });
    if ('retryable' in response) {
      const error = this.explained(response);
      return refused.length === 0 ? error : [...refused, ...asked.map((number) => ({ ...error, tracking_number: number }))];
    }
    const mapped = this.read(response, asked, context);
    if (Array.isArray(mapped)) return [...refused, ...mapped];
    return refused.length === 0 ? mapped : [...refused, ...asked.map((number) => ({ ...mapped, tracking_number: number }))];
  }

  /**
   * USPS's quota is hourly: a spent quota without a Retry-After waits for the next full hour, not the day's reset.
   * A refused token says what USPS apps most often lack.
   */
  private explained(error: CarrierError): CarrierError {
    if (error.throttled === 'quota' && error.retry_after_seconds === undefined) {
      const now = this.kit.now();
      return { ...error, retry_after_seconds: Math.max(60, Math.ceil((HOUR_MS - (now % HOUR_MS)) / 1000)) };
    }
    if (!error.retryable && /\(HTTP 40[13]\)/.test(error.message)) {
      return {
        ...error,
        message: `${error.message} (check the Consumer Key and Secret, and that the app has USPS's Tracking API and its "tracking" scope)`,
      };
    }
    return error;
  }

  private read(response: CarrierResponse, asked: string[], context: CallContext): TrackResult[] | CarrierError {
    const body = response.json();
    if ((response.status === 200 || response.status === 207) && body !== undefined) {
      return mapTrackingAnswer(body, asked, { code: (codes) => this.code(TABLE, codes), unchanged: this.sameAnswer(context) });
    }
    if (response.status === 400 || response.status === 404) {
      const results = mapErrorAnswer(response.status, body, asked);
      if (results) return results;
    }
    return this.unreadable(context, response);
  }
}

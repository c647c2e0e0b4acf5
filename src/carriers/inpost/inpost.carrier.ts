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
import { type CarrierResponse, redact } from '../sdk/http.js';
import type { CallContext } from '../sdk/http-carrier.js';
import { HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { checkInpostBooking, INPOST_BOOKING_SETTINGS, INPOST_MAX_PARCELS, INPOST_PRODUCTS } from './inpost.booking.js';
import { INPOST_CODES } from './inpost.codes.js';
import { errorText, mapTrackingBody } from './inpost.mapper.js';
import { mapPoints, pointsQuery } from './inpost.points.js';
import { type InpostApi, InpostShipping } from './inpost.shipping.js';

function isError(outcome: CarrierResponse | CarrierError): outcome is CarrierError {
  return outcome.status === 'error';
}

/**
 * InPost's ShipX API, Polish instance (docs/carriers/inpost.md): one number per call to the public Tracking
 * resource, which needs no token. A configuration may still hold an organisation's ShipX token, sent as a bearer
 * token when set. ShipX gives neither an expected delivery date nor a proof of delivery. With the token and the
 * organization id it books (shipments, labels, cancellation: `inpost.shipping.ts`), and it searches parcel
 * lockers through the public Points resource (`inpost.points.ts`).
 */
export class InpostCarrier extends HttpCarrier implements BookingCapable, PudoSearchCapable {
  static readonly id = 'inpost';

  readonly record: CarrierRecord = {
    id: InpostCarrier.id,
    name: 'InPost',
    country_iso: ['PL'],
    language: ['en', 'pl'],
    supported_languages: ['en', 'pl'],
    contact: null,
    site_link: 'https://inpost.pl',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: true, pudo: true, push: false };

  readonly settingsSchema = Type.Object({
    api_token: Type.Optional(
      secret(CredentialText('ShipX API token (tracking is public and needs none; booking needs it, with organization_id)')),
    ),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
    ...INPOST_BOOKING_SETTINGS,
  });

  readonly maxParcels = INPOST_MAX_PARCELS;
  readonly cancellation = "Cancelled at InPost only before ShipX buys the label; a bought label is cancelled in InPost's Parcel Manager.";
  readonly products = INPOST_PRODUCTS;

  /**
   * ShipX publishes no limits for tracking. One number per call; a few calls at once and five a second per
   * credential (configurations without a token share one: the resource is public); no parcel asked more than
   * every 15 minutes.
   */
  readonly limits: CarrierLimits = {
    numbers_per_call: 1,
    concurrent_calls: 4,
    requests_per_second: 5,
    daily_quota: null,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 900,
  };

  protected readonly baseUrls = {
    production: 'https://api-shipx-pl.easypack24.net',
    sandbox: 'https://sandbox-api-shipx-pl.easypack24.net',
  };

  /** Booking and search calls: JSON with the token when set, within the credential's limits. */
  private readonly api: InpostApi = {
    now: () => this.kit.now(),
    context: (settings, options) => this.prepare(settings, options),
    send: (context, call) =>
      this.gated(context, () =>
        this.call(context, {
          method: call.method,
          url: `${context.baseUrl}${call.path}`,
          headers: {
            accept: call.accept ?? 'application/json',
            ...this.headers(context),
            ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
          retry: call.retry,
          ...(call.maxBytes ? { maxBytes: call.maxBytes } : {}),
        }),
      ),
  };

  private readonly shipping = new InpostShipping(this.api);

  checkBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
    return checkInpostBooking(request, this.effectiveSettings(settings));
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

  /** Parcel lockers near a point or a Polish postal code, from the public Points resource (a read: retried once). */
  async searchPudo(
    query: CarrierPudoQuery,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
    const params = pointsQuery(query);
    if (!params) return { status: 'ok', locations: [] };
    const context = this.api.context(settings, options);
    if ('status' in context) return context;
    const response = await this.api.send(context, { method: 'GET', path: `/v1/points?${params}`, retry: true });
    if ('retryable' in response) return response;
    const locations = response.status === 200 ? mapPoints(response.json(), this.record.id, options.now) : null;
    if (locations) return { status: 'ok', locations };
    const detail = errorText(response.json());
    return {
      status: 'error',
      retryable: response.status >= 500 || response.status === 200,
      message: redact(
        `InPost's points answer could not be read (HTTP ${response.status}): ${detail || response.text().slice(0, 200)}`,
        context.secrets,
      ),
    };
  }

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[]> {
    return Promise.all(numbers.map(async (number) => this.trackOne(number, context)));
  }

  private async trackOne(number: string, context: CallContext): Promise<TrackResult> {
    const response = await this.call(context, {
      method: 'GET',
      // Sent without the spaces a number is often written with (ShipX does not find `6200 0000 …`).
      url: `${context.baseUrl}/v1/tracking/${encodeURIComponent(number.replace(/\s+/g, ''))}`,
      headers: this.headers(context),
    });
    if (isError(response)) return { ...response, tracking_number: number };
    // ShipX answers `resource_not_found` with 404; tracking is kept for 45 days after the shipment was created.
    if (response.status === 404) return { status: 'not_found', tracking_number: number };
    if (response.status !== 200) return { ...this.refused(context, response), tracking_number: number };
    // The body is this number's alone: the same bytes as the stored answer's are that answer again.
    const unchanged = this.unchangedAnswer(context, number, response.body);
    if (unchanged) return unchanged;
    const body = response.json();
    if (body === undefined) return { ...this.unreadable(context, response), retryable: true, tracking_number: number };
    return mapTrackingBody(number, body, { code: (codes) => this.code(INPOST_CODES, codes) });
  }

  private headers(context: CallContext): Record<string, string> {
    const token = context.settings.api_token;
    return typeof token === 'string' && token !== '' ? { authorization: `Bearer ${token}` } : {};
  }

  /** A 4xx other than 404: not retried, with ShipX's error key and message when the body has them. */
  private refused(context: CallContext, response: CarrierResponse): CarrierError {
    const detail = errorText(response.json());
    if (!detail) return this.unreadable(context, response);
    let message = `InPost refused the tracking call (HTTP ${response.status}): ${detail}`;
    for (const value of context.secrets) if (value.length >= 4) message = message.split(value).join('[redacted]');
    return { status: 'error', retryable: response.status >= 500, message };
  }
}

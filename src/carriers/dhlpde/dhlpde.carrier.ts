import { setMaxListeners } from 'node:events';
import type { TSchema } from '@sinclair/typebox';
import type {
  BookingCapable,
  BookingError,
  BookingProduct,
  BookRequest,
  BookResult,
  CarrierFieldError,
  CarrierPudoLocation,
  CarrierPudoQuery,
  PudoSearchCapable,
} from '../booking.js';
import type {
  CarrierAdapter,
  CarrierCapabilities,
  CarrierError,
  CarrierRecord,
  CarrierSettings,
  TrackOptions,
  TrackRequest,
  TrackResult,
} from '../carrier.js';
import type { DhlUnifiedCarrier } from '../dhlglb/dhlglb.carrier.js';
import { problemText } from '../dhlglb/dhlglb.mapper.js';
import { type CallAuth, redact } from '../sdk/http.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { passwordGrantToken } from '../sdk/oauth.js';
import { type CarrierEnvironment, checkSettings, environmentOf, isSecret } from '../sdk/settings.js';
import { TokenCache } from '../sdk/token-cache.js';
import type { CarrierToolkit } from '../sdk/toolkit.js';
import { readCancelAnswer, readOrderAnswer, readValidationAnswer } from './dhlpde.answer.js';
import { mapLocations } from './dhlpde.locations.js';
import { type OrderPlan, planOrder } from './dhlpde.order.js';
import { PARCEL_DE_PRODUCTS } from './dhlpde.products.js';
import { planReturn, RETURN_IDENTIFIER_PREFIX, type ReturnPlan, readReturnAnswer } from './dhlpde.returns.js';
import { DEFAULT_PROFILE, parcelDeSettingsSchema } from './dhlpde.settings.js';
import { parcelDeTracker, trackingSettings } from './dhlpde.tracking.js';
import { type Sent, sendCall } from './dhlpde.transport.js';

export const TOKEN_PATH = '/parcel/de/account/auth/ropc/v1/token';
export const ORDERS_PATH = '/parcel/de/shipping/v2/orders';
export const RETURNS_PATH = '/parcel/de/shipping/returns/v1/orders';
export const LOCATIONS_PATH = '/location-finder/v1';

/** Shipping and Returns APIs: DHL publishes no limits for them; these stay well inside what one user may do. */
const SHIPPING_LIMITS: CarrierLimits = {
  numbers_per_call: 1,
  concurrent_calls: 4,
  requests_per_second: 5,
  daily_quota: null,
  quota_reset_utc: '00:00',
  min_poll_interval_seconds: 0,
};
/** Location Finder – Unified: one call a second (the portal's Starter level); a daily quota shows as DHL's 429. */
const LOCATION_LIMITS: CarrierLimits = { ...SHIPPING_LIMITS, concurrent_calls: 1, requests_per_second: 1 };

/**
 * How long a call to the Shipping or Returns API waits for DHL when `WAYBILL_CARRIER_DHLPDE_TIMEOUT_SECONDS` is not
 * set: no limit of its own, as long as the request may wait (its signal, src/core/carrier-wait.ts: 40 s with the
 * default socket timeout). A setting longer than that wait is refused at start-up (src/config.ts).
 */
const DEFAULT_TIMEOUT_SECONDS = 600;

/** An order answer may carry 30 labels and their customs papers. */
const ORDER_MAX_BYTES = 64 * 1_048_576;

interface Context {
  settings: Record<string, unknown>;
  environment: CarrierEnvironment;
  base: string;
  locationsBase: string;
  secrets: string[];
  key: string;
  signal?: AbortSignal;
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json', 'accept-language': 'en-US' };

/**
 * DHL Paket (Germany): bookings through the Parcel DE Shipping API v2 (`POST /orders`, one DHL shipment per
 * parcel, OAuth password grant), return labels through the Parcel DE Returns API, voids with `DELETE /orders`,
 * pick-up points from the Location Finder – Unified, tracking through the DHL Unified Tracking adapter.
 * docs/carriers/dhlpde.md has the sources, settings and decisions.
 */
export class DhlParcelDeCarrier implements CarrierAdapter, BookingCapable, PudoSearchCapable {
  static readonly id = 'dhlpde';

  readonly record: CarrierRecord = {
    id: DhlParcelDeCarrier.id,
    name: 'DHL Paket (Germany)',
    country_iso: ['DE'],
    language: ['de'],
    supported_languages: ['de', 'en'],
    contact: null,
    site_link: 'https://www.dhl.de/',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: true, pudo: true, push: false };
  readonly settingsSchema = parcelDeSettingsSchema;
  readonly environments: readonly CarrierEnvironment[] = ['production', 'sandbox'];
  readonly maxParcels = 30;
  readonly cancellation =
    'Voided at DHL (DELETE /orders) until DHL has the parcels; a DHL Retoure return label has no void and is released here only.';
  readonly products: readonly BookingProduct[] = PARCEL_DE_PRODUCTS.map(({ code, name, types, destinations }) => ({
    code,
    name,
    types,
    ...(destinations ? { destinations } : {}),
  }));
  /** Tracking's limits (the poller paces by them); bookings and searches have gates of their own. */
  readonly limits: CarrierLimits;

  private readonly tracker: DhlUnifiedCarrier;
  private readonly baseUrls = { production: 'https://api-eu.dhl.com', sandbox: 'https://api-sandbox.dhl.com' };
  private readonly locationsBaseUrl = 'https://api.dhl.com';

  constructor(private readonly kit: CarrierToolkit) {
    this.tracker = parcelDeTracker(kit, DhlParcelDeCarrier.id);
    this.limits = this.tracker.limits;
  }

  effectiveSettings(settings: CarrierSettings): Record<string, unknown> {
    return { ...this.kit.operator.defaults(this.record.id, Object.keys(this.settingsSchema.properties)), ...settings };
  }

  callsLeftToday(settings: CarrierSettings): number | null {
    return this.tracker.callsLeftToday(trackingSettings(this.effectiveSettings(settings)));
  }

  /** Booked DHL Paket numbers, through Shipment Tracking – Unified (`service=parcel-de`) with this configuration's key. */
  async track(requests: readonly TrackRequest[], settings: CarrierSettings, options: TrackOptions): Promise<TrackResult[]> {
    const context = this.context(settings);
    if ('status' in context) return requests.map((r) => ({ ...context, tracking_number: r.tracking_number }));
    return this.tracker.track(requests, trackingSettings(context.settings), options);
  }

  checkBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
    const effective = this.effectiveSettings(settings);
    const incomplete = checkSettings(this.settingsSchema, effective).map((p) => ({
      path: ['carrier_reference'],
      message: `The DHL Parcel DE configuration is incomplete: ${p.path.join('.')}: ${p.message}`,
    }));
    return [...incomplete, ...this.plan(request, effective).problems];
  }

  async book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult> {
    const context = this.context(settings, options.signal);
    if ('status' in context) return context;
    const plan = this.plan(request, context.settings);
    if (plan.problems.length > 0) {
      return { status: 'error', retryable: false, message: 'DHL Parcel DE cannot book this shipment', field_errors: plan.problems };
    }
    return 'receiverId' in plan.order ? this.bookReturn(context, plan as ReturnPlan) : this.bookOrder(context, plan as OrderPlan);
  }

  /**
   * DHL's validate mode (`POST /orders?validate=true`): the order checked by DHL's schema and backend, nothing
   * created. A read, so a lost answer may be asked again. The Returns API has no such mode.
   */
  async validateBooking(
    request: BookRequest,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; warnings?: string[] } | BookingError> {
    const context = this.context(settings, options.signal);
    if ('status' in context) return context;
    const plan = this.plan(request, context.settings);
    if (plan.problems.length > 0) {
      return { status: 'error', retryable: false, message: 'DHL Parcel DE cannot book this shipment', field_errors: plan.problems };
    }
    if ('receiverId' in plan.order) {
      return {
        status: 'ok',
        warnings: ['DHL Retoure labels cannot be checked by DHL without booking one; only the checks before booking ran.'],
      };
    }
    const order = plan as OrderPlan;
    const query = new URLSearchParams(order.query);
    query.set('validate', 'true');
    const sent = await this.sendShipping(context, 'POST', `${ORDERS_PATH}?${query}`, JSON.stringify(order.order), true);
    if ('error' in sent) return sent.error;
    const answer = readValidationAnswer(sent.response.status, sent.response.json(), {
      origins: order.origins,
      parcelPath: order.parcelPath,
      parcels: order.order.shipments.length,
      format: order.format,
      product: order.product,
    });
    if (!answer)
      return { status: 'error', retryable: true, message: `DHL's validation answer (HTTP ${sent.response.status}) could not be read` };
    if (answer.status === 'ok') return answer;
    return { status: 'error', retryable: false, message: answer.message, field_errors: answer.field_errors };
  }

  /** Voids the DHL shipments of a booking (before DHL's end-of-day closing). A DHL Retoure label has nothing to void. */
  async cancel(
    identifier: string,
    settings: CarrierSettings,
    options: { signal?: AbortSignal } = {},
  ): Promise<{ status: 'ok' } | BookingError> {
    // The Returns API offers no void: an unused Retoure label costs nothing and simply expires (docs/carriers/dhlpde.md).
    if (identifier.startsWith(RETURN_IDENTIFIER_PREFIX)) return { status: 'ok' };
    const numbers = identifier.split(',').map((n) => n.trim());
    if (numbers.length === 0 || numbers.length > 30 || !numbers.every((n) => /^[0-9A-Za-z]{8,50}$/.test(n))) {
      return { status: 'error', retryable: false, message: `Not a DHL Parcel DE shipment identifier: ${identifier.slice(0, 80)}` };
    }
    const context = this.context(settings, options.signal);
    if ('status' in context) return context;
    return this.voidShipments(context, numbers);
  }

  supportsPudo(settings: CarrierSettings): boolean {
    const key = this.effectiveSettings(settings).api_key;
    return typeof key === 'string' && key.trim() !== '';
  }

  /** Packstations, post offices and parcel shops near a point or a postal code (Location Finder – Unified, Parcel network). */
  async searchPudo(
    query: CarrierPudoQuery,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
    const context = this.context(settings, options.signal);
    if ('status' in context) return context;
    const params = new URLSearchParams({ providerType: 'parcel' });
    let endpoint: string;
    if (query.lat !== undefined && query.lng !== undefined) {
      endpoint = 'find-by-geo';
      params.set('latitude', String(query.lat));
      params.set('longitude', String(query.lng));
    } else if (query.postal_code && query.country_code) {
      endpoint = 'find-by-address';
      params.set('countryCode', query.country_code.toUpperCase());
      params.set('postalCode', query.postal_code);
      if (query.city) params.set('addressLocality', query.city);
    } else {
      return { status: 'error', retryable: false, message: 'DHL searches pick-up points near a point, or a postal code in a country' };
    }
    params.set('radius', String(Math.min(25_000, Math.max(1, Math.round(query.radius_meters)))));
    params.set('limit', String(Math.min(50, Math.max(1, Math.round(query.limit)))));
    const sent = await sendCall(
      this.kit,
      { key: `${context.key}:locations`, limits: LOCATION_LIMITS },
      {
        carrier: this.record.id,
        method: 'GET',
        url: `${context.locationsBase}${LOCATIONS_PATH}/${endpoint}?${params}`,
        headers: { 'DHL-API-Key': String(context.settings.api_key), accept: 'application/json' },
        secrets: context.secrets,
        signal: context.signal,
        retry: true,
      },
    );
    if ('error' in sent) return sent.error;
    const { status } = sent.response;
    // DHL answers a search that finds nothing with 404 ("No result found").
    if (status === 404) return { status: 'ok', locations: [] };
    if (status >= 400) {
      const why = problemText(sent.response.json());
      return {
        status: 'error',
        retryable: false,
        message: redact(`DHL refused the location search (HTTP ${status})${why ? `: ${why}` : ''}`, context.secrets),
      };
    }
    const locations = mapLocations(sent.response.json(), this.record.id, options.now);
    if (!locations) return { status: 'error', retryable: true, message: `DHL's location search answer (HTTP ${status}) could not be read` };
    return { status: 'ok', locations };
  }

  private plan(request: BookRequest, settings: Record<string, unknown>): OrderPlan | ReturnPlan {
    return request.type_of_shipment === 'return' ? planReturn(request, settings) : planOrder(request, settings);
  }

  private async bookOrder(context: Context, plan: OrderPlan): Promise<BookResult> {
    const sent = await this.sendShipping(context, 'POST', `${ORDERS_PATH}?${plan.query}`, JSON.stringify(plan.order));
    if ('error' in sent) return this.failed(sent);
    let outcome: ReturnType<typeof readOrderAnswer>;
    try {
      outcome = readOrderAnswer(sent.response.status, sent.response.json(), {
        origins: plan.origins,
        parcelPath: plan.parcelPath,
        parcels: plan.order.shipments.length,
        format: plan.format,
        product: plan.product,
      });
    } catch (error) {
      return this.unknown(`DHL's booking answer could not be read (${(error as Error).message.slice(0, 120)})`);
    }
    if (outcome.kind === 'booked') return outcome.result;
    // A partly booked order is undone whole: what DHL created is voided before the failure is reported.
    const voided = outcome.created.length > 0 ? await this.voidShipments(context, outcome.created) : ({ status: 'ok' } as const);
    const undone =
      outcome.created.length === 0
        ? ''
        : voided.status === 'ok'
          ? ` (the ${outcome.created.length} parcel(s) DHL booked were voided)`
          : ` (voiding ${outcome.created.join(', ')} failed: ${voided.message}; void them in the business customer portal)`;
    if (outcome.kind === 'refused') {
      return { status: 'error', retryable: false, message: `${outcome.message}${undone}`, field_errors: outcome.field_errors };
    }
    // Every parcel accounted for and voided: nothing remains booked, and the booking may simply be tried again.
    if (outcome.listed && voided.status === 'ok') return { status: 'error', retryable: true, message: `${outcome.message}${undone}` };
    return this.unknown(`${outcome.message}${undone}`);
  }

  private async bookReturn(context: Context, plan: ReturnPlan): Promise<BookResult> {
    const sent = await this.sendShipping(context, 'POST', `${RETURNS_PATH}?labelType=SHIPMENT_LABEL`, JSON.stringify(plan.order));
    if ('error' in sent) return this.failed(sent);
    try {
      const outcome = readReturnAnswer(sent.response.status, sent.response.json(), plan);
      if (outcome.kind === 'booked') return outcome.result;
      if (outcome.kind === 'refused')
        return { status: 'error', retryable: false, message: outcome.message, field_errors: outcome.field_errors };
      return this.unknown(outcome.message);
    } catch (error) {
      return this.unknown(`DHL's return label answer could not be read (${(error as Error).message.slice(0, 120)})`);
    }
  }

  private async voidShipments(context: Context, numbers: string[]): Promise<{ status: 'ok' } | BookingError> {
    const profile = typeof context.settings.profile === 'string' ? context.settings.profile : DEFAULT_PROFILE;
    const query = new URLSearchParams({ profile });
    for (const number of numbers) query.append('shipment', number);
    const sent = await this.sendShipping(context, 'DELETE', `${ORDERS_PATH}?${query}`);
    if ('error' in sent) return { ...sent.error, retryable: sent.error.retryable || sent.reach === 'unknown' };
    const answer = readCancelAnswer(sent.response.status, sent.response.json());
    return answer.status === 'ok' ? answer : { status: 'error', retryable: false, message: redact(answer.message, context.secrets) };
  }

  private sendShipping(context: Context, method: 'POST' | 'DELETE', path: string, body?: string, read = false): Promise<Sent> {
    return sendCall(
      this.kit,
      { key: `${context.key}:shipping`, limits: SHIPPING_LIMITS },
      {
        carrier: this.record.id,
        method,
        url: `${context.base}${path}`,
        headers: body === undefined ? { accept: 'application/json', 'accept-language': 'en-US' } : JSON_HEADERS,
        ...(body === undefined ? {} : { body }),
        secrets: context.secrets,
        signal: context.signal,
        timeoutMs: this.timeoutMs(),
        maxBytes: ORDER_MAX_BYTES,
        auth: this.bearer(context),
        // Only a read (validation) may be sent again after a 5xx or a timeout; a booking or a void never.
        retry: read,
      },
    );
  }

  /**
   * The operator's wait for DHL's booking answers (an order of 30 parcels takes DHL a while): past it, a booking
   * is `outcome_unknown`, so the wait is a deployment's choice, not a merchant's setting.
   */
  private timeoutMs(): number {
    return this.kit.operator.bookingTimeoutMs(this.record.id, DEFAULT_TIMEOUT_SECONDS);
  }

  /** A booking call that failed: as the transport said when nothing was booked, `outcome_unknown` when DHL may have. */
  private failed(sent: Extract<Sent, { error: unknown }>): BookResult {
    if (sent.reach !== 'unknown') return sent.error;
    return this.unknown(sent.error.message);
  }

  private unknown(message: string): BookingError {
    return {
      status: 'error',
      retryable: true,
      outcome_unknown: true,
      message: `${message}; DHL may have booked it, so it is not sent again`,
    };
  }

  /** Bearer tokens of the password grant, one per credential, from the shared token cache. */
  private bearer(context: Context): CallAuth {
    const { settings } = context;
    let current: string | null = null;
    const issue = () =>
      passwordGrantToken(this.kit.http, {
        carrier: this.record.id,
        tokenUrl: `${context.base}${TOKEN_PATH}`,
        clientId: String(settings.api_key),
        clientSecret: String(settings.api_secret),
        username: String(settings.username),
        password: String(settings.password),
        signal: context.signal,
      });
    return {
      headers: async () => {
        const token = await this.kit.tokens.get(context.key, issue);
        if (typeof token !== 'string') return token;
        current = token;
        if (!context.secrets.includes(token)) context.secrets.push(token);
        return { authorization: `Bearer ${token}` };
      },
      invalidate: () => {
        if (current) this.kit.tokens.invalidate(context.key, current);
      },
    };
  }

  /** The settings in force and where to call, or the error an incomplete configuration gets. */
  private context(settings: CarrierSettings, signal?: AbortSignal): Context | CarrierError {
    const effective = this.effectiveSettings(settings);
    const problems = checkSettings(this.settingsSchema, effective);
    if (problems.length > 0) {
      const message = `The ${this.record.name} configuration is incomplete: ${problems.map((p) => `${p.path.join('.')}: ${p.message}`).join(' ')}`;
      return { status: 'error', retryable: false, message };
    }
    if (signal) setMaxListeners(0, signal);
    const environment = environmentOf(effective);
    const override = this.kit.operator.baseUrl(this.record.id);
    const secrets = Object.entries(effective)
      .filter(([name, value]) => typeof value === 'string' && isSecret((this.settingsSchema.properties as Record<string, TSchema>)[name]))
      .map(([, value]) => value as string);
    const parts = [environment, effective.api_key, effective.api_secret, effective.username, effective.password];
    return {
      settings: effective,
      environment,
      base: override ?? this.baseUrls[environment],
      locationsBase: override ?? this.locationsBaseUrl,
      secrets,
      key: TokenCache.key(this.record.id, parts),
      signal,
    };
  }
}

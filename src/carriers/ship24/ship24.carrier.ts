import { createHash, hash, timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { TrackingRegistrar } from '../aggregator.js';
import type { CarrierCapabilities, CarrierError, CarrierRecord, CarrierSettings, TrackResult } from '../carrier.js';
import { bearerPushToken, type PushCapable, type PushedRequest, type PushUpdate } from '../push.js';
import type { CarrierResponse } from '../sdk/http.js';
import { type CallContext, HttpCarrier, type PollCapacity } from '../sdk/http-carrier.js';
import { type CarrierLimits, nextReset } from '../sdk/limits.js';
import { CredentialText, PollIntervalSetting, secret } from '../sdk/settings.js';
import { SHIP24_CODES } from './ship24.codes.js';
import { type CourierBook, courierBook, readCouriers, TABLE_ONLY } from './ship24.couriers.js';
import { mapResultsBody, parseShip24Push, type Ship24MapOptions } from './ship24.mapper.js';
import {
  BULK_MAX,
  bulkBody,
  clientTrackerId,
  errorCodes,
  errorMessage,
  isQuotaAnswer,
  isUnknownTracker,
  type Registration,
  readBulk,
} from './ship24.trackers.js';

/** The Tracking API's paths below the base URL. */
export const SHIP24_TRACKERS_PATH = '/public/v1/trackers';
export const SHIP24_BULK_PATH = '/public/v1/trackers/bulk';
export const SHIP24_COURIERS_PATH = '/public/v1/couriers';

/** The results of Waybill's tracker of a number, asked by its `clientTrackerId`. */
export function resultsPath(trackingNumber: string): string {
  return `${SHIP24_TRACKERS_PATH}/${clientTrackerId(trackingNumber)}/results`;
}

/** Ship24's courier list changes rarely: read once a day per process, and not again for 15 minutes after a failure. */
const COURIERS_FRESH_MS = 24 * 3_600_000;
const COURIERS_RETRY_MS = 15 * 60_000;

/** What one results call said of a number. */
type Read = { number: string; response: CarrierResponse } | { number: string; unknown: true } | { number: string; error: CarrierError };

/**
 * Ship24 Tracking API (per-shipment plans): `Authorization: Bearer <API key>`; one tracker per number, created
 * once (`POST /trackers/bulk`) and read by its `clientTrackerId` (`GET /trackers/{id}/results`); webhooks posted
 * with the account's webhook secret as a bearer token; trackers unsubscribed (`PATCH /trackers/{id}`) when Waybill
 * stops following a number, and created again when it follows the number again. docs/carriers/ship24.md describes
 * the API and the choices.
 */
export class Ship24Carrier extends HttpCarrier implements TrackingRegistrar, PushCapable {
  static readonly id = 'ship24';

  readonly registersNumbers = true;

  readonly record: CarrierRecord = {
    id: Ship24Carrier.id,
    name: 'Ship24',
    // Follows couriers worldwide; each shipment shows the courier that carries it.
    country_iso: [],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: 'https://www.ship24.com',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: true };

  readonly settingsSchema = Type.Object({
    api_key: secret(CredentialText('Ship24 API key (Dashboard → Integrations → API Keys), sent as "Authorization: Bearer <key>"')),
    webhook_secret: Type.Optional(
      secret(
        CredentialText(
          'The Webhook Secret Ship24 allocated to the account (Dashboard → Integrations → Webhooks): webhooks must carry it ' +
            'as "Authorization: Bearer <secret>" besides the push token in their URL',
        ),
      ),
    ),
    poll_interval_seconds: PollIntervalSetting,
  });

  readonly limits: CarrierLimits = {
    // Not a Ship24 limit: results are read one number per call, and the numbers of a batch Ship24 does not know
    // yet are registered in one bulk call (at most 100), which keeps bulk calls well under their 3 a second.
    numbers_per_call: 20,
    // Not documented: Ship24 states per-second rates only.
    concurrent_calls: 2,
    // 10 requests a second per endpoint (results, trackers); bulk creation 3, couriers 1 (rate limiter page).
    requests_per_second: 10,
    // Plans count trackers per billing period, not calls: no daily quota.
    daily_quota: null,
    // The billing period's reset is not documented: a spent quota pauses the credential until 00:00 UTC.
    quota_reset_utc: '00:00',
    // Not documented (Ship24 "does not mandate a cadence"); its webhooks bring the news, polls are the safety net.
    min_poll_interval_seconds: 3_600,
  };

  /** Production only: Ship24 has no test environment (its sample numbers work with any key). */
  protected readonly baseUrls = { production: 'https://api.ship24.com' };

  /** Ship24's courier list as last read (names of the carriers of record, countries of postal operators). */
  private couriers: { book: CourierBook; digest: string; readAt: number } = { book: TABLE_ONLY, digest: 'table', readAt: -Infinity };
  private couriersTried = Number.NEGATIVE_INFINITY;
  private couriersReading: Promise<void> | null = null;

  /** The API key alone identifies the credential (its limits are Ship24's per key); the webhook secret does not. */
  protected override credentialParts(settings: Readonly<Record<string, unknown>>): unknown[] {
    return [['api_key', settings.api_key ?? null]];
  }

  /** One results call per number counts against the rate, not one per batch. */
  override pollCapacity(settings: CarrierSettings, horizonMs: number): PollCapacity {
    const capacity = super.pollCapacity(settings, horizonMs);
    return { ...capacity, numbers: Math.floor(capacity.numbers / Math.max(1, this.limits.numbers_per_call)) };
  }

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    const reads = await Promise.all(numbers.map((number) => this.read(number, context)));
    const unknown = reads.filter((read) => 'unknown' in read).map((read) => read.number);
    const registered = unknown.length > 0 ? await this.register(unknown, context) : new Map<string, Registration | CarrierError>();
    if (reads.some((read) => 'response' in read)) await this.knowCouriers(context);
    const options: Ship24MapOptions = { eventKeyOf: (codes) => this.code(SHIP24_CODES, codes), couriers: this.couriers.book };
    return reads.map((read): TrackResult => {
      if ('error' in read) return { ...read.error, tracking_number: read.number };
      if ('unknown' in read) return this.registrationResult(read.number, registered.get(read.number));
      // The courier list is part of what the mapper reads: a new list maps the same answer anew.
      const data = Buffer.concat([read.response.body, Buffer.from(`\n${this.couriers.digest}`)]);
      const same = this.unchangedAnswer(context, read.number, data);
      if (same) return same;
      const result = mapResultsBody(read.number, read.response.json(), options);
      return result ?? { ...this.unreadable(context, read.response), tracking_number: read.number };
    });
  }

  /** `GET /trackers/{clientTrackerId}/results?searchBy=clientTrackerId`: the number's results, or that Ship24 has no tracker for it. */
  private async read(number: string, context: CallContext): Promise<Read> {
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}${resultsPath(number)}?searchBy=clientTrackerId`,
      headers: this.authorization(context),
      isQuotaExceeded: (answer) => answer.status >= 400 && isQuotaAnswer(answer.json()),
    });
    if ('retryable' in response) return { number, error: this.untilReset(response) };
    if (response.status === 200) return { number, response };
    if (response.status === 404 && isUnknownTracker(response.json())) return { number, unknown: true };
    return { number, error: this.refused(context, response, 'the tracking results') };
  }

  /**
   * Creates the trackers of numbers Ship24 does not know, in one bulk call per 100: the only places trackers are
   * created are a poll, for numbers without one, and `resumeTracking`, for numbers whose tracker was
   * unsubscribed; so a number is registered once however often it is polled. Each created tracker is counted.
   */
  private async register(numbers: string[], context: CallContext): Promise<Map<string, Registration | CarrierError>> {
    const outcomes = new Map<string, Registration | CarrierError>();
    for (let i = 0; i < numbers.length; i += BULK_MAX) {
      const part = numbers.slice(i, i + BULK_MAX);
      const response = await this.call(context, {
        method: 'POST',
        url: `${context.baseUrl}${SHIP24_BULK_PATH}`,
        headers: { ...this.authorization(context), 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(bulkBody(part)),
        isQuotaExceeded: (answer) => answer.status >= 400 && isQuotaAnswer(answer.json()),
      });
      const read = 'retryable' in response ? null : readBulk(response.json(), part);
      const failure: CarrierError =
        'retryable' in response ? this.untilReset(response) : this.refused(context, response, 'the tracker registration');
      let created = 0;
      for (const number of part) {
        const outcome = read?.get(number);
        outcomes.set(number, outcome ?? failure);
        if (outcome?.status === 'created') created++;
      }
      this.kit.metrics.registered(this.record.id, created);
    }
    return outcomes;
  }

  private registrationResult(number: string, outcome: Registration | CarrierError | undefined): TrackResult {
    if (!outcome) return { status: 'error', tracking_number: number, retryable: true, message: 'Ship24 gave no answer for this number' };
    if (outcome.status === 'error') return { ...outcome, tracking_number: number };
    // Registered now (or a moment ago): Ship24 has no result for it yet.
    if (outcome.status === 'created' || outcome.status === 'existing') return { status: 'not_found', tracking_number: number };
    return {
      status: 'error',
      tracking_number: number,
      retryable: outcome.retryable,
      message: `Ship24 would not track this number (${outcome.code}${outcome.message ? `: ${outcome.message}` : ''})`,
    };
  }

  /** Reads `GET /couriers` when the copy in hand is a day old (never failing the poll: names wait for the next one). */
  private async knowCouriers(context: CallContext): Promise<void> {
    const now = this.kit.now();
    if (now - this.couriers.readAt < COURIERS_FRESH_MS || now - this.couriersTried < COURIERS_RETRY_MS) return;
    this.couriersReading ??= this.readCourierList(context).finally(() => {
      this.couriersReading = null;
    });
    await this.couriersReading;
  }

  private async readCourierList(context: CallContext): Promise<void> {
    this.couriersTried = this.kit.now();
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}${SHIP24_COURIERS_PATH}`,
      headers: this.authorization(context),
      timeoutMs: 10_000,
      retry: false,
    });
    if ('retryable' in response || response.status !== 200) return;
    const list = readCouriers(response.json());
    if (!list || list.size === 0) return;
    const digest = hash('sha256', JSON.stringify([...list.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), 'base64url');
    this.couriers = { book: courierBook(list), digest, readAt: this.kit.now() };
  }

  /**
   * Webhooks: Ship24 posts `{ trackings: [...] }` to the URL the merchant sets in its dashboard, with the Webhook
   * Secret Ship24 allocated to the account as `Authorization: Bearer <secret>`. Ship24 chooses that secret, so
   * the configuration is found by the push token given in the URL (`?push_token=`); a push without it is read with
   * the token as its bearer, the default. Mapped like a poll.
   */
  pushToken(headers: PushedRequest['headers'], request?: PushedRequest): string | null {
    return queryToken(request) ?? bearerPushToken(headers);
  }

  /**
   * When the configuration has Ship24's Webhook Secret, a push must carry the push token in the URL and the secret
   * as its bearer: both, so that a leaked push token alone (sent as the bearer) is not enough.
   */
  verifyPush(request: PushedRequest, settings: CarrierSettings): boolean {
    const expected = settings.webhook_secret;
    if (typeof expected !== 'string' || expected === '') return true;
    if (queryToken(request) === null) return false;
    const given = bearerPushToken(request.headers);
    return given !== null && safeEqual(given, expected);
  }

  parsePush(body: unknown): { ok: true; updates: PushUpdate[] } | { ok: false; message: string } {
    return parseShip24Push(body, { eventKeyOf: (codes) => this.code(SHIP24_CODES, codes), couriers: this.couriers.book });
  }

  /**
   * Unsubscribes the numbers' trackers (`PATCH /trackers/{clientTrackerId}?searchBy=clientTrackerId` with
   * `{"isSubscribed": false}`): Ship24 stops looking for news and sending webhooks for them. A tracker Ship24 does
   * not know, or will no longer change, counts as stopped. Never throws.
   */
  async stopTracking(
    numbers: readonly string[],
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok' } | CarrierError> {
    const ids = [...new Set(numbers.map((n) => clientTrackerId(n)))];
    return this.inParts(ids, 1, settings, options, 'stop', ([id], context) => this.unsubscribe(id, context));
  }

  /**
   * Subscribes numbers whose trackers were unsubscribed again, by creating their trackers anew through the bulk
   * creation a poll registers with (the same `clientTrackerId`: Ship24 checks its uniqueness among subscribed
   * trackers only, so unsubscribing freed it). A created tracker is billed and counted like a registration; one
   * answered `existing` (subscribed already) counts as done. Never throws.
   */
  async resumeTracking(
    numbers: readonly string[],
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok' } | CarrierError> {
    const byId = new Map<string, string>();
    for (const number of numbers) if (!byId.has(clientTrackerId(number))) byId.set(clientTrackerId(number), number);
    return this.inParts([...byId.values()], BULK_MAX, settings, options, 're-subscription', (part, context) =>
      this.subscribeAgain(part, context),
    );
  }

  private async subscribeAgain(numbers: string[], context: CallContext): Promise<'subscribed' | CarrierError> {
    const created = await this.register(numbers, context);
    for (const number of numbers) {
      const outcome = this.registrationResult(number, created.get(number));
      if (outcome.status === 'error') {
        const { tracking_number: _, ...error } = outcome;
        return error;
      }
    }
    return 'subscribed';
  }

  private async unsubscribe(id: string, context: CallContext): Promise<'stopped' | CarrierError> {
    const response = await this.call(context, {
      method: 'PATCH',
      url: `${context.baseUrl}${SHIP24_TRACKERS_PATH}/${id}?searchBy=clientTrackerId`,
      headers: { ...this.authorization(context), 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ isSubscribed: false }),
    });
    if ('retryable' in response) return response;
    if (response.status >= 200 && response.status < 300) return 'stopped';
    const codes = errorCodes(response.json());
    // Unknown to Ship24, or processed already (Ship24 disables delivered trackers itself): nothing is left to stop.
    if (response.status === 404 || codes.includes('tracker_not_found') || codes.includes('tracker_not_updatable')) return 'stopped';
    return this.refused(context, response, 'the unsubscription');
  }

  private authorization(context: CallContext): Record<string, string> {
    return { authorization: `Bearer ${String(context.settings.api_key)}` };
  }

  /** A spent tracker quota pauses the credential until the (assumed) reset, unless Ship24 said when. */
  private untilReset(error: CarrierError): CarrierError {
    if (error.throttled !== 'quota' || error.retry_after_seconds !== undefined) return error;
    const now = this.kit.now();
    const seconds = Math.max(1, Math.ceil((nextReset(now, this.limits.quota_reset_utc) - now) / 1000));
    return { ...error, retry_after_seconds: seconds };
  }

  /** A request refused (400, 404 without Ship24's code, …): Ship24's own words when it gave some. */
  private refused(context: CallContext, response: CarrierResponse, what: string): CarrierError {
    const said = errorMessage(response.json());
    if (!said) return this.unreadable(context, response);
    const codes = errorCodes(response.json());
    let message = `Ship24 refused ${what} (HTTP ${response.status}${codes.length > 0 ? `, ${codes[0]}` : ''}): ${said}`;
    for (const value of context.secrets) if (value.length >= 4) message = message.split(value).join('[redacted]');
    // 409 request_conflict: the same request in parallel; it may be sent again.
    return { status: 'error', retryable: response.status === 409 || response.status >= 500, message };
  }
}

/** The push token in the URL Ship24 was given (`?push_token=`). */
function queryToken(request: PushedRequest | undefined): string | null {
  const value = request?.query?.push_token;
  const token = Array.isArray(value) ? value[0] : value;
  return typeof token === 'string' && token !== '' ? token : null;
}

/** Compares two texts in a time that does not depend on where they differ. */
function safeEqual(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

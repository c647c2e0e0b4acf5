import { Type } from '@sinclair/typebox';
import type { CarrierCapabilities, CarrierError, CarrierRecord, TrackResult } from '../carrier.js';
import type { CarrierResponse } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { clientCredentialsToken } from '../sdk/oauth.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { USPS_CATEGORIES, USPS_CODES } from './uspsus.codes.js';
import { mapErrorAnswer, mapTrackingAnswer, normalizeNumber } from './uspsus.mapper.js';

const TABLE = { ...USPS_CODES, ...USPS_CATEGORIES };
const HOUR_MS = 3_600_000;

/** What USPS accepts as a tracking number (`TrackingRequestBody.trackingNumber`: 4 to 34 letters and digits). */
const ACCEPTED = /^[A-Z0-9]{4,34}$/;

/**
 * USPS Tracking through USPS's APIs (OAuth 2.0 client credentials; Tracking 3.2, up to 35 numbers per call).
 * docs/carriers/uspsus.md has the endpoints, the limits and their sources.
 */
export class UspsCarrier extends HttpCarrier {
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

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: false };

  readonly settingsSchema = Type.Object({
    client_id: CredentialText('Consumer Key of the app in the USPS Developer Portal (developers.usps.com)'),
    client_secret: secret(CredentialText('Consumer Secret of the same app')),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
  });

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
      auth: this.bearer(context, () =>
        clientCredentialsToken(this.kit.http, {
          carrier: this.record.id,
          tokenUrl: `${context.baseUrl}/oauth2/v3/token`,
          clientId: String(context.settings.client_id),
          clientSecret: String(context.settings.client_secret),
          style: 'body',
          encoding: 'json',
          signal: context.signal,
        }),
      ),
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

import { Type } from '@sinclair/typebox';
import type { CarrierCapabilities, CarrierError, CarrierRecord, TrackResult } from '../carrier.js';
import type { CarrierResponse } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { AUSPOST_IDS_MIXED, AUSPOST_IDS_NOT_FOUND, AUSPOST_STATUSES } from './auspos.codes.js';
import { mapTrackBody, requestErrors } from './auspos.mapper.js';

/** Where "Track items" sits below the base URL (the testbed's base carries its `/test` prefix). */
export const AUSPOST_TRACK_PATH = '/shipping/v1/track';

/**
 * Australia Post's Shipping and Tracking API, "Track items": HTTP Basic with the API key and password of a
 * contract customer, the charge account in an `account-number` header, up to ten tracking ids per call and ten
 * calls a minute. docs/carriers/auspos.md describes the API and the choices.
 */
export class AusPostCarrier extends HttpCarrier {
  static readonly id = 'auspos';

  readonly record: CarrierRecord = {
    id: AusPostCarrier.id,
    name: 'Australia Post',
    country_iso: ['AU'],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: 'https://auspost.com.au/mypost/track',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: false };

  readonly settingsSchema = Type.Object({
    api_key: secret(CredentialText('API key of the Shipping and Tracking APIs (the Basic auth user name), from the Developer Centre')),
    password: secret(CredentialText('Password issued with the API key')),
    account_number: Type.String({
      pattern: '^(\\d{10}|\\d{8})$',
      description:
        'Account-Number header: the 10-digit Australia Post charge account (with its leading zeros), or an 8-digit StarTrack account',
    }),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
  });

  /**
   * "Track items" takes ten ids per call and is rate limited to ten requests a minute. Calls in flight, a daily
   * quota and a poll interval are not documented: two calls at a time, no quota, and every 30 minutes (ten calls
   * of ten ids a minute poll some 3,000 parcels at that pace).
   */
  readonly limits: CarrierLimits = {
    numbers_per_call: 10,
    concurrent_calls: 2,
    requests_per_second: 10 / 60,
    daily_quota: null,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 1800,
  };

  /** The testbed is the same host under `/test`. */
  protected readonly baseUrls = { production: 'https://digitalapi.auspost.com.au', sandbox: 'https://digitalapi.auspost.com.au/test' };

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    const { api_key: key, password } = context.settings;
    const basic = Buffer.from(`${String(key)}:${String(password)}`).toString('base64');
    if (!context.secrets.includes(basic)) context.secrets.push(basic);
    const ids = numbers.map((n) => encodeURIComponent(n.replace(/\s+/g, '').toUpperCase())).join(',');
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}${AUSPOST_TRACK_PATH}?tracking_ids=${ids}`,
      headers: { authorization: `Basic ${basic}`, 'account-number': String(context.settings.account_number), accept: 'application/json' },
    });
    if ('retryable' in response) return response;
    if (response.status === 200) {
      const results = mapTrackBody(response.json(), numbers, (codes) => this.code(AUSPOST_STATUSES, codes), this.sameAnswer(context));
      return results ?? this.unreadable(context, response);
    }
    return this.refused(numbers, context, response);
  }

  /**
   * A refused request. Two refusals are about the numbers, not the request: some are unknown (51104), or
   * Australia Post and StarTrack ids were mixed (51103). A batch then asks again one number at a time, so that
   * each number gets its own answer; one number alone that is unknown is not found.
   */
  private async refused(numbers: string[], context: CallContext, response: CarrierResponse): Promise<TrackResult[] | CarrierError> {
    const errors = requestErrors(response.json());
    const codes = errors.map((error) => error.code);
    const aboutNumbers = codes.includes(AUSPOST_IDS_NOT_FOUND) || codes.includes(AUSPOST_IDS_MIXED);
    if (aboutNumbers && numbers.length > 1) {
      const results: TrackResult[] = [];
      for (const number of numbers) {
        const answer = await this.trackBatch([number], context);
        results.push(...(Array.isArray(answer) ? answer : [{ ...answer, tracking_number: number }]));
      }
      return results;
    }
    if (codes.includes(AUSPOST_IDS_NOT_FOUND)) return numbers.map((n) => ({ status: 'not_found', tracking_number: n }));
    if (errors.length === 0) return this.unreadable(context, response);
    let message = `Australia Post refused the tracking request (HTTP ${response.status}): ${errors.map((e) => e.text).join('; ')}`;
    for (const value of context.secrets) if (value.length >= 4) message = message.split(value).join('[redacted]');
    return { status: 'error', retryable: response.status >= 500, message };
  }
}

import { Type } from '@sinclair/typebox';
import type { CarrierCapabilities, CarrierError, CarrierRecord, TrackResult } from '../carrier.js';
import type { CarrierResponse } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import { type CarrierLimits, nextReset } from '../sdk/limits.js';
import { clientCredentialsToken } from '../sdk/oauth.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { GLS_CODES } from './glsglb.codes.js';
import { gatewayMessage, isQuotaFault, mapGlsResponse, problemText } from './glsglb.mapper.js';

/** Where the Track And Trace V1 paths and the token path sit below the base URL. */
export const GLS_TOKEN_PATH = '/oauth2/v2/token';
export const GLS_TRACK_PATH = '/track-and-trace-v1/tracking/simple/trackids/';

/**
 * GLS Track And Trace V1 (GLS Group developer portal): OAuth2 client credentials, up to ten parcel numbers
 * or Track IDs per call, a daily quota per app. docs/carriers/glsglb.md describes the API and the choices.
 */
export class GlsCarrier extends HttpCarrier {
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

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: false };

  readonly settingsSchema = Type.Object({
    client_id: CredentialText('Client ID (API key) of the app on the GLS Group developer portal'),
    client_secret: secret(CredentialText('Client secret of the app on the GLS Group developer portal')),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
  });

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

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    const ids = numbers.map((n) => encodeURIComponent(n.replace(/\s+/g, ''))).join(',');
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}${GLS_TRACK_PATH}${ids}?showEvents=true`,
      headers: { 'accept-language': 'EN' },
      auth: this.bearer(context, () =>
        clientCredentialsToken(this.kit.http, {
          carrier: this.record.id,
          tokenUrl: `${context.baseUrl}${GLS_TOKEN_PATH}`,
          clientId: String(context.settings.client_id),
          clientSecret: String(context.settings.client_secret),
          style: 'basic',
          signal: context.signal,
        }),
      ),
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

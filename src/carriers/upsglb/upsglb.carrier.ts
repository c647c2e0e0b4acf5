import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { CarrierCapabilities, CarrierError, CarrierRecord, TrackResult } from '../carrier.js';
import { redact } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { clientCredentialsToken } from '../sdk/oauth.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { UPS_CODES } from './upsglb.codes.js';
import { describeMessages, errorsOf, mapTrackResponse } from './upsglb.mapper.js';

/** Identifies Waybill to UPS in every call's `transactionSrc` header. */
const TRANSACTION_SOURCE = 'waybill';

/**
 * UPS: OAuth client credentials (`POST /security/v1/oauth/token`, HTTP Basic), then the Track API
 * (`GET /api/track/v1/details/{inquiryNumber}`), one number per call. docs/carriers/upsglb.md has the
 * sources, limits and what a merchant sees.
 */
export class UpsCarrier extends HttpCarrier {
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

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: false };

  readonly settingsSchema = Type.Object({
    client_id: CredentialText('Client ID of the UPS developer app (developer.ups.com), with the Tracking API added'),
    client_secret: secret(CredentialText('Client secret of the UPS developer app')),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
  });

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

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    return Promise.all(numbers.map((number) => this.trackOne(number, context)));
  }

  private async trackOne(number: string, context: CallContext): Promise<TrackResult> {
    const query = new URLSearchParams({ locale: 'en_US', returnSignature: 'true', returnMilestones: 'false', returnPOD: 'false' });
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}/api/track/v1/details/${encodeURIComponent(number)}?${query}`,
      // transId: unique per request, at most 32 characters.
      headers: { transId: randomUUID().replace(/-/g, ''), transactionSrc: TRANSACTION_SOURCE },
      auth: this.bearer(context, () =>
        clientCredentialsToken(this.kit.http, {
          carrier: this.record.id,
          tokenUrl: `${context.baseUrl}/security/v1/oauth/token`,
          clientId: String(context.settings.client_id),
          clientSecret: String(context.settings.client_secret),
          style: 'basic',
          signal: context.signal,
        }),
      ),
    });
    if ('retryable' in response) return { ...response, tracking_number: number };
    const body = response.json();
    if (response.status === 200) {
      const result = mapTrackResponse(body, number, (codes) => this.code(UPS_CODES, codes));
      // A 200 that is not a Track API answer (a gateway's page) is retryable (the SDK's rule for 2xx).
      return 'tracking_number' in result ? result : { ...this.unreadable(context, response), tracking_number: number };
    }
    const errors = errorsOf(body);
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

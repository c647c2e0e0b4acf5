import { Type } from '@sinclair/typebox';
import type { CarrierCapabilities, CarrierError, CarrierRecord, TrackResult } from '../../../src/carriers/carrier.js';
import { carrierEvent } from '../../../src/carriers/sdk/codes.js';
import { type CallContext, HttpCarrier } from '../../../src/carriers/sdk/http-carrier.js';
import type { CarrierLimits } from '../../../src/carriers/sdk/limits.js';
import { clientCredentialsToken } from '../../../src/carriers/sdk/oauth.js';
import { EnvironmentSetting, secret } from '../../../src/carriers/sdk/settings.js';
import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';

/**
 * A minimal OAuth carrier for testing the SDK itself: `POST /oauth/token`, `GET /track/{n,n…}` answering
 * `{ results: [{ number, found, events: [{ code, at }] }] }`.
 */
export class TestCarrier extends HttpCarrier {
  readonly record: CarrierRecord = {
    id: 'tstcar',
    name: 'Test Carrier',
    country_iso: ['DE'],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: null,
  };
  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: false };
  readonly settingsSchema = Type.Object({
    client_id: Type.String({ minLength: 1 }),
    client_secret: secret(Type.String({ minLength: 1 })),
    environment: EnvironmentSetting,
  });
  protected readonly baseUrls = { production: 'https://tracking.invalid', sandbox: 'https://sandbox.tracking.invalid' };

  constructor(
    kit: CarrierToolkit,
    readonly limits: CarrierLimits,
  ) {
    super(kit);
  }

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    const auth = this.bearer(context, () =>
      clientCredentialsToken(this.kit.http, {
        carrier: this.record.id,
        tokenUrl: `${context.baseUrl}/oauth/token`,
        clientId: String(context.settings.client_id),
        clientSecret: String(context.settings.client_secret),
        style: 'basic',
        signal: context.signal,
      }),
    );
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}/track/${numbers.map(encodeURIComponent).join(',')}`,
      auth,
      isQuotaExceeded: (r) => r.status === 429 && r.text().includes('daily quota'),
    });
    if ('retryable' in response) return response;
    const body = response.json() as { results?: Array<{ number: string; found: boolean; events: Array<{ code: string; at: string }> }> };
    if (response.status !== 200 || !Array.isArray(body?.results)) return this.unreadable(context, response);
    return body.results.map(
      (r): TrackResult =>
        r.found
          ? {
              status: 'ok',
              tracking_number: r.number,
              events: r.events.map((e) =>
                carrierEvent({
                  key: this.code({ DLV: 'delivered', TRN: 'in_transit' }, [e.code]),
                  code: e.code,
                  description: e.code,
                  time: e.at,
                  timezone: null,
                  location: null,
                }),
              ),
            }
          : { status: 'not_found', tracking_number: r.number },
    );
  }
}

export const TEST_LIMITS: CarrierLimits = {
  numbers_per_call: 3,
  concurrent_calls: 2,
  requests_per_second: 50,
  daily_quota: null,
  quota_reset_utc: '00:00',
  min_poll_interval_seconds: 60,
};

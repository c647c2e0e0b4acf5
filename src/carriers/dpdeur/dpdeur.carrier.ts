import { Type } from '@sinclair/typebox';
import { parseEventTime } from '../../core/event-time.js';
import type { CarrierCapabilities, CarrierError, CarrierRecord, TrackResult } from '../carrier.js';
import { dpdParcelNumber } from '../detect/dpdeur.js';
import { type CarrierResponse, redact } from '../sdk/http.js';
import type { CallContext } from '../sdk/http-carrier.js';
import { HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import type { IssuedToken } from '../sdk/token-cache.js';
import { DPDEUR_CODES } from './dpdeur.codes.js';
import { DPD_INSTANCES, type DpdInstance, instanceOf } from './dpdeur.instances.js';
import { mapTrackingAnswer } from './dpdeur.mapper.js';
import { objectOf, parseDpdXml, soapBodyOf, textOf } from './dpdeur.payload.js';
import {
  faultOf,
  faultOfText,
  faultText,
  isRefusal,
  loginAction,
  loginEnvelope,
  TRACKING_ACTION,
  trackingEnvelope,
} from './dpdeur.soap.js';

function isError(outcome: CarrierResponse | CarrierError): outcome is CarrierError {
  return outcome.status === 'error';
}

/** DPD asks for one token a day: it lives 24 hours unless `authTokenExpires` says less. */
const TOKEN_LIFETIME_SECONDS = 86_400;

/**
 * DPD's ParcelLifeCycleService 2.0 (SOAP) on the DPD Web Services of DPD Germany, DPD Netherlands or DPD
 * Belgium/Luxembourg (docs/carriers/dpdeur.md): a LoginService token for the delisId and password, kept a day,
 * then one `getTrackingData` call per parcel number. No proof of delivery; DPD Predict's window where DPD
 * announces it.
 */
export class DpdCarrier extends HttpCarrier {
  static readonly id = 'dpdeur';

  readonly record: CarrierRecord = {
    id: DpdCarrier.id,
    name: 'DPD',
    country_iso: ['DE', 'NL', 'BE', 'LU'],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: 'https://www.dpd.com',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: false };

  readonly settingsSchema = Type.Object({
    delis_id: CredentialText('DPD delisId: the user of the DPD Web Services account'),
    password: secret(CredentialText('Password of the delisId')),
    instance: Type.Optional(
      Type.Union([Type.Literal('de'), Type.Literal('nl'), Type.Literal('be')], {
        description:
          'The DPD company whose web services hold the account: de (DPD Germany, default), nl (DPD Netherlands), be (DPD Belgium and Luxembourg)',
      }),
    ),
    message_language: Type.Optional(
      Type.String({
        pattern: '^[a-z]{2}_[A-Z]{2}$',
        description: "Language of DPD's texts, as DPD writes it (en_US by default; de_DE, nl_NL, fr_BE …)",
      }),
    ),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
  });

  /**
   * DPD's guidelines: the service answers one parcel per call, is meant for on-demand tracking and not for bulk
   * requests, and each account has a call limit DPD does not publish. Our choice: two calls at once and two a
   * second per account, and no parcel asked more than once an hour (its life cycle has five steps over days).
   */
  readonly limits: CarrierLimits = {
    numbers_per_call: 1,
    concurrent_calls: 2,
    requests_per_second: 2,
    daily_quota: null,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 3600,
  };

  /**
   * The login a poll's credential was refused (bad delisId or password), by the poll's call context: the
   * poll's other numbers get the same error without asking again, so one refused login costs one call. The
   * next poll tries again (the merchant may have corrected the password).
   */
  private readonly refusedLogins = new WeakMap<CallContext, CarrierError>();

  /** DPD Germany's hosts; the other companies' are in dpdeur.instances.ts. */
  protected readonly baseUrls = { production: DPD_INSTANCES.de.origins.production, sandbox: DPD_INSTANCES.de.origins.sandbox };

  /** The token is the account's at one company, in one environment. */
  protected credentialParts(settings: Readonly<Record<string, unknown>>): unknown[] {
    return [
      ['delis_id', settings.delis_id ?? null],
      ['environment', settings.environment ?? 'production'],
      ['instance', settings.instance ?? 'de'],
      ['password', settings.password ?? null],
    ];
  }

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[]> {
    const results = await Promise.all(numbers.map(async (number) => this.trackOne(number, context)));
    // DPD's fault texts are quoted in messages and may echo what was sent (the password, the session token).
    return results.map((result) => (result.status === 'error' ? { ...result, message: redact(result.message, context.secrets) } : result));
  }

  /** Scheme and host: the operator's base URL when set (`WAYBILL_CARRIER_DPDEUR_BASE_URL`), else the company's. */
  private urlOf(context: CallContext, instance: DpdInstance, path: string): string {
    const origin = this.kit.operator.baseUrl(this.record.id) ?? instance.origins[context.environment];
    return `${origin}${instance.prefixes[context.environment]}${path}`;
  }

  private language(context: CallContext): string {
    return typeof context.settings.message_language === 'string' ? context.settings.message_language : 'en_US';
  }

  private async trackOne(number: string, context: CallContext): Promise<TrackResult> {
    const parcelLabelNumber = dpdParcelNumber(number.replace(/\s+/g, '').toUpperCase());
    if (!parcelLabelNumber) {
      return {
        status: 'error',
        tracking_number: number,
        retryable: false,
        message: 'DPD tracks parcel numbers of 14 digits (optionally followed by their check character); this is not one',
      };
    }
    const instance = instanceOf(context.settings);
    for (let attempt = 0; ; attempt++) {
      const refused = this.refusedLogins.get(context);
      if (refused) return { ...refused, tracking_number: number };
      const token = await this.kit.tokens.get(context.credentialKey, () => this.login(context, instance));
      if (typeof token !== 'string') {
        // A login DPD could not answer may work for the next number; a refused one will not within this poll.
        if (!token.retryable) this.refusedLogins.set(context, token);
        return { ...token, tracking_number: number };
      }
      if (!context.secrets.includes(token)) context.secrets.push(token);
      const response = await this.call(context, {
        method: 'POST',
        url: this.urlOf(context, instance, instance.trackingPath),
        headers: { 'content-type': 'text/xml; charset=utf-8', accept: 'text/xml', soapaction: `"${TRACKING_ACTION}"` },
        body: trackingEnvelope({
          delisId: String(context.settings.delis_id ?? ''),
          authToken: token,
          language: this.language(context),
          parcelLabelNumber,
        }),
        isFault: (answer) => isRefusal(faultOfText(answer.text())),
      });
      if (isError(response)) return { ...response, tracking_number: number };
      if (response.status === 200) {
        // The body is this number's alone: the same bytes as the stored answer's are that answer again.
        const unchanged = this.unchangedAnswer(context, number, response.body);
        if (unchanged) return unchanged;
      }
      const root = parseDpdXml(response.text());
      const fault = faultOf(root);
      if (fault?.authentication) {
        // The token expired or was replaced: a new one, once.
        this.kit.tokens.invalidate(context.credentialKey, token);
        if (attempt === 0) continue;
        return {
          status: 'error',
          tracking_number: number,
          retryable: false,
          message: `DPD refused the session token: ${faultText(fault)}`,
        };
      }
      if (!fault && response.status !== 200) return { ...this.unreadable(context, response), tracking_number: number };
      if (!root) return { ...this.unreadable(context, response), retryable: true, tracking_number: number };
      return mapTrackingAnswer(number, root, { code: (codes) => this.code(DPDEUR_CODES, codes), timezone: instance.timezone });
    }
  }

  /**
   * LoginService `getAuth`: the session token for the delisId, with its expiry. Sent at once (not paced: DPD asks
   * for one login a day, the token cache keeps it that long); a refused login is a credential error.
   */
  private async login(context: CallContext, instance: DpdInstance): Promise<IssuedToken | CarrierError> {
    const response = await this.kit.http.call({
      carrier: this.record.id,
      method: 'POST',
      url: this.urlOf(context, instance, instance.loginPath),
      headers: { 'content-type': 'text/xml; charset=utf-8', accept: 'text/xml', soapaction: `"${loginAction(instance.loginVersion)}"` },
      body: loginEnvelope({
        version: instance.loginVersion,
        delisId: String(context.settings.delis_id ?? ''),
        password: String(context.settings.password ?? ''),
        language: this.language(context),
      }),
      signal: context.signal,
      secrets: context.secrets,
      isFault: (answer) => isRefusal(faultOfText(answer.text())),
    });
    if (isError(response)) return response;
    const root = parseDpdXml(response.text());
    const fault = faultOf(root);
    if (fault) {
      return { status: 'error', retryable: false, message: `DPD refused the login; check delis_id and password (${faultText(fault)})` };
    }
    const login = objectOf(objectOf(soapBodyOf(root)?.getAuthResponse)?.return);
    const token = textOf(login?.authToken);
    if (response.status !== 200 || !token) {
      return { ...this.unreadable(context, response, 'login answer'), retryable: response.status >= 500 };
    }
    return { access_token: token, expires_in_seconds: this.lifetime(login?.authTokenExpires, instance) };
  }

  /** Seconds until `authTokenExpires` (read in the company's zone when it has no offset), at most a day. */
  private lifetime(expires: unknown, instance: DpdInstance): number {
    const text = textOf(expires);
    const parsed = text ? parseEventTime(text.replace(' ', 'T'), { timezone: instance.timezone }) : null;
    if (!parsed?.ok || parsed.time.precision !== 'datetime') return TOKEN_LIFETIME_SECONDS;
    const seconds = Math.floor((Date.parse(parsed.time.utc) - this.kit.now()) / 1000);
    return Math.min(TOKEN_LIFETIME_SECONDS, Math.max(60, seconds));
  }
}

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
import type { CarrierCapabilities, CarrierError, CarrierRecord, CarrierSettings, ProofOfDelivery, TrackResult } from '../carrier.js';
import { type CallAuth, type CarrierResponse, redact } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { clientCredentialsToken } from '../sdk/oauth.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { TokenCache } from '../sdk/token-cache.js';
import { checkFedexBooking, FEDEX_BOOKING_SETTINGS, FEDEX_MAX_PARCELS, FEDEX_PRODUCTS } from './fdxglb.booking.js';
import { FEDEX_CODES } from './fdxglb.codes.js';
import { searchLocations } from './fdxglb.locations.js';
import { completeResultEntries, errorSummary, type FedexMapOptions, type FedexProofRequest, mapTrackingResponse } from './fdxglb.mapper.js';
import { signatureProofContent, signatureProofReference, signatureProofRequest } from './fdxglb.pod.js';
import { type FedexApi, FedexShipping } from './fdxglb.shipping.js';
import {
  DOCUMENTS_PATH,
  isQuotaAnswer,
  TOKEN_PATH,
  TRACK_PATH,
  trackHeaders,
  trackRequest,
  withDocumentedPause,
} from './fdxglb.transport.js';

type DocumentOutcome = { status: 'ok'; content: Buffer } | CarrierError;

function isError(value: CarrierResponse | CarrierError): value is CarrierError {
  return 'retryable' in value;
}

/**
 * FedEx through its Track API (REST, OAuth 2.0 client credentials): up to 30 numbers per call, every scan,
 * the estimated delivery window, and the signature proof of delivery of delivered pieces. Booking through the
 * Ship API (create, validate and cancel shipments: `fdxglb.shipping.ts`) and Hold at Location search through the
 * Locations API (`fdxglb.locations.ts`), with the Ship project's credentials when they are set apart (FedEx
 * keeps the Track API in a project of its own), else the tracking ones. docs/carriers/fdxglb.md describes the
 * APIs, their limits and what is mapped.
 */
export class FedexCarrier extends HttpCarrier implements BookingCapable, PudoSearchCapable {
  static readonly id = 'fdxglb';

  readonly record: CarrierRecord = {
    id: FedexCarrier.id,
    name: 'FedEx',
    country_iso: ['US', 'CA', 'MX', 'BR', 'GB', 'DE', 'FR', 'NL', 'BE', 'IT', 'ES', 'PL', 'AE', 'IN', 'CN', 'HK', 'JP', 'SG', 'AU'],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: 'https://www.fedex.com',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: true, pudo: true, push: false };

  readonly settingsSchema = Type.Object({
    client_id: CredentialText('API key (client ID) of a FedEx Developer Portal project with the Track API'),
    client_secret: secret(CredentialText('Secret key (client secret) of that project')),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
    ...FEDEX_BOOKING_SETTINGS,
  });

  readonly maxParcels = FEDEX_MAX_PARCELS;
  readonly cancellation = 'Cancelled at FedEx (Cancel Shipment, every piece by the master tracking number).';
  readonly products = FEDEX_PRODUCTS;

  /**
   * FedEx allows a project 1,400 calls per 10 seconds and 100,000 Track calls a day (reset at midnight GMT).
   * We stay far below the rate: a merchant's project often serves their other systems too, and every process
   * of ours keeps its own count.
   */
  readonly limits: CarrierLimits = {
    numbers_per_call: 30,
    concurrent_calls: 4,
    requests_per_second: 10,
    daily_quota: 100_000,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 300,
  };

  protected readonly baseUrls = { production: 'https://apis.fedex.com', sandbox: 'https://apis-sandbox.fedex.com' };

  /**
   * Booking and location calls: JSON with FedEx's headers, the Ship project's token, within that project's
   * limits (FedEx counts its rate per project).
   */
  private readonly api: FedexApi = {
    now: () => this.kit.now(),
    context: (settings, options) => {
      const context = this.prepare(settings, options);
      return 'status' in context ? context : this.shipContext(context);
    },
    send: (context, call) =>
      this.gated(context, () =>
        this.call(context, {
          method: call.method,
          url: `${context.baseUrl}${call.path}`,
          headers: trackHeaders(),
          body: JSON.stringify(call.body),
          auth: this.auth(context),
          retry: call.retry,
          isQuotaExceeded: isQuotaAnswer,
          ...(call.maxBytes ? { maxBytes: call.maxBytes } : {}),
          ...(call.timeoutMs ? { timeoutMs: call.timeoutMs } : {}),
        }),
      ),
  };

  private readonly shipping = new FedexShipping(this.api);

  checkBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
    return checkFedexBooking(request, this.effectiveSettings(settings));
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

  validateBooking(
    request: BookRequest,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; warnings?: string[] } | BookingError> {
    return this.shipping.validate(request, settings, options);
  }

  searchPudo(
    query: CarrierPudoQuery,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
    return searchLocations(this.api, this.record.id, query, settings, options);
  }

  /** The tracking credential is the Track project's keys and the environment, whatever else is set. */
  protected credentialParts(settings: Readonly<Record<string, unknown>>): unknown[] {
    return ['client_id', 'client_secret', 'environment'].map((name) => [name, settings[name] ?? null]);
  }

  /**
   * The context of Ship and Locations calls: with `ship_client_id` and `ship_client_secret` set, that project's
   * keys (a token and limits of their own); else the tracking project's.
   */
  private shipContext(context: CallContext): CallContext {
    const id = context.settings.ship_client_id;
    const key = context.settings.ship_client_secret;
    if (typeof id !== 'string' || typeof key !== 'string' || !id || !key) return context;
    const environment = context.settings.environment ?? null;
    return {
      ...context,
      settings: { ...context.settings, client_id: id, client_secret: key },
      secrets: [...context.secrets, id, key],
      credentialKey: TokenCache.key(this.record.id, [
        ['ship_client_id', id],
        ['ship_client_secret', key],
        ['environment', environment],
      ]),
    };
  }

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    const response = await this.call(context, {
      method: 'POST',
      url: `${context.baseUrl}${TRACK_PATH}`,
      headers: trackHeaders(),
      body: JSON.stringify(trackRequest(numbers)),
      auth: this.auth(context),
      isQuotaExceeded: isQuotaAnswer,
    });
    if (isError(response)) return withDocumentedPause(response, this.kit.now(), this.limits.quota_reset_utc);
    if (response.status !== 200) return this.refused(context, response, 'tracking request');
    const options: FedexMapOptions = {
      code: (codes) => this.code(FEDEX_CODES, codes),
      proofOfDelivery: (piece) => this.proofOfDelivery(piece, context),
    };
    // Number by number where each has an entry of its own (the entries as stored are not parsed), else whole.
    const results =
      this.mapByEntry(context, response, numbers, completeResultEntries, (entries, asked) =>
        mapTrackingResponse({ output: { completeTrackResults: entries } }, asked, options),
      ) ?? mapTrackingResponse(response.json(), numbers, { ...options, unchanged: this.sameAnswer(context) });
    return results ?? this.unreadable(context, response, 'tracking answer');
  }

  /** Bearer tokens from `POST /oauth/token` (client credentials as form fields), shared by every call of the credential. */
  private auth(context: CallContext): CallAuth {
    return this.bearer(context, () =>
      clientCredentialsToken(this.kit.http, {
        carrier: this.record.id,
        tokenUrl: `${context.baseUrl}${TOKEN_PATH}`,
        clientId: String(context.settings.client_id),
        clientSecret: String(context.settings.client_secret),
        style: 'body',
        signal: context.signal,
      }),
    );
  }

  /** The signature proof of a delivered piece, downloaded when the service asks for it. */
  private proofOfDelivery(piece: FedexProofRequest, context: CallContext): ProofOfDelivery {
    const proof: ProofOfDelivery = {
      reference: signatureProofReference(piece),
      file_name: `fedex-pod-${piece.trackingNumber}.pdf`,
      content_type: 'application/pdf',
      fetch: (options) => this.fetchSignatureProof(piece, { ...context, signal: options.signal }),
    };
    if (piece.signedBy) proof.signed_by = piece.signedBy;
    return proof;
  }

  /** `POST /track/v1/trackingdocuments` within the credential's limits (FedEx counts it against the Track quota). */
  private fetchSignatureProof(piece: FedexProofRequest, context: CallContext): Promise<DocumentOutcome> {
    return this.gated(context, () => this.requestSignatureProof(piece, context));
  }

  private async requestSignatureProof(piece: FedexProofRequest, context: CallContext): Promise<DocumentOutcome> {
    const response = await this.call(context, {
      method: 'POST',
      url: `${context.baseUrl}${DOCUMENTS_PATH}`,
      headers: trackHeaders(),
      body: JSON.stringify(signatureProofRequest(piece)),
      auth: this.auth(context),
      isQuotaExceeded: isQuotaAnswer,
    });
    if (isError(response)) return withDocumentedPause(response, this.kit.now(), this.limits.quota_reset_utc);
    if (response.status !== 200) return this.refused(context, response, 'signature proof request');
    return signatureProofContent(response.json());
  }

  /** A 4xx FedEx explains with its `errors[]` (e.g. 400 TRACKING.TRACKINGNUMBER.EMPTY): not worth repeating as is. */
  private refused(context: CallContext, response: CarrierResponse, what: string): CarrierError {
    const summary = errorSummary(response.json());
    if (!summary) return this.unreadable(context, response, what);
    return {
      status: 'error',
      retryable: false,
      message: redact(`${this.record.name} refused the ${what} (HTTP ${response.status}): ${summary}`, context.secrets),
    };
  }
}

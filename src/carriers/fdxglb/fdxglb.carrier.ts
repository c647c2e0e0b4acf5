import { Type } from '@sinclair/typebox';
import type { CarrierCapabilities, CarrierError, CarrierRecord, ProofOfDelivery, TrackResult } from '../carrier.js';
import { type CallAuth, type CarrierResponse, redact } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { clientCredentialsToken } from '../sdk/oauth.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { FEDEX_CODES } from './fdxglb.codes.js';
import { completeResultEntries, errorSummary, type FedexMapOptions, type FedexProofRequest, mapTrackingResponse } from './fdxglb.mapper.js';
import { signatureProofContent, signatureProofReference, signatureProofRequest } from './fdxglb.pod.js';
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
 * the estimated delivery window, and the signature proof of delivery of delivered pieces. docs/carriers/fdxglb.md
 * describes the API, its limits and what is mapped.
 */
export class FedexCarrier extends HttpCarrier {
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

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: false };

  readonly settingsSchema = Type.Object({
    client_id: CredentialText('API key (client ID) of a FedEx Developer Portal project with the Track API'),
    client_secret: secret(CredentialText('Secret key (client secret) of that project')),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
  });

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

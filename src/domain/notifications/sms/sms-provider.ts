import type { TSchema } from '@sinclair/typebox';
import { type TwilioSettings, twilioProvider } from './twilio.provider.js';

/**
 * The contract every SMS provider meets: send one message, check and read what the provider posts back
 * (inbound replies such as STOP, delivery reports). Providers hold no state of their own; a merchant's
 * settings are passed to each call.
 */

/** One message to send. */
export interface SmsMessage {
  /** The recipient in E.164 (`+4915112345678`). */
  to: string;
  body: string;
  /** Our idempotent id for the message, sent where the provider accepts one (Twilio's Messages API has none). */
  reference: string;
  /** Where the provider posts delivery reports for this message. */
  statusCallbackUrl?: string;
}

/**
 * What became of a send. `permanent` failures will fail again however often they are retried (invalid or
 * unsubscribed recipient, bad credentials); the others may succeed later, after `retryAfterSeconds` when the
 * provider said so.
 */
export type SmsOutcome =
  | { status: 'accepted'; providerMessageId: string }
  | { status: 'failed'; permanent: boolean; code: string; message: string; retryAfterSeconds?: number };

/** A request the provider made to us (inbound message, delivery report), as the HTTP layer received it. */
export interface InboundRequest {
  /** The full public URL the provider called, query included, exactly as the provider knows it. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The form fields of the body. */
  params: Record<string, string>;
}

/** A message a recipient sent to one of our numbers; `opt_out` / `opt_in` for the standard keywords. */
export type InboundMessage = { kind: 'opt_out' | 'opt_in' | 'other'; from: string; to: string; body: string };

/** A provider's report on a message it accepted. `permanent` says whether sending it again is pointless. */
export type DeliveryReport = {
  providerMessageId: string;
  state: 'delivered' | 'failed' | 'pending';
  code?: string;
  message?: string;
  permanent?: boolean;
};

export interface SmsProvider<S = Record<string, unknown>> {
  /** Stable id stored with a merchant's settings (`twilio`). */
  readonly id: string;
  /**
   * The merchant's settings, in TypeBox. Secret fields carry `secret: true` (and the carrier settings'
   * `x-secret`, so `maskSettings`/`secretNames` of src/carriers/sdk/settings.ts treat them alike).
   */
  readonly settingsSchema: TSchema;
  /** The names of the secret settings, for masking and redaction. */
  readonly secretFields: readonly string[];
  /** Sends one message. Never throws: every failure is an outcome, and no secret appears in its text. */
  send(message: SmsMessage, settings: S, signal?: AbortSignal): Promise<SmsOutcome>;
  /** Whether a request really comes from the provider (its signature over the URL and fields). */
  verifyInbound(request: InboundRequest, settings: S): boolean;
  /** Reads an inbound message; STOP and its synonyms are `opt_out`, START/UNSTOP/YES `opt_in`. */
  parseInbound(params: Record<string, string>): InboundMessage;
  /** Reads a delivery report, or null when the fields are not one. */
  parseDeliveryReport(params: Record<string, string>): DeliveryReport | null;
}

/**
 * The providers by id, built once with the operator's environment (`WAYBILL_SMS_TWILIO_BASE_URL` sends
 * Twilio's calls elsewhere, e.g. to a local stand-in). Code that has the parsed config can build its own
 * with `twilioProvider({ baseUrl: config.notifications.twilioBaseUrl })`.
 */
const twilio: SmsProvider<TwilioSettings> = twilioProvider({ baseUrl: process.env.WAYBILL_SMS_TWILIO_BASE_URL });

export const smsProviders: ReadonlyMap<string, SmsProvider<any>> = new Map<string, SmsProvider<any>>([[twilio.id, twilio]]);

/** The provider with this id, or null when there is none. */
export function smsProvider(id: string): SmsProvider<any> | null {
  return smsProviders.get(id) ?? null;
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { request, errors as undiciErrors } from 'undici';

/**
 * Twilio's Programmable Messaging through its REST API (2010-04-01):
 * `POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP Basic (Account SID : Auth Token),
 * form-encoded `To`, `From` or `MessagingServiceSid`, `Body`, `StatusCallback`.
 * Sources: twilio.com/docs/messaging/api/message-resource, /docs/usage/webhooks/webhooks-security,
 * /docs/api/errors/<code>.
 */

/*
 * The shapes of the SMS provider contract (sms-provider.ts), restated: the registry there imports this module,
 * so importing them back would be a cycle. The registry's `SmsProvider<TwilioSettings>` annotation makes the
 * compiler check that both agree.
 */
interface SmsMessage {
  to: string;
  body: string;
  reference: string;
  statusCallbackUrl?: string;
}
type SmsOutcome =
  | { status: 'accepted'; providerMessageId: string }
  | { status: 'failed'; permanent: boolean; code: string; message: string; retryAfterSeconds?: number };
interface InboundRequest {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  params: Record<string, string>;
}
type InboundMessage = { kind: 'opt_out' | 'opt_in' | 'other'; from: string; to: string; body: string };
type DeliveryReport = {
  providerMessageId: string;
  state: 'delivered' | 'failed' | 'pending';
  code?: string;
  message?: string;
  permanent?: boolean;
};

/** The Twilio provider: an `SmsProvider<TwilioSettings>`. */
export interface TwilioProvider {
  readonly id: 'twilio';
  readonly settingsSchema: TSchema;
  readonly secretFields: readonly string[];
  send(message: SmsMessage, settings: TwilioSettings, signal?: AbortSignal): Promise<SmsOutcome>;
  verifyInbound(request: InboundRequest, settings: TwilioSettings): boolean;
  parseInbound(params: Record<string, string>): InboundMessage;
  parseDeliveryReport(params: Record<string, string>): DeliveryReport | null;
}

const DEFAULT_BASE_URL = 'https://api.twilio.com';
const DEFAULT_TIMEOUT_MS = 15_000;
/** Largest answer read (by its Content-Length); Twilio's are a few kB. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * A merchant's Twilio settings. One of `from` and `messaging_service_sid` is required: the schema says so
 * with `if`/`then` (without a Messaging Service, `from` is required), so a validator reports `settings.from`.
 */
export const TwilioSettingsSchema = Type.Object(
  {
    account_sid: Type.String({ pattern: '^AC[0-9a-fA-F]{32}$', description: 'Twilio Account SID (AC followed by 32 hex digits)' }),
    auth_token: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^\\S+$',
      description: 'Twilio Auth Token',
      secret: true,
      'x-secret': true,
    }),
    from: Type.Optional(
      Type.String({
        pattern: '^\\+[1-9][0-9]{6,14}$',
        description: 'Sender number in E.164 (+14155550100); required unless messaging_service_sid is set',
      }),
    ),
    messaging_service_sid: Type.Optional(
      Type.String({
        pattern: '^MG[0-9a-fA-F]{32}$',
        description: 'Messaging Service SID (MG followed by 32 hex digits); when set, the service picks the sender',
      }),
    ),
  },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then; the schema is never awaited.
  { if: { not: { required: ['messaging_service_sid'] } }, then: { required: ['from'] } },
);

export type TwilioSettings = Static<typeof TwilioSettingsSchema>;

export interface TwilioProviderOptions {
  /** Where Twilio's API is; default `WAYBILL_SMS_TWILIO_BASE_URL`, else https://api.twilio.com. */
  baseUrl?: string;
  /** Deadline of one send, connection to answer; default 15 s. */
  timeoutMs?: number;
}

/**
 * Twilio error codes that fail the same way however often the message is sent again. Any other 4xx answer
 * is permanent too unless listed in {@link TEMPORARY_CODES}: Twilio refused the request itself.
 */
const PERMANENT_CODES = new Set([
  20003, // authentication failed
  20404, // no such resource (wrong Account SID)
  21211, // invalid 'To' number
  21408, // sending to that region not enabled
  21610, // recipient replied STOP
  21612, // 'To' not reachable from this sender
  21614, // 'To' is not a mobile number
  21617, // body over 1,600 characters
]);

/** Twilio codes that say "not now": rate limits and a full sender queue. */
const TEMPORARY_CODES = new Set([
  20429, // too many requests
  14107, // send rate limit between two numbers; Twilio holds the pair for 30 s
  21611, // the sender's queue is full
]);

/** Delivery-report codes after which the same message to the same number will not get through. */
const PERMANENT_DELIVERY_CODES = new Set(['21211', '21610', '21612', '21614', '30004', '30005', '30006']);

const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT']);
const OPT_IN = new Set(['START', 'UNSTOP', 'YES']);

/** Builds the Twilio provider. The base URL is the operator's, never a merchant's setting. */
export function twilioProvider(options: TwilioProviderOptions = {}): TwilioProvider {
  const baseUrl = (options.baseUrl || process.env.WAYBILL_SMS_TWILIO_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    id: 'twilio',
    settingsSchema: TwilioSettingsSchema,
    secretFields: ['auth_token'],
    send: (message, settings, signal) => send(baseUrl, timeoutMs, message, settings, signal),
    verifyInbound: (inbound, settings) => verifyTwilioSignature(inbound, settings.auth_token),
    parseInbound,
    parseDeliveryReport,
  };
}

async function send(
  baseUrl: string,
  timeoutMs: number,
  message: SmsMessage,
  settings: TwilioSettings,
  signal?: AbortSignal,
): Promise<SmsOutcome> {
  const secrets = [settings.auth_token, Buffer.from(`${settings.account_sid}:${settings.auth_token}`).toString('base64')];
  const form = new URLSearchParams();
  form.set('To', message.to);
  if (settings.messaging_service_sid) form.set('MessagingServiceSid', settings.messaging_service_sid);
  else if (settings.from) form.set('From', settings.from);
  form.set('Body', message.body);
  if (message.statusCallbackUrl) form.set('StatusCallback', message.statusCallbackUrl);

  const url = `${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(settings.account_sid)}/Messages.json`;
  const deadline = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
  let status: number;
  let headers: Record<string, string | string[] | undefined>;
  let text: string;
  try {
    const response = await request(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${secrets[1]}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      signal: combined,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    status = response.statusCode;
    headers = response.headers;
    const length = Number(headers['content-length'] ?? 0);
    if (length > MAX_ANSWER_BYTES) {
      response.body.destroy();
      return temporary('invalid_response', `Twilio answered HTTP ${status} with ${length} bytes`);
    }
    text = await response.body.text();
  } catch (error) {
    if (signal?.aborted) return temporary('aborted', 'The send was abandoned before Twilio answered');
    if (deadline.aborted || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      return temporary('timeout', `Twilio did not answer within ${timeoutMs} ms`);
    }
    const code = (error as NodeJS.ErrnoException).code;
    return temporary('network_error', scrub(`Twilio could not be reached: ${code ?? (error as Error).message}`, secrets));
  }
  return outcomeOf(status, headers, text, secrets);
}

/** Maps Twilio's answer to an outcome: 2xx with a `sid` is accepted; the error JSON decides the rest. */
function outcomeOf(status: number, headers: Record<string, string | string[] | undefined>, text: string, secrets: string[]): SmsOutcome {
  const json = parseJson(text);
  if (status >= 200 && status < 300) {
    const sid = typeof json?.sid === 'string' ? json.sid : '';
    if (sid) return { status: 'accepted', providerMessageId: sid };
    return temporary('invalid_response', `Twilio answered HTTP ${status} without a message sid`);
  }
  const twilioCode = typeof json?.code === 'number' ? json.code : Number(json?.code) || null;
  const detail = typeof json?.message === 'string' && json.message ? json.message : `HTTP ${status}`;
  const code = twilioCode ? String(twilioCode) : `http_${status}`;
  const message = scrub(`Twilio refused the message (HTTP ${status}${twilioCode ? `, error ${twilioCode}` : ''}): ${detail}`, secrets);
  const retryAfter = retryAfterSeconds(headers['retry-after']);
  const rateLimited = status === 429 || (twilioCode !== null && TEMPORARY_CODES.has(twilioCode));
  if (rateLimited) {
    const fallback = twilioCode === 14107 ? 30 : undefined;
    return failed(false, code, message, retryAfter ?? fallback);
  }
  if (status >= 500 || status === 408) return failed(false, code, message, retryAfter);
  if (twilioCode !== null && PERMANENT_CODES.has(twilioCode)) return failed(true, code, message);
  // 401/403 without a readable body, and any other refusal of the request itself.
  if (status >= 400) return failed(true, status === 401 || status === 403 ? (twilioCode ? code : '20003') : code, message);
  return failed(false, code, message, retryAfter);
}

function failed(permanent: boolean, code: string, message: string, retryAfter?: number): SmsOutcome {
  return retryAfter === undefined
    ? { status: 'failed', permanent, code, message }
    : { status: 'failed', permanent, code, message, retryAfterSeconds: retryAfter };
}

function temporary(code: string, message: string): SmsOutcome {
  return { status: 'failed', permanent: false, code, message };
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** `Retry-After` in seconds (a number of seconds or an HTTP date), or undefined when absent or unreadable. */
function retryAfterSeconds(header: string | string[] | undefined): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Math.min(Number(value), 86_400);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.min(Math.ceil((at - Date.now()) / 1000), 86_400));
}

/** Removes every secret from a text meant for logs and stored errors. */
function scrub(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret) result = result.split(secret).join('[redacted]');
  return result;
}

/**
 * `X-Twilio-Signature` as Twilio computes it: HMAC-SHA1 keyed with the Auth Token over the full URL followed
 * by every POST field sorted by name, each name then value with no separator, in base64.
 */
export function twilioSignature(url: string, params: Record<string, string>, authToken: string): string {
  let data = url;
  for (const name of Object.keys(params).sort()) data += name + params[name];
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * Checks `X-Twilio-Signature` in constant time. Like Twilio's own helper libraries, the URL is also tried
 * with its default port added or removed, since proxies differ on whether the port is part of it.
 */
export function verifyTwilioSignature(inbound: InboundRequest, authToken: string): boolean {
  const header = headerValue(inbound.headers, 'x-twilio-signature');
  if (!header || !authToken) return false;
  const given = Buffer.from(header, 'utf8');
  let valid = false;
  for (const url of urlVariants(inbound.url)) {
    const expected = Buffer.from(twilioSignature(url, inbound.params, authToken), 'utf8');
    // Every variant is compared, so the time taken does not depend on which one matched.
    if (expected.length === given.length && timingSafeEqual(expected, given)) valid = true;
  }
  return valid;
}

function headerValue(headers: InboundRequest['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** The URL as given, and with its scheme's default port added or removed. */
function urlVariants(url: string): string[] {
  const variants = [url];
  const match = /^(https?):\/\/([^/?#]+)(.*)$/i.exec(url);
  if (!match) return variants;
  const [, scheme, authority, rest] = match;
  const port = scheme.toLowerCase() === 'https' ? '443' : '80';
  const withPort = /:(\d+)$/.exec(authority);
  if (withPort) {
    if (withPort[1] === port) variants.push(`${scheme}://${authority.slice(0, -port.length - 1)}${rest}`);
  } else {
    variants.push(`${scheme}://${authority}:${port}${rest}`);
  }
  return variants;
}

/**
 * Reads an inbound message. With Advanced Opt-Out Twilio says what it saw in `OptOutType`; otherwise the
 * body is matched against Twilio's default keywords: one word, any case, surrounding spaces and
 * punctuation ignored ("Stop." is an opt-out, "stop sending" is not).
 */
export function parseInbound(params: Record<string, string>): InboundMessage {
  const body = params.Body ?? '';
  const from = params.From ?? '';
  const to = params.To ?? '';
  const optOutType = (params.OptOutType ?? '').trim().toUpperCase();
  if (optOutType === 'STOP') return { kind: 'opt_out', from, to, body };
  if (optOutType === 'START') return { kind: 'opt_in', from, to, body };
  const word = body
    .trim()
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '')
    .toUpperCase();
  const kind = OPT_OUT.has(word) ? 'opt_out' : OPT_IN.has(word) ? 'opt_in' : 'other';
  return { kind, from, to, body };
}

/**
 * Reads a status callback (`MessageSid`, `MessageStatus`, `ErrorCode`): delivered (or read) → delivered;
 * undelivered, failed, canceled → failed; queued, accepted, scheduled, sending, sent → pending. Inbound
 * statuses (received) and unknown ones give null.
 */
export function parseDeliveryReport(params: Record<string, string>): DeliveryReport | null {
  const providerMessageId = params.MessageSid || params.SmsSid || '';
  const status = (params.MessageStatus || params.SmsStatus || '').trim().toLowerCase();
  if (!providerMessageId || !status) return null;
  switch (status) {
    case 'delivered':
    case 'read':
      return { providerMessageId, state: 'delivered' };
    case 'queued':
    case 'accepted':
    case 'scheduled':
    case 'sending':
    case 'sent':
      return { providerMessageId, state: 'pending' };
    case 'undelivered':
    case 'failed':
    case 'canceled': {
      const code = (params.ErrorCode ?? '').trim() || (status === 'canceled' ? 'canceled' : status);
      const report: DeliveryReport = {
        providerMessageId,
        state: 'failed',
        code,
        permanent: status === 'canceled' || PERMANENT_DELIVERY_CODES.has(code),
      };
      if (params.ErrorMessage) report.message = params.ErrorMessage;
      return report;
    }
    default:
      return null;
  }
}

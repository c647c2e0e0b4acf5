import type { CarrierError, CarrierSettings, TrackResult } from './carrier.js';

/** One tracking number's news, pushed by the carrier. */
export interface PushUpdate {
  tracking_number: string;
  /** The same result `track` would give, so pushed and polled events go through one normalization. */
  result: TrackResult;
}

/** A request a carrier posted to `/carrier-hooks/{carrier_id}/`, as received. */
export interface PushedRequest {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body's bytes exactly as sent, for signatures computed over them. */
  rawBody: Buffer;
  /**
   * The query parameters of the URL posted to. Carriers that can be given only a URL to push to (17TRACK: no
   * header of ours) carry the push token there; the adapter's `pushToken` reads it.
   */
  query?: Readonly<Record<string, string | string[] | undefined>>;
}

/** The push part of a carrier adapter, present when `capabilities.push` is true. */
export interface PushCapable {
  /**
   * The secret we gave the carrier when subscribing, where this carrier sends it back (a header it lets us
   * name, one it defines, or the query of the URL it was given). Without this method: `Authorization: Bearer <push token>`.
   */
  pushToken?(headers: PushedRequest['headers'], request?: PushedRequest): string | null;
  /**
   * Checks what the push token alone cannot: a signature over the raw body (HMAC) with the configuration's
   * settings. Without this method the push token is the whole check.
   */
  verifyPush?(request: PushedRequest, settings: CarrierSettings): boolean;
  /** Reads a body the carrier posted to `/carrier-hooks/{carrier_id}/`; a body it cannot read is data, not a throw. */
  parsePush(body: unknown): { ok: true; updates: PushUpdate[] } | { ok: false; message: string };
  /**
   * For carriers that push only the numbers subscribed to, for a while (UPS Track Alert): subscribes at most
   * `subscription.numbers_per_call` numbers in one carrier call, within the credential's limits. Every number
   * asked is in `accepted` or `refused`; `until` is when the accepted numbers' subscriptions end. Never throws.
   */
  subscribe?(numbers: readonly string[], settings: CarrierSettings, options: SubscribeOptions): Promise<SubscriptionResult | CarrierError>;
  /** How subscriptions work with this carrier; present with `subscribe`. */
  readonly subscription?: { numbers_per_call: number; valid_seconds: number };
}

export interface SubscribeOptions {
  now: Date;
  signal?: AbortSignal;
  /**
   * Where and with what the carrier is to push, for carriers told so in each subscription (DHL): the
   * configuration's push URL and a hook token the push route accepts for it. Absent when the configuration
   * has no push token yet.
   */
  hook?: PushHook;
}

/** A configuration's push URL and the secret a carrier sends back as `Authorization: Bearer <token>`. */
export interface PushHook {
  url: string;
  token: string;
}

/** What a carrier said to one subscription call. */
export interface SubscriptionResult {
  accepted: string[];
  /** Numbers the carrier would not subscribe (not its own, not valid), with its reason when it gave one. */
  refused: Array<{ tracking_number: string; message: string }>;
  until: Date;
}

/** A push adapter that needs a subscription per tracking number. */
export type SubscribingPush = PushCapable & Required<Pick<PushCapable, 'subscribe' | 'subscription'>>;

export function subscribesToPush(adapter: object): adapter is SubscribingPush {
  const push = adapter as Partial<PushCapable>;
  return acceptsPush(adapter) && typeof push.subscribe === 'function' && push.subscription !== undefined;
}

export function acceptsPush(adapter: object): adapter is PushCapable {
  return typeof (adapter as Partial<PushCapable>).parsePush === 'function';
}

/** `Authorization: Bearer <token>`, the push token's default place. */
export function bearerPushToken(headers: PushedRequest['headers']): string | null {
  const value = headers.authorization;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));
  return match?.[1] ?? null;
}

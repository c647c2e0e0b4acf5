import type { TrackResult } from './carrier.js';

/** One tracking number's news, pushed by the carrier. */
export interface PushUpdate {
  tracking_number: string;
  /** The same result `track` would give, so pushed and polled events go through one normalization. */
  result: TrackResult;
}

/** The push part of a carrier adapter, present when `capabilities.push` is true. */
export interface PushCapable {
  /** Reads a body the carrier posted to `/carrier-hooks/{carrier_id}/`; a body it cannot read is data, not a throw. */
  parsePush(body: unknown): { ok: true; updates: PushUpdate[] } | { ok: false; message: string };
}

export function acceptsPush(adapter: object): adapter is PushCapable {
  return typeof (adapter as Partial<PushCapable>).parsePush === 'function';
}

import type { CarrierResponse } from '../sdk/http.js';

/**
 * Tells DHL's daily-quota 429 from its per-second one. DHL answers both with the same 429 and the same
 * problem text ("Too many requests within defined time period"), so the body cannot tell them apart;
 * their durations can. The per-second limit (spike arrest) clears within a second, and after a 429 the
 * credential is paused for longer than that; the daily quota lasts until 24:00 GMT. So a 429 that
 * follows another 429 of the same credential, with no other answer between them and at least
 * `minGapMs` later, is the quota. A 429 with `Retry-After` is a rate answer that says when to come back.
 */
export class QuotaInference {
  private readonly firstRefusal = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly minGapMs = 30_000,
  ) {}

  /** Whether this answer is the daily quota; remembers the refusals of each credential. */
  isQuotaExceeded(credentialKey: string, response: CarrierResponse): boolean {
    if (response.status !== 429) {
      this.firstRefusal.delete(credentialKey);
      return false;
    }
    const now = this.now();
    if (response.headers['retry-after'] !== undefined) {
      this.firstRefusal.set(credentialKey, now);
      return false;
    }
    const first = this.firstRefusal.get(credentialKey);
    if (first !== undefined && now - first >= this.minGapMs) {
      // Counted afresh after the reset: the first 429 of a new day is a rate answer until it repeats.
      this.firstRefusal.delete(credentialKey);
      return true;
    }
    if (first === undefined) this.firstRefusal.set(credentialKey, now);
    return false;
  }
}

/** What a carrier allows one credential, as its documentation states. */
export interface CarrierLimits {
  /** Tracking numbers in one call. */
  numbers_per_call: number;
  /** Calls in flight at once. */
  concurrent_calls: number;
  /** Calls per second (sustained; a burst of at most this many). Below 1 for hourly limits (60/h = 1/60). */
  requests_per_second: number;
  /** Calls per day, or null when the carrier states none. */
  daily_quota: number | null;
  /** When the daily quota resets, as `HH:MM` UTC. */
  quota_reset_utc: string;
  /** The carrier asks integrators not to poll one number more often than this. */
  min_poll_interval_seconds: number;
}

/** Why a credential cannot call now: paused after a 429 or a spent quota. */
export interface Paused {
  paused: true;
  until_ms: number;
  reason: 'rate' | 'quota';
}

/**
 * The limits of one credential in this process: a semaphore for concurrent calls, a token bucket for the
 * rate, a day counter for the quota, and a pause set by the carrier's own throttling answers.
 */
export class CredentialGate {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private tokens: number;
  private refilledAt: number;
  private refilledAtMonotonic = performance.now();
  private usedToday = 0;
  private dayStarted: number;
  private pausedUntil = 0;
  private pauseReason: 'rate' | 'quota' = 'rate';

  constructor(
    readonly limits: CarrierLimits,
    private readonly now: () => number,
  ) {
    this.tokens = Math.max(1, limits.requests_per_second);
    this.refilledAt = now();
    this.dayStarted = lastReset(now(), limits.quota_reset_utc);
  }

  /** Paused until when, or null. */
  paused(): Paused | null {
    const now = this.now();
    if (this.pausedUntil > now) return { paused: true, until_ms: this.pausedUntil, reason: this.pauseReason };
    const remaining = this.remainingToday();
    if (remaining !== null && remaining <= 0) {
      return { paused: true, until_ms: nextReset(now, this.limits.quota_reset_utc), reason: 'quota' };
    }
    return null;
  }

  /** Calls left today, or null without a quota. */
  remainingToday(): number | null {
    if (this.limits.daily_quota === null) return null;
    this.rollDay();
    return this.limits.daily_quota - this.usedToday;
  }

  /** Stops every call of this credential until `untilMs` (a 429's Retry-After, or the quota reset). */
  pause(reason: 'rate' | 'quota', untilMs?: number): void {
    const until = reason === 'quota' ? (untilMs ?? nextReset(this.now(), this.limits.quota_reset_utc)) : (untilMs ?? this.now() + 60_000);
    if (until > this.pausedUntil) {
      this.pausedUntil = until;
      this.pauseReason = reason;
    }
  }

  /**
   * Runs one carrier call within the limits: waits for a free slot and a rate token (or the signal),
   * counts it against the day's quota. Returns the pause instead when the credential is paused.
   */
  async run<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T | Paused | { aborted: true }> {
    const stop = this.paused();
    if (stop) return stop;
    await this.slot(signal);
    try {
      if (signal?.aborted) return { aborted: true };
      const waited = await this.rateToken(signal);
      if (!waited) return { aborted: true };
      // Checked again after waiting: a call that ended meanwhile may have paused the credential.
      const paused = this.paused();
      if (paused) return paused;
      this.rollDay();
      this.usedToday++;
      return await call();
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
  }

  private slot(signal?: AbortSignal): Promise<void> {
    if (this.inFlight < this.limits.concurrent_calls) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const enter = () => {
        this.inFlight++;
        resolve();
      };
      this.waiting.push(enter);
      signal?.addEventListener(
        'abort',
        () => {
          const at = this.waiting.indexOf(enter);
          if (at >= 0) {
            this.waiting.splice(at, 1);
            enter();
          }
        },
        { once: true },
      );
    });
  }

  private async rateToken(signal?: AbortSignal): Promise<boolean> {
    for (;;) {
      const now = this.now();
      const monotonic = performance.now();
      const rate = this.limits.requests_per_second;
      // Time passed by the injected clock or by the process's own, whichever is more: a clock held still (in
      // tests) cannot stall the calls, and a clock run fast (in tests) speeds them up.
      const elapsedMs = Math.max(now - this.refilledAt, monotonic - this.refilledAtMonotonic);
      // A burst of at most `rate` calls, and at least one (rates below 1/s are one call per 1/rate seconds).
      this.tokens = Math.min(Math.max(1, rate), this.tokens + (elapsedMs / 1000) * rate);
      this.refilledAt = now;
      this.refilledAtMonotonic = monotonic;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return true;
      }
      if (signal?.aborted) return false;
      const waitMs = Math.ceil(((1 - this.tokens) / rate) * 1000);
      await sleep(Math.max(1, waitMs), signal);
    }
  }

  private rollDay(): void {
    const reset = lastReset(this.now(), this.limits.quota_reset_utc);
    if (reset > this.dayStarted) {
      this.dayStarted = reset;
      this.usedToday = 0;
    }
  }
}

/** Gates by credential key, so one merchant's traffic never spends another's limits. */
export class CredentialGates {
  private readonly gates = new Map<string, CredentialGate>();

  constructor(private readonly now: () => number = Date.now) {}

  gate(key: string, limits: CarrierLimits): CredentialGate {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = new CredentialGate(limits, this.now);
      this.gates.set(key, gate);
    }
    return gate;
  }

  /** The gate of a credential if it was used in this process. */
  find(key: string): CredentialGate | undefined {
    return this.gates.get(key);
  }
}

function resetParts(resetUtc: string): [number, number] {
  const match = /^(\d{2}):(\d{2})$/.exec(resetUtc);
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
}

/** The latest quota reset at or before `nowMs`. */
export function lastReset(nowMs: number, resetUtc: string): number {
  const [hours, minutes] = resetParts(resetUtc);
  const day = new Date(nowMs);
  const today = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours, minutes);
  return today <= nowMs ? today : today - 86_400_000;
}

/** The next quota reset after `nowMs`. */
export function nextReset(nowMs: number, resetUtc: string): number {
  return lastReset(nowMs, resetUtc) + 86_400_000;
}

/** Waits `ms`, or less when the signal fires first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

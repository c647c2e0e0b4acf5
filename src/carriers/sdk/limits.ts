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

/**
 * How many numbers the follow-up calls reported to a gate are averaged over: each batch reported weighs as much
 * as the numbers it holds, and what was reported this many numbers ago counts half.
 */
const FOLLOW_UP_HALF_LIFE = 200;

/** Why a credential cannot call now: paused after a 429 or a spent quota. */
export interface Paused {
  paused: true;
  until_ms: number;
  reason: 'rate' | 'quota';
}

/**
 * The limits of one credential in this process: a semaphore for concurrent calls, the pace of requests
 * (counted when each request is sent, retries included), a day counter for the quota, and a pause set by
 * the carrier's own throttling answers.
 */
export class CredentialGate {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private lastSent = Number.NEGATIVE_INFINITY;
  private lastSentMonotonic = Number.NEGATIVE_INFINITY;
  private usedToday = 0;
  private dayStarted: number;
  private pausedUntil = 0;
  private pauseReason: 'rate' | 'quota' = 'rate';
  /** Follow-up calls and the numbers they were reported for, both exponentially weighted (`noteFollowUps`). */
  private followUps = 0;
  private followUpNumbers = 0;
  /**
   * Milliseconds between two requests: the carrier's rate with 5% and 5 ms to spare, so that requests a
   * carrier counts in a sliding second (and a network that bunches them a little) never exceed it.
   */
  private readonly spacingMs: number;

  constructor(
    readonly limits: CarrierLimits,
    private readonly now: () => number,
  ) {
    this.dayStarted = lastReset(now(), limits.quota_reset_utc);
    this.spacingMs = (1000 / Math.max(limits.requests_per_second, 1 / 86_400)) * 1.05 + 5;
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

  /**
   * How many requests this credential could send from now until `horizonMs` has passed, at its pace and within
   * the day's quota (none while paused). An estimate for sizing the poller's claims: the calls in flight and the
   * time a request takes are not counted, so fewer may go out; what does not is held back, not lost.
   */
  capacity(horizonMs: number): number {
    if (this.paused()) return 0;
    const since = Math.max(this.now() - this.lastSent, performance.now() - this.lastSentMonotonic);
    const first = Math.max(0, this.spacingMs - since);
    if (first > horizonMs) return 0;
    const requests = 1 + Math.floor((horizonMs - first) / this.spacingMs);
    const remaining = this.remainingToday();
    return remaining === null ? requests : Math.max(0, Math.min(requests, remaining));
  }

  /**
   * A batch of `numbers` needed `calls` calls beyond its own (Royal Mail asks the history of each number whose
   * summary changed, one call each). Kept as a ratio weighted towards the last few hundred numbers, since it
   * follows how many of a credential's parcels are moving.
   */
  noteFollowUps(numbers: number, calls: number): void {
    if (!(numbers > 0) || !(calls >= 0)) return;
    const kept = 0.5 ** (numbers / FOLLOW_UP_HALF_LIFE);
    this.followUps = this.followUps * kept + calls;
    this.followUpNumbers = this.followUpNumbers * kept + numbers;
  }

  /**
   * Follow-up calls per number as reported so far: 0 before any report, so that a credential's first claims are
   * sized as if none were needed (an end-to-end poll of a few numbers is one batch) and shrink once they are.
   */
  followUpsPerNumber(): number {
    return this.followUpNumbers > 0 ? this.followUps / this.followUpNumbers : 0;
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
   * Runs one carrier call within the concurrency limit (waiting for a free slot, or the signal). Its
   * requests are paced by `pace` when they are sent. Returns the pause instead when the credential is paused.
   */
  async run<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T | Paused | { aborted: true }> {
    const stop = this.paused();
    if (stop) return stop;
    if (!(await this.slot(signal))) return { aborted: true };
    try {
      // Checked again after waiting: a call that ended meanwhile may have paused the credential.
      const paused = this.paused();
      if (paused) return paused;
      return await call();
    } finally {
      this.release();
    }
  }

  /**
   * Waits until one more request may be sent at the carrier's rate, and counts it against the day's
   * quota. Called by the transport right before each request goes out (a retry is a request too), so the
   * time a token fetch takes never bunches two requests together.
   */
  async pace(signal?: AbortSignal): Promise<'ok' | Paused | 'aborted'> {
    for (;;) {
      const paused = this.paused();
      if (paused) return paused;
      const now = this.now();
      const monotonic = performance.now();
      // Time passed by the injected clock or by the process's own, whichever is more: a clock held still (in
      // tests) cannot stall the requests, and a clock run fast (in tests) speeds them up.
      const since = Math.max(now - this.lastSent, monotonic - this.lastSentMonotonic);
      if (since >= this.spacingMs) {
        this.lastSent = now;
        this.lastSentMonotonic = monotonic;
        this.rollDay();
        this.usedToday++;
        return 'ok';
      }
      // Given up only when there is a wait to give up: a turn that has come is taken, however long a token
      // fetch or a slot took before it.
      if (signal?.aborted) return 'aborted';
      // Looked at again at least every second: an injected clock that runs fast (tests) may have passed the turn already.
      await sleep(Math.min(1_000, Math.max(1, Math.ceil(this.spacingMs - since))), signal);
    }
  }

  /**
   * A paced request was written to its connection now: the next is spaced from this moment, not from its turn
   * (a new connection to open or a busy process can hold a request after its turn; the carrier counts arrivals).
   */
  sent(): void {
    const now = this.now();
    const monotonic = performance.now();
    if (now > this.lastSent) this.lastSent = now;
    if (monotonic > this.lastSentMonotonic) this.lastSentMonotonic = monotonic;
  }

  /** Takes a slot, waiting for one; false when the signal fired first (no slot taken). */
  private slot(signal?: AbortSignal): Promise<boolean> {
    if (this.inFlight < this.limits.concurrent_calls) {
      this.inFlight++;
      return Promise.resolve(true);
    }
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(enter);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
      };
      // Handed the slot of a call that ended: the count stays, it passes from that call to this one.
      const enter = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      };
      this.waiting.push(enter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
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

import { setMaxListeners } from 'node:events';
import { deadline } from './deadline.js';

/**
 * How long a request may wait on carriers (a booking, its validation or cancellation, a search of the carrier's
 * pick-up points), derived from the server's socket timeout so that no setting can let the server cut a request
 * off before it is answered: a socket that sends and receives nothing for `connectionTimeoutMs` is closed, and
 * a request waiting on a carrier sends nothing. docs/operations.md ("Requests that wait on a carrier") draws it.
 */
export interface CarrierWaitBudget {
  /** From the request's last byte to the end of its last carrier call: the socket timeout less `answerMs`. */
  requestMs: number;
  /** Kept for writing the answer (and its database work) after the last carrier call. */
  answerMs: number;
  /** Of `requestMs`, kept after a booking call whose answer was lost, to ask the carrier whether it booked. */
  lookupMs: number;
  /** What is left for the booking call itself: `requestMs - lookupMs`. The carriers' own timeouts must fit in it. */
  bookingCallMs: number;
}

/** The budget for a server whose idle sockets are closed after `connectionTimeoutMs`. */
export function carrierWaitBudget(connectionTimeoutMs: number): CarrierWaitBudget {
  const answerMs = Math.min(5_000, Math.max(1_000, Math.round(connectionTimeoutMs / 6)));
  const requestMs = connectionTimeoutMs - answerMs;
  const lookupMs = Math.min(15_000, Math.round(requestMs / 3));
  return { requestMs, answerMs, lookupMs, bookingCallMs: requestMs - lookupMs };
}

/**
 * The carrier waits of one request, ending `budget.requestMs` after it began or, once the process is stopping,
 * when `stopping` aborts (before the shutdown deadline closes the connections): every call's signal comes from
 * here, so that the request is answered (a 503 saying what the carrier may have done) in time.
 */
export class CarrierWait {
  private readonly endsAt: number;
  /** Kept after a booking call for the lookup that follows a lost answer (`CarrierWaitBudget.lookupMs`). */
  readonly lookupMs: number;

  constructor(
    budget: CarrierWaitBudget,
    private readonly stopping?: AbortSignal,
    startedAt = Date.now(),
  ) {
    this.endsAt = startedAt + budget.requestMs;
    this.lookupMs = budget.lookupMs;
  }

  /** A carrier call's signal: it aborts after `capMs`, `reserveMs` before the request's end, or when the process stops. */
  signal(capMs: number, reserveMs = 0): AbortSignal {
    return deadline(Math.max(1, Math.min(capMs, this.endsAt - reserveMs - Date.now())), this.stopping);
  }
}

/** The carrier waits of a process's requests: each begins with its request, and all end once the process stops. */
export class CarrierWaits {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly budget: CarrierWaitBudget) {
    // Every carrier call of every request in flight listens for the stop (each until its own deadline).
    setMaxListeners(0, this.controller.signal);
  }

  /** Every request's waits, begun now. */
  begin(): CarrierWait {
    return new CarrierWait(this.budget, this.controller.signal);
  }

  /** The process stops: carrier calls still waiting at `deadline - answerMs` (epoch ms) are given up then. */
  stopBy(deadline: number): void {
    if (this.timer || this.controller.signal.aborted) return;
    const at = Math.max(0, deadline - this.budget.answerMs - Date.now());
    this.timer = setTimeout(() => this.controller.abort(new Error('the process is stopping')), at);
    this.timer.unref();
  }
}

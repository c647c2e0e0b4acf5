/** The source of "now" for every rule that depends on time; tests inject a manual one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Milliseconds since the epoch by `clock`, without a `Date` for the system clock (paths run on every request). */
export function nowMs(clock: Clock): number {
  return clock === systemClock ? Date.now() : clock.now().getTime();
}

export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-01-15T10:00:00.000Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(at: Date | string): void {
    this.current = new Date(at).getTime();
  }
}

import type { Logger } from 'pino';

/** Time a process gets after its drain deadline to close its database and exit before it is made to exit. */
export const EXIT_GRACE_MS = 5_000;

/**
 * SIGTERM or SIGINT runs `stop` once (it owns the drain deadline, `timeoutMs`), then the process exits 0. If
 * `stop` has not finished `EXIT_GRACE_MS` after the deadline (a database that does not answer, say), or fails,
 * the process exits 1: it never outlives the deadline by more than that, whatever its clients or jobs do.
 */
export function exitOnStopSignal(log: Pick<Logger, 'info' | 'error'>, timeoutMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, timeout_ms: timeoutMs }, 'shutting down');
    setTimeout(() => {
      log.error({ timeout_ms: timeoutMs }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, timeoutMs + EXIT_GRACE_MS).unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

/** Whether `work` settles (either way) before `deadline` (epoch ms). */
export async function settlesBy(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  const settled = await Promise.race([
    work.then(
      () => true as const,
      () => true as const,
    ),
    expired,
  ]);
  clearTimeout(timer);
  return settled;
}

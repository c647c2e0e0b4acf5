import cluster, { type Worker as ClusterChild } from 'node:cluster';
import os from 'node:os';
import type { Logger } from 'pino';
import { type Config, ConfigError } from './config.js';
import { openDatabase } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { loadAdminToken, Secrets } from './secrets.js';

/** `--workers` as given: a count of processes, or `auto` for one per CPU the system offers. */
export function parseProcessCount(raw: string): number {
  if (raw === 'auto') return os.availableParallelism();
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 256)
    throw new ConfigError(`--workers must be auto or an integer from 1 to 256, got "${raw}"`);
  return count;
}

/**
 * Several HTTP processes count the per-account rate limit together only through Redis; each would allow the
 * full limit on its own otherwise, so an account could make N times its requests per second.
 */
export function assertSharedRateLimit(config: Config, processes: number): void {
  if (processes > 1 && !config.redisUrl) {
    throw new ConfigError(
      `serve --workers ${processes} needs REDIS_URL: without Redis each process counts the per-account rate limit on its own, ` +
        `so an account could make ${processes} × ${config.rateLimitPerSecond} requests per second. Set REDIS_URL, or serve with one process.`,
    );
  }
}

/**
 * What must happen once before any API process starts: migrations (so N processes never race to apply them)
 * and the generated secret key and admin token when they are not configured.
 */
export async function prepareOnce(config: Config): Promise<{ dialect: string; description: string; adminTokenFile: string | null }> {
  const handle = openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    sqliteSynchronous: config.sqliteSynchronous,
    // Ended idle connections are replaced at the next query.
    onIdleConnectionError: () => {},
  });
  try {
    await migrateToLatest(handle.db, handle.dialect === 'postgres' ? 'public' : undefined);
  } finally {
    await handle.close();
  }
  Secrets.load(config.secretKey, config.dataDir);
  const admin = loadAdminToken(config.adminToken, config.dataDir);
  return { dialect: handle.dialect, description: handle.description, adminTokenFile: admin.file };
}

export interface SupervisorOptions {
  processes: number;
  log: Logger;
  /** Called once, when every process listens for the first time, with the port they share. */
  onListening?: (port: number) => void;
  /** A child that ran at least this long before dying is restarted after the shortest delay again (ms). */
  healthyAfterMs?: number;
  minRestartDelayMs?: number;
  maxRestartDelayMs?: number;
  /** Children dying this many times in a row, each before `healthyAfterMs`, stop the whole service. */
  maxQuickFailures?: number;
  /** After SIGTERM, children still running after this long are killed (ms). */
  stopTimeoutMs?: number;
}

interface Slot {
  index: number;
  child: ClusterChild | null;
  startedAt: number;
  quickFailures: number;
  restartTimer: NodeJS.Timeout | null;
}

/**
 * The primary of `waybill serve --workers N`: forks N HTTP processes that share the listening port, restarts
 * one that dies unexpectedly (after a delay that doubles while it keeps dying young), and on SIGTERM or SIGINT
 * asks every child to drain its requests and stop. Resolves with the exit code once every child has exited.
 */
export function superviseHttpProcesses(options: SupervisorOptions): Promise<number> {
  const { processes, log } = options;
  const healthyAfterMs = options.healthyAfterMs ?? 10_000;
  const minDelay = options.minRestartDelayMs ?? 500;
  const maxDelay = options.maxRestartDelayMs ?? 30_000;
  const maxQuickFailures = options.maxQuickFailures ?? 5;
  const stopTimeoutMs = options.stopTimeoutMs ?? 35_000;
  const slots: Slot[] = Array.from({ length: processes }, (_, index) => ({
    index,
    child: null,
    startedAt: 0,
    quickFailures: 0,
    restartTimer: null,
  }));
  const listening = new Set<number>();
  let announced = false;
  let stopping = false;
  let exitCode = 0;

  return new Promise<number>((resolve) => {
    const finishIfDone = () => {
      if (stopping && slots.every((slot) => slot.child === null)) {
        process.removeListener('SIGTERM', onSignal);
        process.removeListener('SIGINT', onSignal);
        resolve(exitCode);
      }
    };

    const stop = (reason: string, code: number) => {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      log.info({ reason }, 'stopping every API process');
      for (const slot of slots) {
        if (slot.restartTimer) clearTimeout(slot.restartTimer);
        slot.restartTimer = null;
        slot.child?.process.kill('SIGTERM');
      }
      setTimeout(() => {
        for (const slot of slots) {
          if (slot.child) {
            log.warn({ child_pid: slot.child.process.pid }, 'API process did not stop in time; killing it');
            slot.child.process.kill('SIGKILL');
          }
        }
      }, stopTimeoutMs).unref();
      finishIfDone();
    };

    const onSignal = (signal: NodeJS.Signals) => stop(signal, 0);

    const fork = (slot: Slot) => {
      slot.restartTimer = null;
      const child = cluster.fork();
      slot.child = child;
      slot.startedAt = Date.now();
      child.on('listening', (address) => {
        listening.add(slot.index);
        log.debug({ child_pid: child.process.pid, slot: slot.index }, 'API process listening');
        if (!announced && listening.size === processes) {
          announced = true;
          options.onListening?.(address.port);
        }
      });
      child.on('exit', (code, signal) => {
        slot.child = null;
        listening.delete(slot.index);
        if (stopping) return finishIfDone();
        const lived = Date.now() - slot.startedAt;
        slot.quickFailures = lived < healthyAfterMs ? slot.quickFailures + 1 : 0;
        if (slot.quickFailures >= maxQuickFailures) {
          log.error({ code, signal, failures: slot.quickFailures }, 'an API process keeps dying at start; giving up');
          return stop('API process keeps failing', 1);
        }
        const delay = Math.min(maxDelay, minDelay * 2 ** Math.max(0, slot.quickFailures - 1));
        log.warn({ child_pid: child.process.pid, code, signal, restart_in_ms: delay }, 'API process exited; restarting it');
        slot.restartTimer = setTimeout(() => fork(slot), delay);
      });
    };

    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    for (const slot of slots) fork(slot);
  });
}

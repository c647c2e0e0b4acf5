#!/usr/bin/env node
import cluster from 'node:cluster';
import { Command } from 'commander';
import pino from 'pino';
import { registerAdminCommands } from './cli/admin.commands.js';
import { registerBackupCommand } from './cli/backup.commands.js';
import { registerImportCommands } from './cli/import.commands.js';
import { registerSimulateCommands } from './cli/simulate.commands.js';
import { assertSharedRateLimit, parseProcessCount, prepareOnce, superviseHttpProcesses } from './cluster.js';
import { defaultRenderCacheMegabytes, loadConfig } from './config.js';
import { createContext } from './context.js';
import { openDatabase } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { startServer } from './server.js';
import { EXIT_GRACE_MS, exitOnStopSignal, settlesBy } from './shutdown.js';

const program = new Command('waybill').description('Waybill: shipments, tracking, returns, booking and labels');

function printBanner(url: string, database: { dialect: string; description: string }, adminTokenFile: string | null): void {
  if (!process.stdout.isTTY && process.env.WAYBILL_BANNER === 'false') return;
  const tokenHint = adminTokenFile ? `the admin token is in ${adminTokenFile}` : 'the admin token is WAYBILL_ADMIN_TOKEN';
  process.stdout.write(
    [
      '',
      `  Waybill is running at ${url}  (API docs: ${url}/docs)`,
      `  Database: ${database.dialect} (${database.description})`,
      `  Operators: ${tokenHint}.`,
      '  First account and credentials, from another terminal in this folder:',
      '    npx waybill accounts create --name "My shop" --features returns,booking',
      '    npx waybill credentials create --account <account_uuid>',
      '',
    ].join('\n'),
  );
}

async function serve(withWorker: boolean): Promise<void> {
  const config = loadConfig();
  // A child of `serve --workers N` finds the database migrated by the primary.
  const server = await startServer(config, { migrate: !cluster.isWorker });
  if (withWorker) server.context.worker.start();
  const { context } = server;
  const log = server.app.log;
  log.info({ url: server.url, database: context.database.description }, 'waybill is serving');
  if (!cluster.isWorker) printBanner(server.url, context.database, context.adminTokenFile);
  exitOnStopSignal(log, config.shutdownTimeoutMs, () => server.stop());
}

/** `serve --workers N`: N HTTP processes on one port, supervised by this one (see src/cluster.ts). */
async function serveProcesses(workers: string): Promise<void> {
  const processes = parseProcessCount(workers);
  if (processes === 1 || cluster.isWorker) return serve(false);
  const config = loadConfig();
  assertSharedRateLimit(config, processes);
  const log = pino({ level: config.logLevel, name: 'waybill' });
  const prepared = await prepareOnce(config);
  // Processes sharing one SQLite file wait for each other's commits in SQLite's busy handler, their event loops
  // stopped meanwhile: no process holds a commit open for writes to come unless told to (docs/decisions.md).
  if (!config.databaseUrl && !process.env.WAYBILL_SQLITE_COMMIT_WINDOW_MS) process.env.WAYBILL_SQLITE_COMMIT_WINDOW_MS = '0';
  // Each process keeps its own renderings: by default they share the memory one process would take.
  if (!process.env.WAYBILL_RENDER_CACHE_MB) process.env.WAYBILL_RENDER_CACHE_MB = String(defaultRenderCacheMegabytes(processes));
  const code = await superviseHttpProcesses({
    processes,
    log,
    // Each process drains within the deadline and exits within its grace; one still running after both is killed.
    stopTimeoutMs: config.shutdownTimeoutMs + 2 * EXIT_GRACE_MS,
    onListening: (port) => {
      const url = `${config.tlsCertFile ? 'https' : 'http'}://${config.host}:${port}`;
      log.info({ url, processes, database: prepared.description }, 'waybill is serving');
      printBanner(url, prepared, prepared.adminTokenFile);
    },
  });
  process.exit(code);
}

program
  .command('start')
  .description('serve the API and run the background work in one process (embedded database by default)')
  .action(() => serve(true));
program
  .command('serve')
  .description('serve the HTTP API only; run `waybill worker` beside it')
  .option('--workers <count>', 'HTTP processes sharing the port, or "auto" for one per CPU (more than 1 needs REDIS_URL)', '1')
  .action((options: { workers: string }) => serveProcesses(options.workers));
program
  .command('worker')
  .description('run background work only: carrier polls, label generation, webhook delivery')
  .action(async () => {
    const config = loadConfig();
    const context = await createContext(config);
    context.worker.start();
    context.log.info({ worker: context.worker.id, database: context.database.description }, 'worker started');
    // Claiming stops at once; jobs in flight get until the deadline, then are left to their leases.
    exitOnStopSignal(context.log, config.shutdownTimeoutMs, async () => {
      if (await settlesBy(context.worker.stop(), Date.now() + config.shutdownTimeoutMs)) await context.close();
      else context.log.warn('jobs still running at the shutdown deadline; other workers take them over when their leases end');
    });
  });
program
  .command('migrate')
  .description('apply database migrations and exit')
  .action(async () => {
    const config = loadConfig();
    const handle = openDatabase({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      sqliteSynchronous: config.sqliteSynchronous,
      // Ended idle connections are replaced at the next query.
      onIdleConnectionError: () => {},
    });
    const applied = await migrateToLatest(handle.db, handle.dialect === 'postgres' ? 'public' : undefined);
    await handle.close();
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  });
registerAdminCommands(program);
registerImportCommands(program);
registerBackupCommand(program);
registerSimulateCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

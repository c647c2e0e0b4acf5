import { type Command, InvalidArgumentError } from 'commander';
import { AdminClient } from './admin-client.js';

interface Created {
  shipments: number;
  events: number;
  weeks: number;
  seed: string;
  from: string;
  to: string;
  source: string;
}

const positive = (value: string): number => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('Use a whole number of 1 or more.');
  return number;
};

/** `waybill simulate history|delete`: a simulated delivery history in an account, through the admin API. */
export function registerSimulateCommands(program: Command): void {
  const simulate = program.command('simulate').description('simulated delivery history for demos and evaluation');
  simulate
    .command('history')
    .description('create a reproducible simulated history of shipments and their events (source "simulation", never polled)')
    .requiredOption('--account <uuid>', 'account uuid')
    .requiredOption('--shipments <count>', 'how many shipments', positive)
    .option('--weeks <count>', 'over how many weeks, ending today', positive, 12)
    .option('--seed <seed>', 'the same seed gives the same history', '1')
    .option('--end <date>', 'the last day of the history, YYYY-MM-DD (default: today)')
    .option('--json', 'machine-readable output')
    .action(async (opts) => {
      const created = await AdminClient.fromEnvironment().call<Created>('POST', `/accounts/${opts.account}/simulated-history/`, {
        shipments: opts.shipments,
        weeks: opts.weeks,
        seed: opts.seed,
        ...(opts.end ? { end: opts.end } : {}),
      });
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        [
          `created ${created.shipments} simulated shipments (${created.events} events) over ${created.weeks} weeks, ${created.from} to ${created.to}, seed ${created.seed}`,
          `they have source "${created.source}" and are never polled; delete them with:`,
          `  npx waybill simulate delete --account ${opts.account}`,
          '',
        ].join('\n'),
      );
    });
  simulate
    .command('delete')
    .description("delete the account's simulated shipments (and their events), nothing else")
    .requiredOption('--account <uuid>', 'account uuid')
    .option('--json', 'machine-readable output')
    .action(async (opts) => {
      const result = await AdminClient.fromEnvironment().call<{ deleted: number }>(
        'DELETE',
        `/accounts/${opts.account}/simulated-history/`,
      );
      process.stdout.write(opts.json ? `${JSON.stringify(result, null, 2)}\n` : `deleted ${result.deleted} simulated shipments\n`);
    });
}

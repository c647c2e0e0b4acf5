import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { type ImportProgress, importFile } from './import-client.js';
import { serviceAddress } from './service-address.js';

/** A progress bar on stderr with rows/s and the time left. */
function progressBar(): ImportProgress {
  const bar = new cliProgress.SingleBar(
    {
      format:
        '{bar} {percentage}% | {value}/{total} rows | {rate} rows/s | ETA {eta_formatted} | created {created}, skipped {skipped}, errors {errors}',
      stream: process.stderr,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = 0;
  return {
    start: (total) => {
      started = Date.now();
      bar.start(total, 0, { rate: '0', created: 0, skipped: 0, errors: 0 });
    },
    advance: (done, totals) => {
      const seconds = (Date.now() - started) / 1000;
      bar.update(done, { ...totals, rate: seconds > 0 ? Math.round(done / seconds).toLocaleString('en') : '0' });
    },
    stop: () => bar.stop(),
  };
}

/** `waybill import shipments FILE.csv|FILE.jsonl`: a client of POST /v5/shipment/import/ (docs/import.md). */
export function registerImportCommands(program: Command): void {
  const imports = program.command('import').description('import data from files, through the merchant API');
  imports
    .command('shipments <file>')
    .description('create shipments from a CSV or JSON Lines file (WAYBILL_URL or PORT, WAYBILL_CLIENT_ID, WAYBILL_CLIENT_SECRET)')
    .option('--chunk <rows>', 'rows per request', (value) => Number.parseInt(value, 10), 1000)
    .option('--no-skip-existing', 'refuse rows whose shipment_id exists instead of skipping them')
    .option('--json', 'machine-readable output')
    .action(async (file: string, options: { chunk: number; skipExisting: boolean; json?: boolean }) => {
      const env = process.env;
      const clientId = env.WAYBILL_CLIENT_ID;
      const clientSecret = env.WAYBILL_CLIENT_SECRET;
      if (!clientId || !clientSecret) throw new Error('Set WAYBILL_CLIENT_ID and WAYBILL_CLIENT_SECRET (see `waybill credentials create`)');
      const result = await importFile({
        service: serviceAddress(env),
        clientId,
        clientSecret,
        file,
        chunkRows: options.chunk,
        skipExisting: options.skipExisting,
        progress: options.json || !process.stderr.isTTY ? undefined : progressBar(),
      });
      if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else {
        const lines = [
          `${result.rows} rows: ${result.created} created, ${result.skipped.length} skipped (already there), ${result.errors.length} refused`,
        ];
        for (const skipped of result.skipped.slice(0, 20))
          lines.push(`  skipped row ${skipped.row} (line ${skipped.line}): ${skipped.shipment_id}`);
        if (result.skipped.length > 20) lines.push(`  … ${result.skipped.length - 20} more skipped`);
        for (const error of result.errors.slice(0, 50)) {
          lines.push(
            `  row ${error.row} (line ${error.line})${error.shipment_id ? ` ${error.shipment_id}` : ''}: ${JSON.stringify(error.errors)}`,
          );
        }
        if (result.errors.length > 50) lines.push(`  … ${result.errors.length - 50} more refused (use --json for all)`);
        process.stdout.write(`${lines.join('\n')}\n`);
      }
      if (result.errors.length > 0) process.exitCode = 2;
    });
}

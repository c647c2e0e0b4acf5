import { type Command, InvalidArgumentError } from 'commander';
import { AdminClient } from './admin-client.js';

function print(value: unknown, json: boolean, human: () => string): void {
  process.stdout.write(`${json ? JSON.stringify(value, null, 2) : human()}\n`);
}

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const onOff = (value: string): boolean => {
  if (value === 'on' || value === 'off') return value === 'on';
  throw new InvalidArgumentError('Use on or off.');
};

/** `waybill accounts|credentials|carriers …`: operators' commands, all through the admin API. */
export function registerAdminCommands(program: Command): void {
  const accounts = program.command('accounts').description('manage accounts');
  accounts
    .command('create')
    .requiredOption('--name <name>', 'account name')
    .option('--features <list>', 'comma-separated: returns,booking,preprinted_return_labels', list)
    .option('--json', 'machine-readable output')
    .action(async (opts) => {
      const account = await AdminClient.fromEnvironment().call<{ account_uuid: string }>('POST', '/accounts/', {
        name: opts.name,
        features: opts.features ?? [],
      });
      print(account, opts.json, () => `account ${account.account_uuid} created`);
    });
  accounts
    .command('list')
    .option('--json', 'machine-readable output')
    .action(async (opts) => {
      const rows = await AdminClient.fromEnvironment().call<Array<{ account_uuid: string; name: string; features: string[] }>>(
        'GET',
        '/accounts/',
      );
      print(rows, opts.json, () => rows.map((r) => `${r.account_uuid}  ${r.name}  [${r.features.join(',')}]`).join('\n'));
    });

  accounts
    .command('update')
    .requiredOption('--account <uuid>', 'account uuid')
    .option('--name <name>', 'new account name')
    .option('--features <list>', 'comma-separated, replaces the current list', list)
    .option('--strict-fields <on|off>', 'on: refuse unknown request fields (4030); off: ignore them', onOff)
    .option('--json', 'machine-readable output')
    .action(async (opts) => {
      const changes = { name: opts.name, features: opts.features, strict_fields: opts.strictFields };
      const account = await AdminClient.fromEnvironment().call<{ account_uuid: string; strict_fields: boolean }>(
        'PATCH',
        `/accounts/${opts.account}/`,
        Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
      );
      print(account, opts.json, () => `account ${account.account_uuid} updated (strict fields ${account.strict_fields ? 'on' : 'off'})`);
    });

  const credentials = program.command('credentials').description('manage API credentials');
  credentials
    .command('create')
    .requiredOption('--account <uuid>', 'account uuid')
    .option('--json', 'machine-readable output')
    .action(async (opts) => {
      const created = await AdminClient.fromEnvironment().call<{ client_id: string; client_secret: string }>(
        'POST',
        `/accounts/${opts.account}/credentials/`,
      );
      print(
        created,
        opts.json,
        () => `client_id:     ${created.client_id}\nclient_secret: ${created.client_secret}\n(the secret is shown once)`,
      );
    });
  credentials
    .command('revoke')
    .requiredOption('--account <uuid>', 'account uuid')
    .requiredOption('--client-id <id>', 'client id to revoke')
    .action(async (opts) => {
      await AdminClient.fromEnvironment().call('DELETE', `/accounts/${opts.account}/credentials/${opts.clientId}/`);
      process.stdout.write(`credentials ${opts.clientId} revoked\n`);
    });

  const carriers = program.command('carriers').description('manage carrier configurations');
  carriers
    .command('add')
    .requiredOption('--account <uuid>', 'account uuid')
    .requiredOption('--reference <carrier_reference>', 'carrier_reference, unique in the account')
    .requiredOption('--carrier-id <id>', '6-character carrier id, e.g. sandbx')
    .option('--booking <list>', 'comma-separated: outbound,return', list)
    .option('--fallback', "the account's fallback: tracks the numbers no other configuration claims (aggregators)")
    .option('--settings <json>', 'carrier settings as JSON (stored encrypted)')
    .option('--json', 'machine-readable output')
    .action(async (opts) => {
      const created = await AdminClient.fromEnvironment().call('POST', `/accounts/${opts.account}/carrier-configs/`, {
        carrier_reference: opts.reference,
        carrier_id: opts.carrierId,
        booking: opts.booking ?? [],
        ...(opts.fallback ? { fallback: true } : {}),
        ...(opts.settings ? { settings: JSON.parse(opts.settings) } : {}),
      });
      print(created, opts.json, () => `carrier configuration ${opts.reference} added`);
    });
  carriers
    .command('update')
    .description('change a configuration: booking kinds, or settings as a merge patch (rotate a secret by sending only it; null removes)')
    .requiredOption('--account <uuid>', 'account uuid')
    .requiredOption('--reference <carrier_reference>', 'the configuration to change')
    .option('--booking <list>', 'comma-separated: outbound,return (replaces the current kinds)', list)
    .option('--fallback <on|off>', "whether it is the account's fallback (aggregators)", onOff)
    .option('--settings <json>', 'settings to change, as JSON (stored encrypted)')
    .option('--json', 'machine-readable output')
    .action(async (opts) => {
      const updated = await AdminClient.fromEnvironment().call(
        'PATCH',
        `/accounts/${opts.account}/carrier-configs/${encodeURIComponent(opts.reference)}/`,
        {
          ...(opts.booking ? { booking: opts.booking } : {}),
          ...(opts.fallback !== undefined ? { fallback: opts.fallback } : {}),
          ...(opts.settings ? { settings: JSON.parse(opts.settings) } : {}),
        },
      );
      print(updated, opts.json, () => `carrier configuration ${opts.reference} updated`);
    });
  carriers
    .command('list')
    .description("every carrier this service supports; with --account, that account's configurations")
    .option('--account <uuid>', "list this account's configurations instead")
    .option('--json', 'machine-readable output')
    .action(async (opts) => {
      const client = AdminClient.fromEnvironment();
      if (!opts.account) {
        const entries = await client.call<CatalogueRow[]>('GET', '/carriers/');
        print(entries, opts.json, () => entries.map(describeCarrier).join('\n'));
        return;
      }
      const rows = await client.call<Array<{ carrier_reference: string; carrier: { id: string } }>>(
        'GET',
        `/accounts/${opts.account}/carrier-configs/`,
      );
      print(rows, opts.json, () => rows.map((r) => `${r.carrier_reference}  ${r.carrier.id}`).join('\n'));
    });
}

interface CatalogueRow {
  id: string;
  name: string;
  capabilities: Record<string, boolean>;
  environments: string[];
  settings_schema: { properties?: Record<string, { 'x-secret'?: boolean }>; required?: string[] };
  operator_settings: string[];
  products: Array<{ code: string; name: string }>;
  max_parcels: number | null;
  booking: { cancel: string } | null;
}

/** `upsglb  UPS  tracking  production,sandbox  settings: client_id*, client_secret* (secret), environment` */
function describeCarrier(entry: CatalogueRow): string {
  const can = Object.entries(entry.capabilities)
    .filter(([, on]) => on)
    .map(([name]) => name)
    .join(',');
  const required = new Set(entry.settings_schema.required ?? []);
  const settings = Object.entries(entry.settings_schema.properties ?? {})
    .map(([name, field]) => {
      const provided = entry.operator_settings.includes(name) ? ' (set by operator)' : '';
      return `${name}${required.has(name) ? '*' : ''}${field['x-secret'] ? ' (secret)' : ''}${provided}`;
    })
    .join(', ');
  const products = entry.products.length ? `  products: ${entry.products.map((p) => `${p.code} (${p.name})`).join(', ')}` : '';
  const booking = entry.booking ? `  parcels: up to ${entry.max_parcels}  cancel: ${entry.booking.cancel}` : '';
  return `${entry.id}  ${entry.name.padEnd(28)} ${can.padEnd(26)} ${entry.environments.join(',').padEnd(19)} settings: ${settings}${products}${booking}`;
}

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAdminCommands } from '../../src/cli/admin.commands.js';
import { ServiceUnreachableError, serviceAddress } from '../../src/cli/service-address.js';

const root = path.resolve(import.meta.dirname, '../..');

function waybill(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), ...args], {
    cwd: root,
    env: { ...process.env, WAYBILL_URL: '', PORT: '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** A port that was free a moment ago: nothing listens on it. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the command-line clients when nothing answers at the service address', () => {
  let port: number;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-unreachable-'));
  beforeAll(async () => {
    port = await closedPort();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const expectHelp = (stderr: string, url: string) => {
    expect(stderr).toContain(`cannot reach the Waybill service at ${url} (`);
    expect(stderr).toContain('ECONNREFUSED');
    expect(stderr).toContain('WAYBILL_URL=http://host:port');
    expect(stderr).toContain('PORT=port');
    expect(stderr).not.toMatch(/^fetch failed$/m);
  };

  it('accounts create on this machine names the address tried from PORT and how to point elsewhere; exits 1', () => {
    const run = waybill(['accounts', 'create', '--name', 'Shop'], { PORT: String(port), WAYBILL_ADMIN_TOKEN: 'any' });
    expect(run.status).toBe(1);
    expectHelp(run.stderr, `http://127.0.0.1:${port}`);
    expect(run.stderr).toContain('That is this machine on PORT (WAYBILL_URL is not set).');
    expect(run.stdout).toBe('');
  });

  it('with WAYBILL_URL naming a host (localhost), says that address is WAYBILL_URL’s', () => {
    const url = `http://localhost:${port}`;
    const run = waybill(['accounts', 'list'], { WAYBILL_URL: `${url}/`, WAYBILL_ADMIN_TOKEN: 'any' });
    expect(run.status).toBe(1);
    expectHelp(run.stderr, url);
    expect(run.stderr).toContain('That address is the one in WAYBILL_URL.');
  });

  it('import shipments says so at once, without retrying, and exits 1', () => {
    const file = path.join(dir, 'ship.csv');
    fs.writeFileSync(file, 'shipment_id\nS-1\n');
    const started = Date.now();
    const run = waybill(['import', 'shipments', file], {
      WAYBILL_URL: `http://localhost:${port}`,
      WAYBILL_CLIENT_ID: 'id',
      WAYBILL_CLIENT_SECRET: 'secret',
    });
    expect(run.status).toBe(1);
    expectHelp(run.stderr, `http://localhost:${port}`);
    // The retries for a service restarting mid-import would wait 7.5 s in all.
    expect(Date.now() - started).toBeLessThan(7_000);
  });

  it('reads an empty PORT as the default port, and never prints the password of a WAYBILL_URL', () => {
    expect(serviceAddress({ PORT: '' })).toEqual({ url: 'http://127.0.0.1:8080', origin: 'default' });
    const address = serviceAddress({ WAYBILL_URL: 'http://ops:s3cret-pass@localhost:1/' });
    const error = new ServiceUnreachableError(address, new Error('connect ECONNREFUSED'));
    expect(error.message).toContain('http://localhost:1 ');
    expect(error.message).not.toContain('s3cret-pass');
  });

  it('refuses a WAYBILL_URL without http:// before trying it', () => {
    const run = waybill(['accounts', 'list'], { WAYBILL_URL: `localhost:${port}`, WAYBILL_ADMIN_TOKEN: 'any' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`WAYBILL_URL (localhost:${port}) does not make an http:// or https:// address`);
  });

  it('every admin command reports the address it tried', async () => {
    vi.stubEnv('WAYBILL_URL', `http://127.0.0.1:${port}`);
    vi.stubEnv('WAYBILL_ADMIN_TOKEN', 'any');
    try {
      const account = ['--account', '00000000-0000-4000-8000-000000000000'];
      const commands = [
        ['accounts', 'create', '--name', 'Shop'],
        ['accounts', 'list'],
        ['accounts', 'update', ...account, '--name', 'Shop'],
        ['credentials', 'create', ...account],
        ['credentials', 'revoke', ...account, '--client-id', 'abc'],
        ['carriers', 'add', ...account, '--reference', 'r', '--carrier-id', 'sandbx'],
        ['carriers', 'update', ...account, '--reference', 'r', '--booking', 'outbound'],
        ['carriers', 'list'],
        ['carriers', 'list', ...account],
      ];
      for (const args of commands) {
        const program = new Command('waybill').exitOverride().configureOutput({ writeErr: () => {} });
        registerAdminCommands(program);
        const run = program.parseAsync(['node', 'waybill', ...args]);
        await expect(run, args.join(' ')).rejects.toThrow(ServiceUnreachableError);
        await expect(run, args.join(' ')).rejects.toThrow(`at http://127.0.0.1:${port} (`);
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

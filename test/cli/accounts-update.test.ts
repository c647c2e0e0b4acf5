import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAdminCommands } from '../../src/cli/admin.commands.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('waybill accounts update (client of the admin API)', () => {
  let t: TestApp;
  let acct: TestAccount;
  const saved = { url: process.env.WAYBILL_URL, token: process.env.WAYBILL_ADMIN_TOKEN };
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account();
    process.env.WAYBILL_URL = await t.app.listen({ port: 0, host: '127.0.0.1' });
    process.env.WAYBILL_ADMIN_TOKEN = t.adminToken;
  });
  afterAll(async () => {
    for (const [key, value] of [
      ['WAYBILL_URL', saved.url],
      ['WAYBILL_ADMIN_TOKEN', saved.token],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await t.close();
  });

  /** Runs `waybill …args` in this process and returns what it printed. */
  const waybill = async (...args: string[]) => {
    const program = new Command('waybill').exitOverride().configureOutput({ writeErr: () => {} });
    registerAdminCommands(program);
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    try {
      await program.parseAsync(['node', 'waybill', ...args]);
    } finally {
      write.mockRestore();
    }
    return out.join('');
  };
  const strictFields = async () => (await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/`)).json().strict_fields;

  it('turns strict fields on and off', async () => {
    expect(await strictFields()).toBe(false);
    expect(await waybill('accounts', 'update', '--account', acct.accountUuid, '--strict-fields', 'on')).toBe(
      `account ${acct.accountUuid} updated (strict fields on)\n`,
    );
    expect(await strictFields()).toBe(true);
    const json = JSON.parse(await waybill('accounts', 'update', '--account', acct.accountUuid, '--strict-fields', 'off', '--json'));
    expect(json).toMatchObject({ account_uuid: acct.accountUuid, strict_fields: false });
    expect(await strictFields()).toBe(false);
  });

  it('changes only what it is given, and refuses a value other than on or off', async () => {
    await waybill('accounts', 'update', '--account', acct.accountUuid, '--name', 'Renamed shop');
    expect((await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/`)).json()).toMatchObject({
      name: 'Renamed shop',
      strict_fields: false,
    });
    await expect(waybill('accounts', 'update', '--account', acct.accountUuid, '--strict-fields', 'yes')).rejects.toThrow(/on or off/);
    expect(await strictFields()).toBe(false);
  });
});

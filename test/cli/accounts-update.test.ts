import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAdminCommands } from '../../src/cli/admin.commands.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { pointCliAt, runCli } from './support.js';

describe('waybill accounts update (client of the admin API)', () => {
  let t: TestApp;
  let acct: TestAccount;
  let restoreEnv: () => void;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account();
    restoreEnv = pointCliAt(await t.app.listen({ port: 0, host: '127.0.0.1' }), t.adminToken);
  });
  afterAll(async () => {
    restoreEnv();
    await t.close();
  });

  const waybill = (...args: string[]) => runCli(registerAdminCommands, ...args);
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

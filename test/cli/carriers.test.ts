import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAdminCommands } from '../../src/cli/admin.commands.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { pointCliAt, runCli } from './support.js';

describe('waybill carriers list|add|update (clients of the admin API)', () => {
  let t: TestApp;
  let acct: TestAccount;
  let restoreEnv: () => void;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_CARRIER_DHLGLB_API_KEY: 'operator-dhl-key' } });
    acct = await t.account();
    restoreEnv = pointCliAt(await t.app.listen({ port: 0, host: '127.0.0.1' }), t.adminToken);
  });
  afterAll(async () => {
    restoreEnv();
    await t.close();
  });

  const waybill = (...args: string[]) => runCli(registerAdminCommands, ...args);

  it('lists every carrier with what it does and what it needs, the operator-provided settings flagged', async () => {
    const listed = await waybill('carriers', 'list');
    const ids = [
      'sandbx',
      'upsglb',
      'dhlglb',
      'fdxglb',
      'postnl',
      'lapost',
      'glsglb',
      'uspsus',
      'dhlpde',
      'inpost',
      'postnd',
      'royalm',
      'dpdeur',
    ];
    for (const id of [...ids, 'canpos', 'auspos', 'ship24', 'trk17t']) expect(listed).toContain(id);
    const ups = listed.split('\n').find((line) => line.startsWith('upsglb')) ?? '';
    expect(ups).toContain('tracking');
    expect(ups).toContain('client_id*');
    expect(ups).toContain('client_secret* (secret)');
    // A booking carrier says how many parcels it books at once, and how its bookings are cancelled.
    const postnl = listed.split('\n').find((line) => line.startsWith('postnl')) ?? '';
    expect(postnl).toContain('parcels: up to 10  cancel: PostNL has no cancel call');
    expect(listed.split('\n').find((line) => line.startsWith('dhlglb'))).not.toContain('parcels:');
    const dhl = listed.split('\n').find((line) => line.startsWith('dhlglb')) ?? '';
    expect(dhl).toContain('api_key* (secret) (set by operator)');
    expect(listed).not.toContain('operator-dhl-key');
    const json = JSON.parse(await waybill('carriers', 'list', '--json'));
    expect(json.find((c: { id: string }) => c.id === 'upsglb').environments).toEqual(['production', 'sandbox']);
  });

  it('refuses a UPS configuration without client_secret, naming settings.client_secret; stores nothing', async () => {
    await expect(
      waybill(
        'carriers',
        'add',
        '--account',
        acct.accountUuid,
        '--reference',
        'ups',
        '--carrier-id',
        'upsglb',
        '--settings',
        '{"client_id":"abc"}',
      ),
    ).rejects.toThrow(/settings\.client_secret: Required/);
    expect(await waybill('carriers', 'list', '--account', acct.accountUuid)).toBe('\n');
  });

  it('adds it with both credentials, shows the secret masked, and rotates it with update', async () => {
    const added = JSON.parse(
      await waybill(
        'carriers',
        'add',
        '--account',
        acct.accountUuid,
        '--reference',
        'ups',
        '--carrier-id',
        'upsglb',
        '--settings',
        '{"client_id":"abc","client_secret":"first-secret","environment":"sandbox"}',
        '--json',
      ),
    );
    expect(added.settings).toEqual({ client_id: 'abc', client_secret: '********', environment: 'sandbox' });
    expect(
      await waybill(
        'carriers',
        'update',
        '--account',
        acct.accountUuid,
        '--reference',
        'ups',
        '--settings',
        '{"client_secret":"second-secret"}',
      ),
    ).toBe('carrier configuration ups updated\n');
    const account = await t.context.accounts.require(acct.accountUuid);
    expect((await t.context.carrierConfigs.resolve(account.id, 'ups'))?.settings.client_secret).toBe('second-secret');
    await expect(
      waybill('carriers', 'update', '--account', acct.accountUuid, '--reference', 'ups', '--settings', '{"environment":"staging"}'),
    ).rejects.toThrow(/settings\.environment/);
    // A configuration without its own DHL key uses the operator's.
    await waybill('carriers', 'add', '--account', acct.accountUuid, '--reference', 'dhl', '--carrier-id', 'dhlglb');
    expect(await waybill('carriers', 'list', '--account', acct.accountUuid)).toBe('dhl  dhlglb\nups  upsglb\n');
  });
});

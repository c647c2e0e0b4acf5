import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('carrier configuration settings: checked against the adapter, secrets masked, rotated with PATCH', () => {
  let t: TestApp;
  let accountUuid: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_CARRIER_SANDBX_API_KEY: 'operator-provided-key' } });
    accountUuid = (await t.account()).accountUuid;
  });
  afterAll(() => t.close());

  const configs = `/admin/v1/accounts/${'{uuid}'}/carrier-configs/`;
  const url = (suffix = '') => `${configs.replace('{uuid}', accountUuid)}${suffix}`;

  it('refuses a setting the carrier does not know, or a malformed one, with 4030 naming settings.<field>; nothing is stored', async () => {
    const unknown = await t.admin('POST', url(), { carrier_reference: 'sb-1', carrier_id: 'sandbx', settings: { colour: 'red' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().api_response).toBe('4030');
    expect(unknown.json().errors.settings.colour[0]).toMatch(/Unknown setting/);
    const malformed = await t.admin('POST', url(), { carrier_reference: 'sb-1', carrier_id: 'sandbx', settings: { step_seconds: -4 } });
    expect(malformed.json().errors.settings.step_seconds[0]).toMatch(/Must be > 0/);
    const secret = await t.admin('POST', url(), { carrier_reference: 'sb-1', carrier_id: 'sandbx', settings: { api_key: 42 } });
    expect(secret.json().errors.settings.api_key).toEqual(['Invalid value.']);
    expect((await t.admin('GET', url())).json()).toEqual([]);
  });

  it('shows secrets masked, to operators and merchants alike', async () => {
    const created = await t.admin('POST', url(), {
      carrier_reference: 'sb-2',
      carrier_id: 'sandbx',
      settings: { api_key: 'first-key-value', step_seconds: 30 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().settings).toEqual({ api_key: '********', step_seconds: 30 });
    expect(created.body).not.toContain('first-key-value');
    const listed = await t.admin('GET', url());
    expect(listed.body).not.toContain('first-key-value');
  });

  it('PATCH rotates a secret alone, keeps the other settings, removes one with null, and changes booking kinds', async () => {
    const rotated = await t.admin('PATCH', url('sb-2/'), { settings: { api_key: 'second-key-value' } });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json().settings).toEqual({ api_key: '********', step_seconds: 30 });
    const account = await t.context.accounts.require(accountUuid);
    expect((await t.context.carrierConfigs.resolve(account.id, 'sb-2'))?.settings).toEqual({
      api_key: 'second-key-value',
      step_seconds: 30,
    });

    const removed = await t.admin('PATCH', url('sb-2/'), { settings: { step_seconds: null }, booking: ['return'] });
    expect(removed.json().settings).toEqual({ api_key: '********' });
    expect(removed.json().booking).toEqual({ outbound: false, return: true });
    expect(removed.json().updated_date >= removed.json().created_date).toBe(true);
  });

  it('PATCH refuses a bad value with 4030 and changes nothing; an unknown configuration is 404; an empty body is 400', async () => {
    const bad = await t.admin('PATCH', url('sb-2/'), { settings: { step_seconds: 'soon' }, booking: ['outbound'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.settings.step_seconds).toBeDefined();
    const current = (await t.admin('GET', url())).json().find((c: { carrier_reference: string }) => c.carrier_reference === 'sb-2');
    expect(current.booking).toEqual({ outbound: false, return: true });
    expect((await t.admin('PATCH', url('nope/'), { booking: [] })).statusCode).toBe(404);
    expect((await t.admin('PATCH', url('sb-2/'), {})).statusCode).toBe(400);
  });

  it('GET /admin/v1/carriers/ lists every adapter with its settings schema (secrets marked), environments and operator settings', async () => {
    const res = await t.admin('GET', '/admin/v1/carriers/');
    expect(res.statusCode, res.body).toBe(200);
    const sandbox = res.json().find((c: { id: string }) => c.id === 'sandbx');
    expect(sandbox).toMatchObject({ id: 'sandbx', name: 'Waybill Sandbox', environments: ['sandbox'], operator_settings: ['api_key'] });
    expect(sandbox.capabilities).toEqual({ tracking: true, booking: true, pudo: true, push: true });
    expect(sandbox).toMatchObject({ products: [], max_parcels: 10, booking: { returns: true, lost_answer_lookup: true } });
    const tracksOnly = res.json().find((c: { capabilities: { booking: boolean } }) => !c.capabilities.booking);
    expect(tracksOnly).toMatchObject({ products: [], max_parcels: null, booking: null });
    expect(sandbox.settings_schema.properties.api_key['x-secret']).toBe(true);
    expect(sandbox.settings_schema.properties.step_seconds['x-secret']).toBeUndefined();
    expect(res.body).not.toContain('operator-provided-key');
    for (const entry of res.json()) expect(entry.id).toMatch(/^[a-z0-9]{6}$/);
    // Sixteen real carriers besides the sandbox, each with a settings schema of its own.
    const real = res.json().filter((c: { id: string }) => c.id !== 'sandbx');
    expect(real.map((c: { id: string }) => c.id).sort()).toEqual([
      'auspos',
      'canpos',
      'dhlglb',
      'dhlpde',
      'dpdeur',
      'fdxglb',
      'glsglb',
      'inpost',
      'lapost',
      'postnd',
      'postnl',
      'royalm',
      'ship24',
      'trk17t',
      'upsglb',
      'uspsus',
    ]);
    for (const entry of real) expect(Object.keys(entry.settings_schema.properties).length, entry.id).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp, usingPostgres } from '../helpers/app.js';
import { Receiver } from './receiver.js';

/**
 * A create announces its shipment to the endpoints of its account as they are when it commits (the transactional
 * outbox, src/domain/webhooks/webhook-outbox.ts): an endpoint added, disabled or deleted, here or by another process
 * on the same file, counts from the next create, whatever the process read or rendered before.
 */
describe('the endpoints a create announces to', () => {
  let t: TestApp;
  let acct: TestAccount;
  let other: TestAccount;
  const here = new Receiver();
  const there = new Receiver();

  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    acct = await t.account();
    other = await t.account();
    await here.start();
    await there.start();
  });
  afterAll(async () => {
    await t.close();
    await here.stop();
    await there.stop();
  });

  /** Creates a shipment, reads it (as merchants do, which keeps its rendering), and answers its id. */
  const create = async (account: TestAccount, shipmentId: string): Promise<string> => {
    const created = await t.call(account.token, 'POST', '/v5/shipment/', { shipment_id: shipmentId });
    expect(created.statusCode, created.body).toBe(200);
    const uuid = created.json().data.shipment_uuid as string;
    expect((await t.call(account.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid: uuid })).statusCode).toBe(200);
    return shipmentId;
  };

  /** The shipment ids each receiver was told were created, after the worker delivered what was due. */
  const announced = async (): Promise<{ here: string[]; there: string[] }> => {
    for (let i = 0; i < 4; i++) {
      await t.context.worker.drain();
      t.clock.advance(1_000);
    }
    const ids = (receiver: Receiver) => receiver.ofType('shipment.created').map((message) => message.json.data.shipment_id as string);
    return { here: ids(here), there: ids(there) };
  };

  it('counts an endpoint added after creates from the next create on', async () => {
    await create(acct, 'KE-1');
    await create(acct, 'KE-2');
    const added = await t.call(acct.token, 'POST', '/v5/webhooks/', { url: here.url });
    expect(added.statusCode, added.body).toBe(201);
    await create(acct, 'KE-3');
    expect((await announced()).here).toEqual(['KE-3']);
  });

  it("keeps another account out: none of its creates reach this account's endpoints", async () => {
    await create(other, 'KE-OTHER-1');
    await create(acct, 'KE-4');
    expect((await announced()).here).toEqual(['KE-3', 'KE-4']);
  });

  it('stops at once for an endpoint disabled, and starts again once enabled', async () => {
    const [endpoint] = (await t.call(acct.token, 'GET', '/v5/webhooks/')).json().data;
    const disabled = await t.call(acct.token, 'PATCH', `/v5/webhooks/${endpoint.webhook_uuid}/`, { enabled: false });
    expect(disabled.statusCode, disabled.body).toBe(200);
    await create(acct, 'KE-5');
    expect((await announced()).here).toEqual(['KE-3', 'KE-4']);
    const enabled = await t.call(acct.token, 'PATCH', `/v5/webhooks/${endpoint.webhook_uuid}/`, { enabled: true });
    expect(enabled.statusCode, enabled.body).toBe(200);
    await create(acct, 'KE-6');
    expect((await announced()).here).toEqual(['KE-3', 'KE-4', 'KE-6']);
  });

  it.skipIf(usingPostgres)('counts an endpoint another process added to the same file from the next create on', async () => {
    await create(acct, 'KE-7');
    const writer = await createTestApp({ env: { WAYBILL_DATA_DIR: t.config.dataDir, WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    try {
      const added = await writer.call(acct.token, 'POST', '/v5/webhooks/', { url: there.url });
      expect(added.statusCode, added.body).toBe(201);
    } finally {
      await writer.close();
    }
    await create(acct, 'KE-8');
    expect(await announced()).toEqual({ here: ['KE-3', 'KE-4', 'KE-6', 'KE-7', 'KE-8'], there: ['KE-8'] });
  });

  it('stops at once for an endpoint deleted', async () => {
    const endpoints = (await t.call(acct.token, 'GET', '/v5/webhooks/')).json().data as Array<{ webhook_uuid: string; url: string }>;
    const gone = endpoints.find((endpoint) => endpoint.url === here.url) as { webhook_uuid: string };
    const deleted = await t.call(acct.token, 'DELETE', `/v5/webhooks/${gone.webhook_uuid}/`);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    await create(acct, 'KE-9');
    const after = await announced();
    expect(after.here).not.toContain('KE-9');
    expect(after.there).toEqual(usingPostgres ? [] : ['KE-8', 'KE-9']);
  });
});

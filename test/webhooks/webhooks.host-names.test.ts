import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { Receiver } from './receiver.js';

/** Endpoints addressed by host name: the connection resolves the name through the guarded lookup. */
describe('webhook delivery to a host name', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await new Receiver().start();
  });
  afterAll(() => receiver.stop());

  describe('with private addresses allowed', () => {
    let t: TestApp;
    let acct: TestAccount;
    beforeAll(async () => {
      t = await createTestApp({ env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
      acct = await t.account();
    });
    afterAll(() => t.close());

    it('delivers a signed event to http://localhost:PORT/', async () => {
      const url = `http://localhost:${receiver.port}/hooks`;
      const created = await t.as(acct)('POST', '/v5/webhooks/', { url });
      expect(created.statusCode, created.body).toBe(201);
      const { secret, webhook_uuid } = created.json().data;
      await t.as(acct)('POST', '/v5/shipment/', { shipment_id: 'HOST-1' });
      await t.context.worker.drain();

      const log = (await t.as(acct)('GET', `/v5/webhooks/${webhook_uuid}/deliveries/`)).json().data;
      expect(log[0], JSON.stringify(log)).toMatchObject({ status_code: 200, error: null });
      const message = receiver.received.find((r) => r.json.data?.shipment_id === 'HOST-1');
      expect(message?.headers.host).toBe(`localhost:${receiver.port}`);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(t.clock.now());
      try {
        const verified = new Webhook(secret).verify(message!.body, {
          'webhook-id': message!.headers['webhook-id'] as string,
          'webhook-timestamp': message!.headers['webhook-timestamp'] as string,
          'webhook-signature': message!.headers['webhook-signature'] as string,
        });
        expect(verified).toMatchObject({ type: 'shipment.created', data: { shipment_id: 'HOST-1' } });
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('with private addresses refused', () => {
    let t: TestApp;
    let acct: TestAccount;
    beforeAll(async () => {
      t = await createTestApp();
      acct = await t.account();
    });
    afterAll(() => t.close());

    it('refuses at delivery a name that resolves to a private address', async () => {
      const account = await t.context.repos.accounts.findByUuid(acct.accountUuid);
      // Stored directly, as if the name had resolved to a public address at registration.
      const now = t.clock.now().toISOString();
      const row = await t.context.repos.webhooks.insertEndpoint({
        account_id: account!.id,
        webhook_uuid: '6f1c1d1e-0000-4000-8000-000000000002',
        url: `https://localhost:${receiver.port}/hooks`,
        format: 'v5.2',
        events: null,
        enabled: 1,
        secret_sealed: t.context.secrets.encrypt('whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0'),
        created_at: now,
        updated_at: now,
      });
      const before = receiver.received.length;
      await t.as(acct)('POST', '/v5/shipment/', { shipment_id: 'HOST-PRIVATE' });
      await t.context.worker.drain();

      expect(receiver.received).toHaveLength(before);
      const log = (await t.as(acct)('GET', `/v5/webhooks/${row.webhook_uuid}/deliveries/`)).json().data;
      expect(log[0].error).toBe('EBLOCKED: refused: localhost resolves to a private or reserved address');
    });
  });
});

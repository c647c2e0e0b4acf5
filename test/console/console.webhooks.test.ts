import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { Receiver } from '../webhooks/receiver.js';
import { signIn, visibleText } from './console-client.js';

describe('console: webhook delivery log', () => {
  let t: TestApp;
  let acct: TestAccount;
  let other: TestAccount;
  let receiver: Receiver;
  let webhookUuid: string;
  let theirWebhook: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    acct = await t.account();
    other = await t.account();
    receiver = await new Receiver().start();
    webhookUuid = (await t.call(acct.token, 'POST', '/v5/webhooks/', { url: receiver.url })).json().data.webhook_uuid;
    theirWebhook = (await t.call(other.token, 'POST', '/v5/webhooks/', { url: `${receiver.url}/theirs` })).json().data.webhook_uuid;
    receiver.status = 500;
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'WH-CONSOLE' });
    for (let i = 0; i < 4; i++) {
      await t.context.worker.drain();
      t.clock.advance(1_000);
    }
    receiver.status = 200;
    t.clock.advance(6_000);
    await t.context.worker.drain();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('lists the endpoints and shows each one’s delivery attempts, newest first, as the API’s log', async () => {
    const browser = await signIn(t, acct);
    const list = await browser.get('/console/webhooks/');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(receiver.url);
    expect(list.body).not.toContain(`${receiver.url}/theirs`);
    expect(list.body).toContain(`href="/console/webhooks/${webhookUuid}/"`);

    const apiLog = (await t.call(acct.token, 'GET', `/v5/webhooks/${webhookUuid}/deliveries/`)).json().data as Array<{
      event_id: string;
      status_code: number;
      type: string;
    }>;
    expect(apiLog.map((a) => a.status_code)).toEqual([200, 500]);
    const page = await browser.get(`/console/webhooks/${webhookUuid}/`);
    expect(page.statusCode).toBe(200);
    const rows = page.body.slice(page.body.indexOf('<tbody>')).split('</tr>').slice(0, -1);
    expect(rows).toHaveLength(apiLog.length);
    rows.forEach((row, i) => {
      expect(row).toContain(apiLog[i].event_id);
      expect(row).toContain(`>${apiLog[i].status_code}<`);
      expect(row).toContain(apiLog[i].type);
    });
    expect(visibleText(page.body)).toContain('shipment.created');
  });

  it('answers another account’s endpoint with the not-found page', async () => {
    const browser = await signIn(t, acct);
    for (const path of [`/console/webhooks/${theirWebhook}/`, `/console/webhooks/${crypto.randomUUID()}/`, '/console/webhooks/nope/']) {
      const res = await browser.get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.body).not.toContain('/theirs');
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { Receiver } from './receiver.js';

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('deliveries in flight to one endpoint', () => {
  let t: TestApp;
  let acct: TestAccount;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    acct = await t.account();
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('are at most 16 per worker; the others wait without using an attempt', async () => {
    const created = await t.as(acct)('POST', '/v5/webhooks/', { url: receiver.url });
    expect(created.statusCode, created.body).toBe(201);
    for (let i = 0; i < 40; i++) await t.as(acct)('POST', '/v5/shipment/', { shipment_id: `FLIGHT-${i}` });

    receiver.holding = true;
    // One round claims 32 jobs (the worker's slots): 16 are sent, 16 wait their turn in memory.
    const round = t.context.worker.runOnce();
    await until(() => receiver.received.length >= 16, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.maxOpen).toBe(16);
    expect(receiver.received).toHaveLength(16);
    receiver.release();
    await round;
    expect(receiver.received).toHaveLength(32);

    for (let i = 0; i < 4; i++) {
      t.clock.advance(1_000);
      await t.context.worker.drain();
    }
    expect(new Set(receiver.received.map((r) => r.json.data.shipment_id)).size).toBe(40);
    const log = (await t.as(acct)('GET', `/v5/webhooks/${created.json().data.webhook_uuid}/deliveries/`)).json().data;
    expect(log).toHaveLength(40);
    expect(log.every((attempt: { status_code: number }) => attempt.status_code === 200)).toBe(true);
  });
});

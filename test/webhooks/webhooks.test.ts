import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { type Received, Receiver } from './receiver.js';

/** Verifies as a receiver would at the moment of sending: the library checks the timestamp against its clock. */
function verifyAt(at: Date, secret: string, message: Received): Record<string, any> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
  try {
    return new Webhook(secret).verify(message.body, {
      'webhook-id': message.headers['webhook-id'] as string,
      'webhook-timestamp': message.headers['webhook-timestamp'] as string,
      'webhook-signature': message.headers['webhook-signature'] as string,
    }) as Record<string, any>;
  } finally {
    vi.useRealTimers();
  }
}

describe('webhooks', () => {
  let t: TestApp;
  let acct: TestAccount;
  let receiver: Receiver;
  let secret: string;
  let webhookUuid: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    acct = await t.account({ features: ['returns', 'booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
    receiver = await new Receiver().start();
    const created = await t.call(acct.token, 'POST', '/v5/webhooks/', { url: receiver.url });
    expect(created.statusCode, created.body).toBe(201);
    secret = created.json().data.secret;
    webhookUuid = created.json().data.webhook_uuid;
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });
  afterEach(() => {
    receiver.status = 200;
  });

  // Deliveries beyond an endpoint's in-flight limit wait a second of (manual) time; let a few seconds pass.
  const drain = async () => {
    for (let i = 0; i < 4; i++) {
      await t.context.worker.drain();
      t.clock.advance(1_000);
    }
  };

  it('registers an endpoint and shows its secret once', async () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const shown = await t.call(acct.token, 'GET', `/v5/webhooks/${webhookUuid}/`);
    expect(shown.json().data).toMatchObject({ url: receiver.url, format: 'v5.2', events: null, enabled: true });
    expect(shown.body).not.toContain(secret);
  });

  it('delivers signed events that the standardwebhooks library verifies', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'WH-1' });
    await drain();
    const [message] = receiver.ofType('shipment.created');
    expect(message).toBeDefined();
    const verified = verifyAt(t.clock.now(), secret, message);
    expect(verified).toMatchObject({ type: 'shipment.created', sequence: 1, data: { shipment_id: 'WH-1', line_items: [] } });
    expect(message.json.event_id).toBe(message.headers['webhook-id']);
    expect(() => verifyAt(t.clock.now(), secret, { ...message, body: message.body.replace('WH-1', 'WH-X') })).toThrow();
  });

  it('numbers each shipment’s events in order: created, updated, delivered', async () => {
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'WH-SEQ', tracking_number: 'WB4000200', carrier_reference: 'sb' });
    await drain();
    await t.call(acct.token, 'POST', '/v5/shipment/update/', { note: 'x' }, { shipment_id: 'WH-SEQ' });
    await drain();
    const mine = receiver.received.filter((r) => r.json.data?.shipment_id === 'WH-SEQ');
    const types = mine.map((r) => r.json.type);
    expect(types).toEqual(expect.arrayContaining(['shipment.created', 'shipment.updated', 'shipment.delivered']));
    const sequences = mine.map((r) => r.json.sequence).sort((a, b) => a - b);
    expect(sequences).toEqual(sequences.map((_s, i) => i + 1));
    const delivered = mine.find((r) => r.json.type === 'shipment.delivered');
    expect(delivered?.json.data.status).toBe('delivered');
  });

  it('retries with the same event id until the receiver answers 2xx, and logs each attempt', async () => {
    receiver.status = 500;
    await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'WH-RETRY' });
    await drain();
    const first = receiver.received.filter((r) => r.json.data?.shipment_id === 'WH-RETRY');
    expect(first).toHaveLength(1);
    receiver.status = 200;
    t.clock.advance(6_000);
    await drain();
    const all = receiver.received.filter((r) => r.json.data?.shipment_id === 'WH-RETRY');
    expect(all).toHaveLength(2);
    expect(all[1].headers['webhook-id']).toBe(all[0].headers['webhook-id']);
    expect(all[1].body).toBe(all[0].body);
    const log = (await t.as(acct)('GET', `/v5/webhooks/${webhookUuid}/deliveries/`)).json().data;
    const attempts = log.filter((a: { event_id: string }) => a.event_id === all[0].headers['webhook-id']);
    expect(attempts.map((a: { status_code: number }) => a.status_code).sort()).toEqual([200, 500]);
  });

  it('gives up after the schedule, counts the failure, and resends it with the same event id', async () => {
    receiver.status = 503;
    await t.as(acct)('POST', '/v5/shipment/', { shipment_id: 'WH-FAIL' });
    for (let i = 0; i < 9; i++) {
      await drain();
      t.clock.advance(11 * 3_600_000);
    }
    const tries = receiver.received.filter((r) => r.json.data?.shipment_id === 'WH-FAIL');
    expect(tries).toHaveLength(8);
    const count = await t.as(acct)('GET', '/v5/notification/failed-webhook-count/');
    expect(count.json().data.count).toBeGreaterThanOrEqual(1);
    receiver.status = 200;
    // The endpoint was disabled after three days of failures; turn it back on, then resend.
    const endpoint = (await t.as(acct)('GET', `/v5/webhooks/${webhookUuid}/`)).json().data;
    expect(endpoint.enabled).toBe(false);
    expect(endpoint.disabled_reason).toMatch(/3 days/);
    await t.as(acct)('PATCH', `/v5/webhooks/${webhookUuid}/`, { enabled: true });
    const resend = await t.as(acct)('POST', '/v5/notification/resend-failed-webhooks/', { webhook_uuid: webhookUuid });
    expect(resend.json().data.resent).toBeGreaterThanOrEqual(1);
    await drain();
    const after = receiver.received.filter((r) => r.json.data?.shipment_id === 'WH-FAIL');
    expect(after).toHaveLength(9);
    expect(after[8].headers['webhook-id']).toBe(tries[0].headers['webhook-id']);
    expect((await t.as(acct)('GET', '/v5/notification/failed-webhook-count/')).json().data.count).toBe(0);
    // The body is optional: a POST without one resends the failures of every endpoint (none are left).
    const all = await t.as(acct)('POST', '/v5/notification/resend-failed-webhooks/');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.resent).toBe(0);
  });

  it('signs with both secrets for 24 hours after a rotation', async () => {
    const rotated = (await t.as(acct)('POST', `/v5/webhooks/${webhookUuid}/rotate-secret/`)).json().data;
    expect(rotated.secret).not.toBe(secret);
    await t.as(acct)('POST', '/v5/shipment/', { shipment_id: 'WH-ROT' });
    await drain();
    const message = receiver.received.find((r) => r.json.data?.shipment_id === 'WH-ROT')!;
    for (const key of [secret, rotated.secret]) expect(() => verifyAt(t.clock.now(), key, message)).not.toThrow();
    t.clock.advance(25 * 3_600_000);
    await t.as(acct)('POST', '/v5/shipment/', { shipment_id: 'WH-ROT2' });
    await drain();
    const later = receiver.received.find((r) => r.json.data?.shipment_id === 'WH-ROT2')!;
    expect(() => verifyAt(t.clock.now(), secret, later)).toThrow();
    expect(() => verifyAt(t.clock.now(), rotated.secret, later)).not.toThrow();
    secret = rotated.secret;
  });

  it('announces returns, bookings and late labels with their records', async () => {
    await t.as(acct)('POST', '/v5/return/', {
      return_ticket: { return_id: 'RMA-WH' },
      shipment: { shipment_id: 'WH-RET', line_items: [{ product_name: 'A', quantity: 1 }] },
    });
    await t.as(acct)('POST', '/v5/return/update/', { return_id: 'RMA-WH', return_status: 'approved' });
    await t.as(acct)('POST', '/v5/shipment/', {
      shipment_id: 'WH-BK',
      shipping_service: 'sandbox_delayed_label',
      sender_address: { company: 'A', line1: 'x 1', city: 'Berlin', postal_code: '10115', country_code: 'DE' },
      recipient_address: { first_name: 'B', line1: 'y 2', city: 'Paris', postal_code: '75001', country_code: 'FR' },
      weight: { amount: 500 },
    });
    const booking = await t.as(acct)('POST', '/v5/booking/', { shipment_id: 'WH-BK', carrier_reference: 'sb' });
    expect(booking.statusCode).toBe(299);
    await drain();
    t.clock.advance(6_000);
    await drain();
    expect(receiver.ofType('return.created').at(-1)?.json.return_ticket).toMatchObject({
      return_id: 'RMA-WH',
      return_status: 'pending approval',
    });
    expect(receiver.ofType('return.updated').at(-1)?.json.return_ticket).toMatchObject({ return_status: 'approved' });
    expect(receiver.ofType('return.created').at(-1)?.json.data).toMatchObject({ shipment_type: 'return' });
    expect(receiver.ofType('booking.created').at(-1)?.json.booking).toMatchObject({
      booking_uuid: booking.json().data.booking_uuid,
      status: 'booked',
    });
    const ready = receiver.ofType('document.ready').at(-1)?.json;
    expect(ready?.document).toMatchObject({ document_uuid: booking.json().data.documents[0].document_uuid, type: 'label' });
    expect(ready?.document.download_url).toMatch(/\/files\/documents\//);
  });

  it('sends only subscribed types, in the chosen format', async () => {
    const second = await new Receiver().start();
    try {
      const created = await t.as(acct)('POST', '/v5/webhooks/', { url: second.url, format: 'v5', events: ['shipment.updated'] });
      expect(created.statusCode).toBe(201);
      await t.as(acct)('POST', '/v5/shipment/', { shipment_id: 'WH-SUB' });
      await t.as(acct)('POST', '/v5/shipment/update/', { note: 'n' }, { shipment_id: 'WH-SUB' });
      await drain();
      expect(second.received.map((r) => r.json.type)).toEqual(['shipment.updated']);
      expect(second.received[0].json.data.line_items).toBeUndefined();
      await t.as(acct)('DELETE', `/v5/webhooks/${created.json().data.webhook_uuid}/`);
    } finally {
      await second.stop();
    }
  });
});

describe('webhook URL guard', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account();
  });
  afterAll(() => t.close());

  it.each([
    ['http://example.com/hook', /HTTPS/],
    ['https://127.0.0.1/hook', /private or reserved/],
    ['https://localhost/hook', /private or reserved/],
    ['https://10.1.2.3/hook', /private or reserved/],
    ['https://192.168.0.10/hook', /private or reserved/],
    ['https://169.254.169.254/latest/meta-data', /private or reserved/],
    ['https://[::1]/hook', /private or reserved/],
    ['https://[::ffff:10.0.0.1]/hook', /private or reserved/],
    ['https://[::ffff:7f00:1]/hook', /private or reserved/],
    ['https://[::127.0.0.1]/hook', /private or reserved/],
    ['https://[64:ff9b::a9fe:a9fe]/latest/meta-data', /private or reserved/],
    ['https://[2002:a00:1::1]/hook', /private or reserved/],
    ['not a url', /absolute URL/],
    ['https://1.1.1.1:0/hook', /port from 1 to 65535/],
  ])('refuses %s', async (url, message) => {
    const res = await t.call(acct.token, 'POST', '/v5/webhooks/', { url });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.url[0]).toMatch(message);
  });

  it('refuses delivery to a private address even if one was stored', async () => {
    const receiver = await new Receiver().start();
    try {
      const account = await t.context.repos.accounts.findByUuid(acct.accountUuid);
      // Stored directly, as if the host had resolved to a public address at registration and to a private one now.
      const now = t.clock.now().toISOString();
      const row = await t.context.repos.webhooks.insertEndpoint({
        account_id: account!.id,
        webhook_uuid: '6f1c1d1e-0000-4000-8000-000000000001',
        url: receiver.url.replace('http:', 'https:'),
        format: 'v5.2',
        events: null,
        enabled: 1,
        secret_sealed: t.context.secrets.encrypt('whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0'),
        created_at: now,
        updated_at: now,
      });
      await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'SSRF-1' });
      await t.context.worker.drain();
      expect(receiver.received).toHaveLength(0);
      const log = (await t.call(acct.token, 'GET', `/v5/webhooks/${row.webhook_uuid}/deliveries/`)).json().data;
      expect(log[0].error).toMatch(/private or reserved/);
    } finally {
      await receiver.stop();
    }
  });

  it("keeps accounts' endpoints apart", async () => {
    const other = await t.account();
    const account = await t.context.repos.accounts.findByUuid(acct.accountUuid);
    const [row] = await t.context.repos.webhooks.listEndpoints(account!.id);
    expect((await t.call(other.token, 'GET', `/v5/webhooks/${row.webhook_uuid}/`)).statusCode).toBe(404);
    expect((await t.call(other.token, 'GET', '/v5/webhooks/')).json().data).toEqual([]);
  });
});

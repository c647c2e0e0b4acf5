import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/http/log-redaction.js';
import { bookableShipment } from '../booking/fixtures.js';
import { createTestApp, issueToken, type TestApp } from '../helpers/app.js';
import { Receiver } from '../webhooks/receiver.js';

const CARRIER_SETTINGS = {
  poll_interval_seconds: 60,
  api_key: 'carrier-api-key-7Q2xV9kLmN3p',
};
const UPS_SETTINGS = {
  client_id: 'carrier-account-55510777',
  client_secret: 'carrier-password-Hx81Zs0Wq',
  environment: 'sandbox',
};

describe('no secrets in the logs', () => {
  let t: TestApp;
  let receiver: Receiver;
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ logStream: stream, env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('a full flow at trace level logs no client secret, token, webhook secret, carrier setting or admin token', async () => {
    secrets.admin_token = t.adminToken;
    // Account, credentials and a carrier configuration with settings, through the admin API.
    const account = (await t.admin('POST', '/admin/v1/accounts/', { name: 'Logged shop', features: ['returns', 'booking'] })).json();
    const creds = (await t.admin('POST', `/admin/v1/accounts/${account.account_uuid}/credentials/`)).json();
    secrets.client_secret = creds.client_secret;
    const config = await t.admin('POST', `/admin/v1/accounts/${account.account_uuid}/carrier-configs/`, {
      carrier_reference: 'sb',
      carrier_id: 'sandbx',
      booking: ['outbound', 'return'],
      settings: CARRIER_SETTINGS,
    });
    expect(config.statusCode, config.body).toBe(201);
    for (const [key, value] of Object.entries(CARRIER_SETTINGS)) if (typeof value === 'string') secrets[`setting ${key}`] = value;
    const ups = await t.admin('POST', `/admin/v1/accounts/${account.account_uuid}/carrier-configs/`, {
      carrier_reference: 'ups',
      carrier_id: 'upsglb',
      settings: UPS_SETTINGS,
    });
    expect(ups.statusCode, ups.body).toBe(201);
    const upsRotated = await t.admin('PATCH', `/admin/v1/accounts/${account.account_uuid}/carrier-configs/ups/`, {
      settings: { client_secret: 'carrier-rotated-Pq55Lm0Zz' },
    });
    expect(upsRotated.statusCode, upsRotated.body).toBe(200);
    secrets['ups client_id'] = UPS_SETTINGS.client_id;
    secrets['ups client_secret'] = UPS_SETTINGS.client_secret;
    secrets['ups rotated client_secret'] = 'carrier-rotated-Pq55Lm0Zz';
    expect((await t.admin('GET', `/admin/v1/accounts/${account.account_uuid}/carrier-configs/`)).statusCode).toBe(200);

    // Tokens: a good one, a wrong secret, a wrong grant.
    const token = await issueToken(t.app, creds.client_id, creds.client_secret);
    secrets.access_token = token;
    const basic = (secret: string) => `Basic ${Buffer.from(`${creds.client_id}:${secret}`).toString('base64')}`;
    for (const [authorization, payload] of [
      [basic(`${creds.client_secret}x`), 'grant_type=client_credentials'],
      [basic(creds.client_secret), 'grant_type=password'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/oauth/token/',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    }

    // Webhooks with secrets, rotated once.
    const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, query?: Record<string, string>) =>
      t.call(token, method, url, body, query);
    const webhook = await call('POST', '/v5/webhooks/', { url: receiver.url });
    expect(webhook.statusCode, webhook.body).toBe(201);
    secrets.webhook_secret = webhook.json().data.secret;
    const rotated = await call('POST', `/v5/webhooks/${webhook.json().data.webhook_uuid}/rotate-secret/`);
    secrets.rotated_webhook_secret = rotated.json().data.secret;
    // The key part of whsec_… as well, in case something logs it decoded or re-encoded.
    secrets.webhook_key = secrets.webhook_secret.replace(/^whsec_/, '');
    secrets.rotated_webhook_key = secrets.rotated_webhook_secret.replace(/^whsec_/, '');

    // Shipments, tracking, events, a booking with a label, a return; refusals too.
    expect(
      (await call('POST', '/v5/shipment/', { shipment_id: 'LOG-1', tracking_number: 'WB4000321', carrier_reference: 'sb' })).statusCode,
    ).toBe(200);
    expect((await call('POST', '/v5/shipment/', bookableShipment('LOG-2'))).statusCode).toBe(200);
    expect((await call('POST', '/v5/booking/', { shipment_id: 'LOG-2', carrier_reference: 'sb' })).statusCode).toBe(200);
    expect((await call('POST', '/v5/shipment/', { shipment_id: 'LOG-3', tracking_number: 42 })).statusCode).toBe(400);
    expect((await call('GET', '/v5/shipment/details/', undefined, { shipment_id: 'nope' })).statusCode).toBe(404);
    await call('POST', '/v5/shipment/update/', { note: 'x' }, { shipment_id: 'LOG-1' });
    await call('POST', '/v5/events/create/', { shipment_id: 'LOG-1', events: [{ event: 'Handed over', time: '2026-01-02' }] });
    await call('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: 'LOG-1' });
    await call('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'LOG-1' });
    await call('GET', '/v5/shipment/list/');
    await call('GET', '/v5/carrier-configs/');
    await call('POST', '/v5/return/', {
      shipment: {
        shipment_id: 'LOG-R',
        line_items: [{ product_name: 'Shirt', quantity: 1 }],
        to_address: { city: 'Berlin', country_code: 'DE' },
      },
    });
    for (let i = 0; i < 4; i++) {
      await t.context.worker.drain();
      t.clock.advance(1_000);
    }
    expect(receiver.received.length).toBeGreaterThan(0);
    receiver.status = 500;
    await call('PATCH', `/v5/webhooks/${webhook.json().data.webhook_uuid}/`, { enabled: true });
    await call('POST', '/v5/shipment/update/', { note: 'again' }, { shipment_id: 'LOG-1' });
    await t.context.worker.drain();

    // Signed links (a label, a proof of delivery) and a tracking page, fetched without a token: the
    // signatures and the page's reference are the authority, so they are secrets too.
    const labels = (await call('GET', '/v5/shipments/documents/', undefined, { shipment_id: 'LOG-2' })).json().data;
    const labelUrl = new URL(labels[0].download_url);
    const delivered = (await call('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'LOG-1' })).json().data;
    expect(delivered.pod_url, 'WB4… is delivered with a proof').toBeTruthy();
    const podUrl = new URL(delivered.pod_url);
    secrets.label_signature = labelUrl.searchParams.get('signature')!;
    secrets.pod_signature = podUrl.searchParams.get('signature')!;
    secrets.tracking_page_reference = delivered.tracking_page_reference;
    for (const url of [`${labelUrl.pathname}${labelUrl.search}`, `${podUrl.pathname}${podUrl.search}`]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
      // Refused links are logged the same way.
      expect((await t.app.inject({ method: 'GET', url: url.replace('signature=', 'signature=x') })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: `${url}&sig=${secrets.label_signature}` })).statusCode).toBeLessThan(500);
    }
    expect((await t.app.inject({ method: 'GET', url: `/t/${delivered.tracking_page_reference}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/t/${delivered.tracking_page_reference}?lang=de` })).statusCode).toBe(200);
    secrets.unknown_tracking_reference = 'NoSuchTrackingPageReference42';
    expect((await t.app.inject({ method: 'GET', url: `/t/${secrets.unknown_tracking_reference}` })).statusCode).toBe(404);

    // A wrong token, a revoked one, a wrong admin token.
    expect((await t.call(`${token}x`, 'GET', '/v5/shipment/list/')).statusCode).toBe(403);
    expect((await t.admin('DELETE', `/admin/v1/accounts/${account.account_uuid}/credentials/${creds.client_id}/`)).statusCode).toBe(204);
    expect((await call('GET', '/v5/shipment/list/')).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/v1/accounts/', headers: { authorization: `Bearer ${t.adminToken}x` } })).statusCode,
    ).toBe(401);
    await t.app.close();

    const log = lines.join('');
    expect(lines.length, 'the flow was logged at all').toBeGreaterThan(20);
    expect(log).toContain('request completed');
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThanOrEqual(8);
      expect(log.includes(value), `${name} appears in the logs`).toBe(false);
    }
    // The requests were logged, with what is secret in their URLs replaced.
    expect(log).toContain('/files/documents/');
    expect(log).toContain('signature=[redacted]');
    expect(log).toContain('/t/[redacted]');
  });

  it('redacts signatures and tracking page references in any spelling the router and query parser accept', () => {
    expect(redactUrl('/files/pod/u/?expires=1&signature=abc')).toBe('/files/pod/u/?expires=1&signature=[redacted]');
    expect(redactUrl('/files/documents/u/?signature=abc&expires=1&sig=def')).toBe(
      '/files/documents/u/?signature=[redacted]&expires=1&sig=[redacted]',
    );
    expect(redactUrl('/files/documents/u/?sig%6Eature=abc&SIGNATURE=def')).toBe(
      '/files/documents/u/?sig%6Eature=[redacted]&SIGNATURE=[redacted]',
    );
    expect(redactUrl('/t/AbCdEf123456?lang=de')).toBe('/t/[redacted]?lang=de');
    expect(redactUrl('//t/AbCdEf123456/x')).toBe('/t/[redacted]');
    expect(redactUrl('/%74/AbCdEf123456')).toBe('/t/[redacted]');
    expect(redactUrl('/v5/shipment/details/?shipment_id=signature')).toBe('/v5/shipment/details/?shipment_id=signature');
    expect(redactUrl('/v5/shipment/list/?tags=a%ZZ&signatures=x')).toBe('/v5/shipment/list/?tags=a%ZZ&signatures=x');
  });
});

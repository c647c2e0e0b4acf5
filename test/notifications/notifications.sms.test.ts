import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { signInbound, TwilioServer } from '../support/twilio-server.js';

/** Consumer SMS through a local server speaking Twilio's Messages API, with its errors, STOP replies and reports. */
describe('consumer notifications by SMS', () => {
  let t: TestApp;
  let acct: TestAccount;
  let twilio: TwilioServer;
  let n = 0;
  beforeAll(async () => {
    twilio = await TwilioServer.start();
    // 10:00 in Berlin: outside quiet hours.
    t = await createTestApp({
      clock: new ManualClock(new Date('2026-11-23T09:00:00Z')),
      env: { WAYBILL_SMS_TWILIO_BASE_URL: twilio.url },
    });
    acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
    const put = await api('PUT', '/v5/notification/settings/', {
      email: { enabled: false, triggers: [] },
      sms: {
        enabled: true,
        triggers: ['delivered', 'exception'],
        provider: 'twilio',
        settings: { account_sid: twilio.accountSid, auth_token: twilio.authToken, from: '+15005550006' },
      },
      default_language: 'en',
    });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, query?: Record<string, string>) =>
    t.as(acct)(method, url, body, query);
  const work = async () => {
    for (let i = 0; i < 3; i++) await t.context.worker.drain();
  };
  async function track(trackingNumber: string, phone: string, country = 'DE') {
    const res = await api('POST', '/v5/shipment/', {
      shipment_id: `sms-${++n}`,
      tracking_number: trackingNumber,
      carrier_reference: 'sb',
      notification_phone: [phone],
      recipient_address: { city: 'Berlin', country_code: country },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.shipment_uuid as string;
  }
  const log = async (uuid: string) => (await api('GET', '/v5/notification/log/', undefined, { shipment_uuid: uuid })).json().data.data;

  it('never shows the auth token back, only that it is set', async () => {
    const shown = (await api('GET', '/v5/notification/settings/')).json().data;
    expect(shown.sms.settings).toMatchObject({ account_sid: twilio.accountSid, auth_token: '********', from: '+15005550006' });
    expect(JSON.stringify(shown)).not.toContain(twilio.authToken);
  });

  it('sends the delivered SMS through the Messages API, in E.164, with a status callback', async () => {
    const uuid = await track('WB4200001', '+49 151 2345 6789');
    await work();
    const sent = twilio.messages.filter((m) => m.to === '+4915123456789');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ from: '+15005550006' });
    expect(sent[0].body).toContain('https://waybill.test/t/');
    expect(sent[0].statusCallback).toBe(`https://waybill.test/notifications/sms/twilio/${acct.accountUuid}/status`);
    expect((await log(uuid))[0]).toMatchObject({
      channel: 'sms',
      recipient: '+4915123456789',
      status: 'sent',
      provider_message_id: sent[0].sid,
    });
  });

  it('records an invalid number as failed, without retrying', async () => {
    const uuid = await track('WB4200002', '+1 500 555 0001', 'US');
    await work();
    const [entry] = await log(uuid);
    expect(entry).toMatchObject({ status: 'failed', attempts: 1 });
    expect(entry.reason).toMatch(/21211/);
  });

  it('waits out a 429 and sends afterwards', async () => {
    twilio.failNext(1, 429, { retryAfter: 30 });
    const uuid = await track('WB4200003', '+49 151 2345 0003');
    await work();
    expect((await log(uuid))[0]).toMatchObject({ status: 'queued', attempts: 1 });
    t.clock.advance(31_000);
    await work();
    expect((await log(uuid))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('holds an SMS during quiet hours in the recipient’s zone, and sends it at 08:00', async () => {
    t.clock.set(new Date('2026-11-23T21:30:00Z')); // 22:30 in Berlin
    const uuid = await track('WB4200004', '+49 151 2345 0004');
    await work();
    expect((await log(uuid))[0]).toMatchObject({ status: 'queued' });
    t.clock.set(new Date('2026-11-24T06:59:00Z')); // 07:59 in Berlin
    await work();
    expect((await log(uuid))[0]).toMatchObject({ status: 'queued' });
    t.clock.set(new Date('2026-11-24T07:01:00Z'));
    await work();
    expect((await log(uuid))[0]).toMatchObject({ status: 'sent' });
  });

  it('honours STOP sent through the provider’s signed inbound hook, and refuses an unsigned one', async () => {
    const url = `https://waybill.test/notifications/sms/twilio/${acct.accountUuid}/inbound`;
    const params = {
      From: '+4915123450005',
      To: '+15005550006',
      Body: 'STOP',
      MessageSid: `SM${'0'.repeat(32)}`,
      AccountSid: twilio.accountSid,
    };
    const form = new URLSearchParams(params).toString();
    const unsigned = await t.app.inject({
      method: 'POST',
      url: `/notifications/sms/twilio/${acct.accountUuid}/inbound`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'bm90LWEtc2lnbmF0dXJl' },
      payload: form,
    });
    expect(unsigned.statusCode).toBe(403);
    const signed = await t.app.inject({
      method: 'POST',
      url: `/notifications/sms/twilio/${acct.accountUuid}/inbound`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signInbound(url, params, twilio.authToken) },
      payload: form,
    });
    expect(signed.statusCode).toBe(200);
    const before = twilio.messages.length;
    const uuid = await track('WB4200005', '+49 151 2345 0005');
    await work();
    expect(twilio.messages.length).toBe(before);
    expect((await log(uuid))[0]).toMatchObject({ status: 'suppressed', reason: 'opted_out' });
  });

  it('refuses SMS settings without a sender, naming the field', async () => {
    const res = await api('PUT', '/v5/notification/settings/', {
      email: { enabled: false, triggers: [] },
      sms: { enabled: true, triggers: ['delivered'], provider: 'twilio', settings: { account_sid: 'nope', from: null } },
      default_language: 'en',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.sms.settings).toMatchObject({ account_sid: [expect.any(String)], from: [expect.any(String)] });
  });

  it('marks a message failed on a signed delivery report, and a permanent one stops further SMS to that number', async () => {
    const uuid = await track('WB4200006', '+49 151 2345 0006');
    await work();
    const [sent] = twilio.messages.filter((m) => m.to === '+4915123450006');
    const path = `/notifications/sms/twilio/${acct.accountUuid}/status`;
    const params = { MessageSid: sent.sid, MessageStatus: 'undelivered', ErrorCode: '30006', AccountSid: twilio.accountSid, To: sent.to };
    const report = await t.app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signInbound(`https://waybill.test${path}`, params, twilio.authToken),
      },
      payload: new URLSearchParams(params).toString(),
    });
    expect(report.statusCode).toBe(200);
    const [entry] = await log(uuid);
    expect(entry).toMatchObject({ status: 'failed', provider_message_id: sent.sid });
    expect(entry.reason).toMatch(/^30006/);
    const next = await track('WB4200007', '+49 151 2345 0006');
    await work();
    expect((await log(next))[0]).toMatchObject({ status: 'suppressed', reason: 'bounced' });
  });

  it('refuses a callback whose body is not a flat form (an array, objects that cannot be read as text) with 403, not an error', async () => {
    for (const kind of ['status', 'inbound']) {
      for (const payload of [
        [null, { toString: -2e-323, valueOf: 'x' }, ['c']],
        { MessageSid: { toString: 1 }, MessageStatus: ['undelivered'] },
        'MessageSid',
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/notifications/sms/twilio/${acct.accountUuid}/${kind}?constructor=%20`,
          headers: { 'content-type': 'application/json', 'x-twilio-signature': 'bm90LWEtc2lnbmF0dXJl' },
          payload: JSON.stringify(payload),
        });
        expect(res.statusCode, `${kind} ${JSON.stringify(payload)}: ${res.body}`).toBe(403);
        expect(res.json()).toEqual({ api_response: 403, message: 'Key not authorized' });
      }
    }
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from '../returns/fixtures.js';
import { Receiver } from '../webhooks/receiver.js';
import { SmtpSink } from './smtp-sink.js';

/**
 * Consumer e-mail end to end: shipments tracked through the sandbox carrier, messages composed by the worker
 * and sent with nodemailer to a real SMTP server on a local port (reached by host name), parsed as a mail
 * client would.
 */
describe('consumer notifications by e-mail', () => {
  let t: TestApp;
  let acct: TestAccount;
  let smtp: SmtpSink;
  let n = 0;
  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    t = await createTestApp({
      clock: new ManualClock(new Date('2026-11-23T08:00:00Z')),
      env: {
        WAYBILL_SMTP_URL: smtp.url,
        WAYBILL_SMTP_FROM: 'Parcel updates <updates@waybill.test>',
        WAYBILL_NOTIFICATION_RECIPIENT_LIMIT_PER_HOUR: '4',
        WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true',
      },
    });
    acct = await t.account({
      features: ['returns'],
      carriers: [{ carrier_reference: 'sb' }, { carrier_reference: 'live', settings: { step_seconds: 60 } }],
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });
  beforeEach(() => {
    smtp.refuse.clear();
  });

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, query?: Record<string, string>) =>
    t.as(acct)(method, url, body, query);
  const work = async () => {
    for (let i = 0; i < 3; i++) await t.context.worker.drain();
  };
  async function track(trackingNumber: string, email: string, extra: Record<string, unknown> = {}, carrier = 'sb') {
    const shipmentId = `ntf-${++n}`;
    const res = await api('POST', '/v5/shipment/', {
      shipment_id: shipmentId,
      tracking_number: trackingNumber,
      carrier_reference: carrier,
      notification_email: [email],
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return { shipmentId, shipmentUuid: res.json().data.shipment_uuid as string };
  }
  const log = async (shipmentUuid: string) =>
    (await api('GET', '/v5/notification/log/', undefined, { shipment_uuid: shipmentUuid })).json().data.data;

  it('has e-mail on for the default triggers once the operator configured SMTP', async () => {
    const res = await api('GET', '/v5/notification/settings/');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      email: {
        enabled: true,
        available: true,
        triggers: ['out_for_delivery', 'available_for_pickup', 'failed_attempt', 'exception', 'delivered'],
      },
      sms: { enabled: false },
      default_language: 'en',
      max_event_age_hours: 48,
    });
  });

  it('a first poll that already says delivered sends "delivered" only, once, with both parts and a one-click unsubscribe', async () => {
    const { shipmentUuid } = await track('WB4100001', 'ana@example.com');
    await work();
    await work();
    const mails = smtp.to('ana@example.com');
    expect(mails).toHaveLength(1);
    const [{ mail, raw }] = mails;
    expect(mail.from?.value[0]).toMatchObject({ address: 'updates@waybill.test', name: 'Parcel updates' });
    expect(mail.subject).toMatch(/delivered/i);
    expect(mail.text).toContain('WB4100001');
    expect(mail.html).toContain('WB4100001');
    expect(mail.html).toMatch(/<a\s[^>]*href="https:\/\/waybill\.test\/t\/[A-Za-z0-9_-]+\?lang=en"/);
    // mailparser reads the List-* headers into one `list` entry.
    const list = mail.headers.get('list') as { unsubscribe?: { url?: string } } | undefined;
    const unsubscribeUrl = list?.unsubscribe?.url;
    expect(unsubscribeUrl).toMatch(/^https:\/\/waybill\.test\/notifications\/unsubscribe\//);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const entries = await log(shipmentUuid);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ trigger: 'delivered', channel: 'email', recipient: 'ana@example.com', status: 'sent' });
    expect(mail.messageId).toBe(entries[0].message_id);
  });

  it('sends each configured trigger of a live parcel once, in order', async () => {
    const put = await api('PUT', '/v5/notification/settings/', {
      email: { enabled: true, triggers: ['in_transit', 'out_for_delivery', 'delivered'] },
      sms: { enabled: false, triggers: [] },
      default_language: 'en',
    });
    expect(put.statusCode, put.body).toBe(200);
    const { shipmentId, shipmentUuid } = await track('WB8100001', 'bo@example.com', {}, 'live');
    await work();
    for (let i = 0; i < 40; i++) {
      t.clock.advance(60_000);
      await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: shipmentId });
      await work();
    }
    const triggers = (await log(shipmentUuid)).map((e: { trigger: string }) => e.trigger).reverse();
    expect(triggers).toEqual(['in_transit', 'out_for_delivery', 'delivered']);
    expect(smtp.to('bo@example.com').map((m) => m.mail.subject)).toHaveLength(3);
    await api('PUT', '/v5/notification/settings/', {
      email: { enabled: true, triggers: ['out_for_delivery', 'available_for_pickup', 'failed_attempt', 'exception', 'delivered'] },
      sms: { enabled: false, triggers: [] },
      default_language: 'en',
    });
  });

  it('the unsubscribe link, followed, suppresses the next message of that shipment', async () => {
    const { shipmentId, shipmentUuid } = await track('WB8100002', 'cy@example.com', {}, 'live');
    await api('PUT', '/v5/notification/settings/', {
      email: { enabled: true, triggers: ['in_transit', 'out_for_delivery', 'delivered'] },
      sms: { enabled: false, triggers: [] },
      default_language: 'en',
    });
    await work();
    for (let i = 0; i < 40 && smtp.to('cy@example.com').length === 0; i++) {
      t.clock.advance(60_000);
      await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: shipmentId });
      await work();
    }
    const [first] = smtp.to('cy@example.com');
    expect(first).toBeDefined();
    const link = first.mail.text?.match(/https:\/\/waybill\.test\/notifications\/unsubscribe\/\S+/)?.[0] as string;
    const path = new URL(link).pathname;
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form');
    // What a mailbox provider sends for its own unsubscribe button (RFC 8058).
    const oneClick = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    for (let i = 0; i < 40; i++) {
      t.clock.advance(60_000);
      await api('POST', '/v5/shipment/trigger-adhoc-update/', { shipment_id: shipmentId });
      await work();
    }
    expect(smtp.to('cy@example.com')).toHaveLength(1);
    const entries = await log(shipmentUuid);
    expect(entries.length).toBeGreaterThan(1);
    expect(
      entries.slice(0, -1).every((e: { status: string; reason: string }) => e.status === 'suppressed' && e.reason === 'unsubscribed'),
    ).toBe(true);
    const forged = await t.app.inject({ method: 'GET', url: `${path.slice(0, -3)}AAA` });
    expect(forged.statusCode).toBe(404);
    await api('PUT', '/v5/notification/settings/', {
      email: { enabled: true, triggers: ['out_for_delivery', 'available_for_pickup', 'failed_attempt', 'exception', 'delivered'] },
      sms: { enabled: false, triggers: [] },
      default_language: 'en',
    });
  });

  it('refuses an invalid template with the field and line, and uses a saved one in its language', async () => {
    const bad = await api('PUT', '/v5/notification/templates/delivered/email/de/', {
      subject: 'Zugestellt',
      body: 'Hallo {{ recipient.name }},\n{{ shipment.trackingnumber }} ist da.',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      api_response: '4030',
      errors: { body: [expect.stringMatching(/^Line 2: Unknown variable "shipment\.trackingnumber"/)] },
    });
    const broken = await api('PUT', '/v5/notification/templates/delivered/email/de/', { body: 'Hallo\n{% if x %}' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().errors.body[0]).toMatch(/^Line 2: /);

    const saved = await api('PUT', '/v5/notification/templates/delivered/email/de/', {
      subject: 'Ihr Paket {{ shipment.tracking_number }} ist da',
      body: 'Hallo {{ recipient.name }},\n\nIhr Paket von {{ merchant.name }} wurde zugestellt. <b>Danke</b>!',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ custom: true, language: 'de' });
    const preview = await api('POST', '/v5/notification/templates/delivered/email/de/preview/', {});
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data.html).toContain('&lt;b&gt;Danke&lt;/b&gt;');

    await track('WB4100002', 'dora@example.com', {
      recipient_address: { first_name: 'Dora', last_name: 'Müller', city: 'Berlin', country_code: 'DE' },
    });
    await work();
    const [mail] = smtp.to('dora@example.com');
    expect(mail.mail.subject).toBe('Ihr Paket WB4100002 ist da');
    expect(mail.mail.text).toContain('Hallo Dora Müller,');
    expect(mail.mail.html).toContain('&lt;b&gt;Danke&lt;/b&gt;');
    expect(mail.mail.headers.get('content-language')).toBe('de');
  });

  it('refuses a template that cannot be rendered on its field, when saved and when previewed', async () => {
    const loop = '{% for i in (1..100000000) %}{{ i }}{% endfor %}';
    const put = (template: Record<string, string>) => api('PUT', '/v5/notification/templates/failed_attempt/email/en/', template);
    const slow = await put({ subject: 'Hi', body: `Hello\n${loop}` });
    expect(slow.statusCode, slow.body).toBe(400);
    expect(slow.json()).toMatchObject({
      api_response: '4030',
      errors: { body: [expect.stringMatching(/^Line 2: Cannot be rendered: .*limit/)] },
    });
    const subject = await put({ subject: loop, body: 'Hello' });
    expect(subject.statusCode, subject.body).toBe(400);
    expect(Object.keys(subject.json().errors)).toEqual(['subject']);
    // Wherever they are written, in a branch the check's values do not enter too.
    for (const tag of [
      "{% include 'etc/passwd' %}",
      "{% render 'x' %}",
      "{% layout 'x' %}",
      '{% if trigger == "none" %}{% include "footer" %}{% endif %}',
    ]) {
      const partial = await put({ body: `Hello ${tag}` });
      expect(partial.statusCode, tag).toBe(400);
      expect(partial.json().errors.body, tag).toEqual([
        'Line 1: A template cannot include another (include, render and layout are not available).',
      ]);
    }
    // Templates that read parts a real value has and the check's sample value may not still save.
    for (const body of [
      '{{ pickup.opening_hours.first }}',
      '{% assign words = recipient.name | split: " " %}Hello {{ words[1] }}',
      '{% assign parts = shipment.tracking_url | split: "/" %}{{ parts[2] }}',
    ]) {
      const fine = await api('PUT', '/v5/notification/templates/exception/email/en/', { body });
      expect(fine.statusCode, `${body} ${fine.body}`).toBe(200);
    }
    await api('DELETE', '/v5/notification/templates/exception/email/en/');
    // A loop the check's values do not run, run by the shipment's: the preview names the field, as the save would.
    const hidden = `{% if shipment.tracking_number != "x" %}${loop}{% endif %}`;
    const preview = await api('POST', '/v5/notification/templates/failed_attempt/email/en/preview/', { body: hidden });
    expect(preview.statusCode, preview.body).toBe(400);
    expect(preview.json()).toMatchObject({
      api_response: '4030',
      errors: { body: [expect.stringMatching(/^Line 1: Cannot be rendered: .*limit/)] },
    });
    const sms = await api('POST', '/v5/notification/templates/failed_attempt/sms/en/preview/', { body: hidden });
    expect(sms.statusCode, sms.body).toBe(400);
    expect(Object.keys(sms.json().errors)).toEqual(['body']);
    // Nothing of them was saved.
    const kept = await api('GET', '/v5/notification/templates/failed_attempt/email/en/');
    expect(kept.json().data.custom).toBe(false);

    // Saved (the check's values do not run the loop), a message made from it fails in the log, once, for good.
    const saved = await api('PUT', '/v5/notification/templates/delivered/email/fr/', { body: hidden });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const { shipmentUuid } = await track('WB4100090', 'loop@example.com', { additional_info: { language: 'fr' } });
      await work();
      const delivered = (await log(shipmentUuid)).find((entry: { trigger: string }) => entry.trigger === 'delivered');
      expect(delivered).toMatchObject({
        status: 'failed',
        reason: expect.stringMatching(/^template_not_rendered: body: Line 1: Cannot be rendered/),
      });
    } finally {
      await api('DELETE', '/v5/notification/templates/delivered/email/fr/');
    }
  });

  it('falls back to English for a language it does not speak, and never errors', async () => {
    const { shipmentUuid } = await track('WB4100003', 'eli@example.com', { additional_info: { language: 'tlh' } });
    await work();
    expect((await log(shipmentUuid))[0]).toMatchObject({ language: 'en', status: 'sent' });
  });

  it('records a permanent SMTP refusal as failed, without retrying', async () => {
    smtp.refuse.set('gone@example.com', 550);
    const { shipmentUuid } = await track('WB4100004', 'gone@example.com');
    await work();
    const [entry] = await log(shipmentUuid);
    expect(entry).toMatchObject({ status: 'failed', attempts: 1 });
    expect(entry.reason).toMatch(/550/);
  });

  it('retries a temporary SMTP refusal, then sends with the same Message-ID', async () => {
    smtp.refuse.set('later@example.com', 451);
    const { shipmentUuid } = await track('WB4100005', 'later@example.com');
    await work();
    const [waiting] = await log(shipmentUuid);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
    smtp.refuse.clear();
    t.clock.advance(120_000);
    await work();
    const [sent] = await log(shipmentUuid);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, message_id: waiting.message_id });
    expect(smtp.to('later@example.com')[0].mail.messageId).toBe(waiting.message_id);
  });

  it('refuses settings that cannot work, naming the field', async () => {
    const res = await api('PUT', '/v5/notification/settings/', {
      email: { enabled: true, triggers: ['delivered', 'teleported'], sender_email: 'not-an-address' },
      sms: { enabled: true, triggers: [] },
      default_language: 'xx',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining(['email']));
    const semantic = await api('PUT', '/v5/notification/settings/', {
      email: { enabled: true, triggers: ['delivered'] },
      sms: { enabled: true, triggers: ['delivered'] },
      default_language: 'xx',
    });
    expect(semantic.statusCode).toBe(400);
    expect(semantic.json().errors).toMatchObject({ default_language: [expect.any(String)], sms: { provider: [expect.any(String)] } });
  });

  it("keeps one account's log and templates from another", async () => {
    const other = await t.account();
    const { shipmentUuid } = await track('WB4100006', 'fay@example.com');
    await work();
    const res = await t.call(other.token, 'GET', '/v5/notification/log/', undefined, { shipment_uuid: shipmentUuid });
    expect(res.statusCode).toBe(404);
    const template = await t.call(other.token, 'GET', '/v5/notification/templates/delivered/email/de/');
    expect(template.json().data.custom).toBe(false);
  });

  const defaults = ['out_for_delivery', 'available_for_pickup', 'failed_attempt', 'exception', 'delivered'];
  const setTriggers = async (triggers: string[]) => {
    const res = await api('PUT', '/v5/notification/settings/', {
      email: { enabled: true, triggers },
      sms: { enabled: false, triggers: [] },
      default_language: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('late history (a failed attempt, then an exception, in the first poll) sends only the latest', async () => {
    const { shipmentUuid } = await track('WB6100001', 'gil@example.com');
    await work();
    const entries = await log(shipmentUuid);
    expect(entries.map((e: { trigger: string }) => e.trigger)).toEqual(['exception']);
    expect(smtp.to('gil@example.com')).toHaveLength(1);
  });

  it('sends nothing for a change whose event is older than the account allows, and says why', async () => {
    const res = await api('POST', '/v5/shipment/', { shipment_id: 'ntf-old', notification_email: ['hal@example.com'] });
    const shipmentUuid = res.json().data.shipment_uuid;
    const old = new Date(t.clock.now().getTime() - 72 * 3_600_000).toISOString();
    const event = await api('POST', '/v5/events/create/', {
      shipment_id: 'ntf-old',
      events: [{ event: 'Delivered', event_key: 'delivered', time: old }],
    });
    expect(event.statusCode, event.body).toBe(200);
    await work();
    expect(await log(shipmentUuid)).toMatchObject([{ trigger: 'delivered', status: 'suppressed', reason: 'event_too_old' }]);
    expect(smtp.to('hal@example.com')).toHaveLength(0);
  });

  it('tells the consumer a return was approved, once, and the log and webhooks say it was sent', async () => {
    const receiver = await new Receiver().start();
    try {
      const hook = await api('POST', '/v5/webhooks/', { url: receiver.url, events: ['notification.sent', 'notification.failed'] });
      expect(hook.statusCode, hook.body).toBe(201);
      await setTriggers([...defaults, 'return_approved', 'return_rejected']);
      const body = standardReturn('ntf-ret-1');
      const created = await api('POST', '/v5/return/', {
        ...body,
        shipment: { ...body.shipment, notification_email: ['ivy@example.com'] },
      });
      expect(created.statusCode, created.body).toBe(200);
      const shipmentUuid = created.json().data.shipment.shipment_uuid;
      const returnUuid = created.json().data.return_ticket.return_uuid;
      await work();
      expect(smtp.to('ivy@example.com')).toHaveLength(0);
      const approved = await api('POST', '/v5/return/update/', { return_uuid: returnUuid, return_status: 'approved' });
      expect(approved.statusCode, approved.body).toBe(200);
      await work();
      // Approved again after a cancelled booking would be the same trigger: it is not sent twice.
      await work();
      const mails = smtp.to('ivy@example.com');
      expect(mails).toHaveLength(1);
      expect(mails[0].mail.text).toContain('RMA-ntf-ret-1');
      const [entry] = await log(shipmentUuid);
      expect(entry).toMatchObject({ trigger: 'return_approved', status: 'sent' });
      for (let i = 0; i < 4; i++) {
        await t.context.worker.drain();
        t.clock.advance(1_000);
      }
      const [sent] = receiver.ofType('notification.sent').filter((m) => m.json.notification?.recipient === 'ivy@example.com');
      expect(sent.json).toMatchObject({
        type: 'notification.sent',
        data: { shipment_uuid: shipmentUuid },
        notification: {
          notification_uuid: entry.notification_uuid,
          trigger: 'return_approved',
          status: 'sent',
          message_id: entry.message_id,
        },
      });
    } finally {
      await setTriggers(defaults);
      await receiver.stop();
    }
  });

  it('holds messages beyond the per-recipient limit until the hour has passed', async () => {
    const uuids: string[] = [];
    for (let i = 0; i < 5; i++) uuids.push((await track(`WB41100${i}`, 'jo@example.com')).shipmentUuid);
    await work();
    expect(smtp.to('jo@example.com')).toHaveLength(4);
    t.clock.advance(61 * 60_000);
    await work();
    expect(smtp.to('jo@example.com')).toHaveLength(5);
    for (const uuid of uuids) expect((await log(uuid))[0].status).toBe('sent');
  });

  it('refuses an invalid address or number on the notification lists, naming the position', async () => {
    const email = await api('POST', '/v5/shipment/', { shipment_id: 'ntf-bad', notification_email: ['ok@example.com', 'not-an-address'] });
    expect(email.statusCode).toBe(400);
    expect(email.json().errors).toEqual({ notification_email: { 1: ['Enter a valid email address.'] } });
    const phone = await api('POST', '/v5/shipment/', { shipment_id: 'ntf-bad', notification_phone: ['12'] });
    expect(phone.statusCode).toBe(400);
    expect(phone.json().errors).toEqual({ notification_phone: { 0: [expect.any(String)] } });
    expect((await api('GET', '/v5/shipment/details/', undefined, { shipment_id: 'ntf-bad' })).statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { verifyReturnStatusToken } from '../../src/domain/returns/portal-links.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from '../returns/fixtures.js';
import { Receiver } from '../webhooks/receiver.js';
import { SmtpSink } from './smtp-sink.js';

/**
 * A return's messages to the consumer, end to end: returns created and decided through the API, messages
 * composed by the worker and sent to a real SMTP server on a local port, read as a mail client would. Each
 * message links to the return's page in the returns portal, a signed link the portal reads back.
 */
describe('consumer notifications of returns', () => {
  let t: TestApp;
  let acct: TestAccount;
  let closed: TestAccount;
  let smtp: SmtpSink;
  let n = 0;
  let portalReference = '';
  let receiver: Receiver;
  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    receiver = await new Receiver().start();
    t = await createTestApp({
      clock: new ManualClock(new Date('2026-11-23T08:00:00Z')),
      env: { WAYBILL_SMTP_URL: smtp.url, WAYBILL_SMTP_FROM: 'Returns <returns@waybill.test>', WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' },
    });
    acct = await t.account({
      features: ['returns', 'booking'],
      carriers: [{ carrier_reference: 'sb', booking: ['outbound', 'return'] }],
    });
    // An account whose returns portal is off.
    closed = await t.account({ features: ['returns'] });
    for (const who of [acct, closed]) {
      const put = await t.as(who)('PUT', '/v5/notification/settings/', {
        email: { enabled: true, triggers: ['return_requested', 'return_approved', 'return_rejected', 'return_received', 'refund_issued'] },
        sms: { enabled: false, triggers: [] },
        default_language: 'en',
      });
      expect(put.statusCode, put.body).toBe(200);
    }
    const policy = (await t.as(acct)('GET', '/v5/returns/policy/')).json().data;
    const opened = await t.as(acct)('PUT', '/v5/returns/policy/', { ...policy, enabled: true });
    expect(opened.statusCode, opened.body).toBe(200);
    portalReference = policy.portal_reference;
    const hook = await t.as(acct)('POST', '/v5/webhooks/', { url: receiver.url, events: ['return.updated', 'notification.sent'] });
    expect(hook.statusCode, hook.body).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
    await receiver?.stop();
  });

  const work = async () => {
    for (let i = 0; i < 3; i++) await t.context.worker.drain();
  };

  /** A return of `who` whose consumer gets e-mail at `email`, as POST /v5/return/ answers it. */
  async function newReturn(email: string, who = acct, extra: Record<string, unknown> = {}) {
    const body = standardReturn(`ntf-rt-${++n}`);
    const res = await t.as(who)('POST', '/v5/return/', {
      ...body,
      shipment: {
        ...body.shipment,
        notification_email: [email],
        weight: { amount: 400, unit: 'g' },
        // The consumer sends the return back: their country gives the message's language.
        from_address: { first_name: 'Grace', line1: '10 Downing Street', city: 'London', postal_code: 'SW1A 2AA', country_code: 'GB' },
        to_address: { company: 'Acme Returns', line1: 'Lagerstraße 5', city: 'Hamburg', postal_code: '20095', country_code: 'DE' },
        ...extra,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    return {
      returnUuid: data.return_ticket.return_uuid as string,
      returnId: data.return_ticket.return_id as string,
      shipmentUuid: data.shipment.shipment_uuid as string,
    };
  }
  const update = (body: Record<string, unknown>, who = acct) => t.as(who)('POST', '/v5/return/update/', body);
  /** The one mail to `address` whose subject matches (the worker sends a recipient's messages in any order). */
  function mailAbout(address: string, subject: RegExp) {
    const found = smtp.to(address).filter((m) => subject.test(m.mail.subject ?? ''));
    expect(found, `${address}: ${subject}`).toHaveLength(1);
    return found[0].mail;
  }
  const statusLink = /https:\/\/waybill\.test\/returns\/([A-Za-z0-9_-]+)\/status\/([^\s"<]+)/;

  /** The status page link of a mail's text, checked: the account's portal, a token naming the return. */
  function expectStatusLink(text: string | undefined, returnUuid: string): string {
    const match = text?.match(statusLink);
    expect(match, text).not.toBeNull();
    const [link, reference, token] = match as RegExpMatchArray;
    expect(reference).toBe(portalReference);
    expect(verifyReturnStatusToken(token, t.context.secrets.urlKey)).toBe(returnUuid);
    return link;
  }

  it('a return created pending approval tells the consumer it was requested, with the link to its page', async () => {
    const { returnUuid, returnId, shipmentUuid } = await newReturn('eve@example.com');
    await work();
    const mails = smtp.to('eve@example.com');
    expect(mails).toHaveLength(1);
    const { mail } = mails[0];
    expect(mail.subject).toBe(`We have received your return request ${returnId}`);
    expect(mail.text).toContain(`will review it shortly`);
    const link = expectStatusLink(mail.text, returnUuid);
    expect(mail.text).toContain(`Show your return: ${link}`);
    expect(mail.html).toContain(`href="${link}"`);
    const entries = (await t.as(acct)('GET', '/v5/notification/log/', undefined, { shipment_uuid: shipmentUuid })).json().data.data;
    expect(entries).toMatchObject([{ trigger: 'return_requested', channel: 'email', status: 'sent', language: 'en' }]);
    // A later change of the pending return does not request it again.
    expect((await update({ return_uuid: returnUuid, comment: 'Two sizes too small' })).statusCode).toBe(200);
    await work();
    expect(smtp.to('eve@example.com')).toHaveLength(1);
  });

  it('a recorded refund tells the consumer, with the amount, and the return.updated webhook shows it; twice is a 4030', async () => {
    const { returnUuid, returnId, shipmentUuid } = await newReturn('fay@example.com');
    expect((await update({ return_uuid: returnUuid, return_status: 'approved' })).statusCode).toBe(200);
    await work();
    t.clock.advance(60_000);
    const refunded = await update({ return_uuid: returnUuid, refund_issued: true, refunded_amount: 30 });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const at = t.clock.now().toISOString();
    expect(refunded.json().data).toMatchObject({ refund_issued_at: at, refunded_amount: '30.00' });
    await work();
    const mails = smtp.to('fay@example.com');
    expect(mails.map((m) => m.mail.subject).sort()).toEqual(
      [
        `We have received your return request ${returnId}`,
        `Your return ${returnId} has been approved`,
        `Your refund for return ${returnId} has been issued`,
      ].sort(),
    );
    const mail = mailAbout('fay@example.com', /^Your refund/);
    expect(mail.text).toContain('Amount refunded: €30.00');
    expectStatusLink(mail.text, returnUuid);
    for (let i = 0; i < 4; i++) {
      await t.context.worker.drain();
      t.clock.advance(1_000);
    }
    const updates = receiver.ofType('return.updated').filter((m) => m.json.return_ticket?.return_uuid === returnUuid);
    expect(updates.at(-1)?.json.return_ticket).toMatchObject({ return_status: 'approved', refund_issued_at: at, refunded_amount: '30.00' });
    const sent = receiver.ofType('notification.sent').filter((m) => m.json.data?.shipment_uuid === shipmentUuid);
    expect(sent.map((m) => m.json.notification.trigger)).toContain('refund_issued');

    const again = await update({ return_uuid: returnUuid, refund_issued: true });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ api_response: '4030', errors: { refund_issued: [expect.stringMatching(/already recorded/)] } });
    await work();
    expect(smtp.to('fay@example.com')).toHaveLength(3);
  });

  it('a refund of a return still pending is a 4030 naming the field: nothing changes, nothing is sent', async () => {
    const { returnUuid, shipmentUuid } = await newReturn('gus@example.com');
    await work();
    const stored = () =>
      t.context.database.db
        .selectFrom('returns')
        .select(['status', 'details', 'updated_at'])
        .where('return_uuid', '=', returnUuid)
        .executeTakeFirstOrThrow();
    const before = await stored();
    const res = await update({ return_uuid: returnUuid, refund_issued: true, comment: 'Refunded' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      api_response: '4030',
      errors: { refund_issued: [expect.stringContaining('this return is "pending approval"')] },
    });
    expect(await stored()).toEqual(before);
    await work();
    expect(smtp.to('gus@example.com').map((m) => m.mail.subject)).toEqual([expect.stringMatching(/^We have received your return request/)]);
    const entries = (await t.as(acct)('GET', '/v5/notification/log/', undefined, { shipment_uuid: shipmentUuid })).json().data.data;
    expect(entries.map((e: { trigger: string }) => e.trigger)).toEqual(['return_requested']);
  });

  it('an approved return’s e-mail leads to the return’s page in the portal, by a link the portal can read', async () => {
    const { returnUuid, returnId } = await newReturn('ada@example.com');
    const approved = await update({ return_uuid: returnUuid, return_status: 'approved' });
    expect(approved.statusCode, approved.body).toBe(200);
    await work();
    const mails = smtp.to('ada@example.com');
    expect(mails).toHaveLength(2);
    const mail = mailAbout('ada@example.com', /approved$/);
    expect(mail.subject).toBe(`Your return ${returnId} has been approved`);
    const link = expectStatusLink(mail.text, returnUuid);
    expect(mail.text).toContain(`Show your return: ${link}`);
    expect(mail.html).toContain(`href="${link}"`);
    // No label was booked: nothing says where to get one.
    expect(mail.text).not.toMatch(/label/i);
  });

  it('with its label booked by the time it is sent, the approval says the status page has it', async () => {
    const { returnUuid, shipmentUuid } = await newReturn('bo@example.com');
    expect((await update({ return_uuid: returnUuid, return_status: 'approved' })).statusCode).toBe(200);
    const booked = await t.as(acct)('POST', '/v5/booking/', { shipment_uuid: shipmentUuid, carrier_reference: 'sb' });
    expect(booked.statusCode, booked.body).toBe(200);
    await work();
    const mail = mailAbout('bo@example.com', /approved$/);
    const link = expectStatusLink(mail.text, returnUuid);
    expect(mail.text).toContain(
      `Your return label is ready: print it, or show its QR code at the drop-off point, from your return page: ${link}`,
    );
  });

  it('without the portal on, a return’s e-mail leads to the return parcel’s tracking page, in the consumer’s language', async () => {
    const { returnUuid } = await newReturn('cy@example.com', closed, {
      from_address: { first_name: 'Cyril', line1: '1 Rue de Rivoli', city: 'Paris', postal_code: '75001', country_code: 'FR' },
    });
    expect((await update({ return_uuid: returnUuid, return_status: 'rejected', reject_reason: 'Worn' }, closed)).statusCode).toBe(200);
    await work();
    const mail = mailAbout('cy@example.com', /^Votre retour/);
    expect(mail.subject).toMatch(/^Votre retour RMA-ntf-rt-\d+ n’a pas pu être accepté$/);
    expect(mail.text).toContain('Worn');
    expect(mail.text).not.toMatch(statusLink);
    expect(mail.text).toMatch(/Suivre mon colis: https:\/\/waybill\.test\/t\/[A-Za-z0-9_-]+\?lang=fr/);
  });

  it('lists the status page among a template’s variables, and previews the return’s SMS with it', async () => {
    const template = await t.as(acct)('GET', '/v5/notification/templates/return_approved/sms/en/');
    expect(template.statusCode, template.body).toBe(200);
    expect(template.json().data.variables).toEqual(
      expect.arrayContaining(['return.status_url', 'return.label_available', 'return.refunded_amount']),
    );
    expect(template.json().data.body).toContain('{{ return.status_url | default: shipment.tracking_url }}');
    const preview = await t.as(acct)('POST', '/v5/notification/templates/return_approved/sms/en/preview/', {});
    expect(preview.statusCode, preview.body).toBe(200);
    // The newest shipment of the account, a return whose label is booked.
    const text = preview.json().data.text;
    expect(text).toMatch(/^acct-\w+: your return RMA-ntf-rt-\d+ has been approved\. Your return label: https:\/\/waybill\.test\/returns\//);
    // The signed link is long: a return's SMS takes two segments (2 × 153 characters).
    expect(text.length).toBeLessThanOrEqual(306);
    // The new triggers' defaults, in each language, are templates like the others.
    for (const [language, subject] of [
      ['de', 'Die Erstattung für Ihre Retoure {{ return.return_id }} ist veranlasst'],
      ['it', 'Il rimborso del suo reso {{ return.return_id }} è stato emesso'],
    ]) {
      const refund = await t.as(acct)('GET', `/v5/notification/templates/refund_issued/email/${language}/`);
      expect(refund.statusCode, refund.body).toBe(200);
      expect(refund.json().data).toMatchObject({ subject, custom: false });
      expect(refund.json().data.body).toContain('{% if return.refunded_amount %}');
    }
    const requested = await t.as(acct)('GET', '/v5/notification/templates/return_requested/sms/nl/');
    expect(requested.json().data.body).toBe(
      '{{ merchant.name }}: we hebben uw retouraanvraag {{ return.return_id }} ontvangen. Info: {{ return.status_url | default: shipment.tracking_url }}',
    );
    const own = await t.as(acct)('PUT', '/v5/notification/templates/return_rejected/email/en/', {
      subject: 'About {{ return.return_id }}',
      body: 'See {{ return.status_url }}',
    });
    expect(own.statusCode, own.body).toBe(200);
    await t.as(acct)('DELETE', '/v5/notification/templates/return_rejected/email/en/');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { verifyReturnStatusToken } from '../../src/domain/returns/portal-links.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from '../returns/fixtures.js';
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
  beforeAll(async () => {
    smtp = await new SmtpSink().start();
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
        email: { enabled: true, triggers: ['return_approved', 'return_rejected', 'return_received'] },
        sms: { enabled: false, triggers: [] },
        default_language: 'en',
      });
      expect(put.statusCode, put.body).toBe(200);
    }
    const policy = (await t.as(acct)('GET', '/v5/returns/policy/')).json().data;
    const opened = await t.as(acct)('PUT', '/v5/returns/policy/', { ...policy, enabled: true });
    expect(opened.statusCode, opened.body).toBe(200);
    portalReference = policy.portal_reference;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
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

  it('an approved return’s e-mail leads to the return’s page in the portal, by a link the portal can read', async () => {
    const { returnUuid, returnId } = await newReturn('ada@example.com');
    const approved = await update({ return_uuid: returnUuid, return_status: 'approved' });
    expect(approved.statusCode, approved.body).toBe(200);
    await work();
    const mails = smtp.to('ada@example.com');
    expect(mails).toHaveLength(1);
    const { mail } = mails[0];
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
    const [{ mail }] = smtp.to('bo@example.com');
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
    const [{ mail }] = smtp.to('cy@example.com');
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
    const own = await t.as(acct)('PUT', '/v5/notification/templates/return_rejected/email/en/', {
      subject: 'About {{ return.return_id }}',
      body: 'See {{ return.status_url }}',
    });
    expect(own.statusCode, own.body).toBe(200);
    await t.as(acct)('DELETE', '/v5/notification/templates/return_rejected/email/en/');
  });
});

import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { SmtpSink } from './smtp-sink.js';

/** DKIM: with a key configured, every consumer e-mail is signed, and the signature verifies against the published key. */
describe('consumer e-mail signed with DKIM', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const published = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  let t: TestApp;
  let acct: TestAccount;
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    t = await createTestApp({
      env: {
        WAYBILL_SMTP_URL: smtp.url,
        WAYBILL_SMTP_FROM: 'Updates <updates@mail.waybill.test>',
        WAYBILL_DKIM_DOMAIN: 'mail.waybill.test',
        WAYBILL_DKIM_SELECTOR: 'wb2026',
        WAYBILL_DKIM_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
    });
    acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('signs with the configured domain and selector, and a verifier finds the signature good', async () => {
    const res = await t.call(acct.token, 'POST', '/v5/shipment/', {
      shipment_id: 'dkim-1',
      tracking_number: 'WB4500001',
      carrier_reference: 'sb',
      notification_email: ['kim@example.com'],
    });
    expect(res.statusCode, res.body).toBe(200);
    for (let i = 0; i < 3; i++) await t.context.worker.drain();
    const [mail] = smtp.to('kim@example.com');
    expect(mail.raw).toMatch(/^DKIM-Signature: .*d=mail\.waybill\.test/m);
    const resolver = async (name: string, type: string) => {
      if (name === 'wb2026._domainkey.mail.waybill.test' && type === 'TXT') return [[`v=DKIM1; k=rsa; p=${published}`]];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    const verified = await dkimVerify(Buffer.from(mail.raw), { resolver });
    expect(verified.results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([['mail.waybill.test', 'wb2026', 'pass']]);
    // The same message with a changed subject no longer verifies.
    const altered = mail.raw.replace(/^Subject: /m, 'Subject: Re: ');
    expect(altered).not.toBe(mail.raw);
    const tampered = await dkimVerify(Buffer.from(altered), { resolver });
    expect(tampered.results[0].status.result).not.toBe('pass');
  });
});

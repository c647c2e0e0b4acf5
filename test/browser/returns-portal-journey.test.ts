import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/app.js';
import { SmtpSink } from '../notifications/smtp-sink.js';
import { enablePortal, orderShipment, shipOrder } from '../returns-portal/portal-fixtures.js';
import { collectPageErrors, describeWithBrowser, useSampleWorld } from './browser-harness.js';

const CONSUMER = 'lena.vogel@example.com';

/** The portal's return id in a text (`RP-` and 16 hex digits). */
function returnIdOf(text: string | undefined): string {
  return /RP-[0-9A-F]{16}/.exec(text ?? '')?.[0] ?? 'none';
}

/**
 * A return from start to refund, with every party in its place: the consumer in the portal, the e-mail through a
 * real SMTP server, the merchant in the console, the refund recorded through the API, the status page following.
 */
describeWithBrowser('a portal return to its refund, in Chromium', () => {
  const smtp = new SmtpSink();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());
  const world = useSampleWorld(() => ({ WAYBILL_SMTP_URL: smtp.url, WAYBILL_SMTP_FROM: 'Nordlicht Outdoor <returns@nordlicht.example>' }));
  let shop: TestAccount;
  let reference: string;

  beforeAll(async () => {
    const t = world.t;
    shop = await t.account({ features: ['returns', 'booking'], carriers: [{ carrier_reference: 'sb', booking: ['return'] }] });
    const delivered = new Date(t.clock.now().getTime() - 86_400_000).toISOString().slice(0, 19).concat('Z');
    await shipOrder(t, shop, orderShipment('JOURNEY-1', 'SO-30001', { email: CONSUMER, postal_code: '10435' }), delivered);
    reference = await enablePortal(t, shop, (policy) => {
      policy.portal_name = 'Nordlicht Outdoor';
      // Up to 10 EUR at once: the 20 EUR shirt waits for the merchant.
      policy.auto_approval = { enabled: true, max_value: { amount: 10, currency: 'EUR' } };
    });
    const settings = await t.as(shop)('PUT', '/v5/notification/settings/', {
      email: { enabled: true, triggers: ['return_requested', 'return_approved', 'refund_issued'] },
      sms: { enabled: false, triggers: [] },
      default_language: 'en',
    });
    expect(settings.statusCode, settings.body).toBe(200);
  });

  const mailsTo = () => smtp.to(CONSUMER).map((received) => received.mail);
  async function settle() {
    for (let round = 0; round < 3; round++) await world.t.context.worker.drain();
  }

  it('takes a return from the portal through the merchant’s approval to the refund', { timeout: 90_000 }, async () => {
    const consumer = await world.browser.newContext({ viewport: { width: 390, height: 800 }, locale: 'en-GB', acceptDownloads: true });
    const page = await consumer.newPage();
    page.setDefaultTimeout(5_000);
    const errors = collectPageErrors(page);

    // The consumer returns one of the order's two kinds of item, with a reason.
    await page.goto(`${world.baseUrl}/returns/${reference}`);
    await page.getByLabel('Order number').fill('SO-30001');
    await page.getByLabel('E-mail address or postal code').fill('10435');
    await page.getByRole('button', { name: 'Find my order' }).click();
    await page.waitForURL(/\/order\//);
    await page.getByLabel('Quantity to return – Shirt').selectOption('1');
    await page.getByLabel('Reason – Shirt').selectOption('too_large');
    await page.getByRole('button', { name: 'Request return' }).click();
    await page.waitForURL(/\/status\//);
    const statusUrl = page.url();
    expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('requested');

    // The e-mail that it was requested, with the link to the status page.
    await settle();
    const requested = mailsTo();
    expect(requested).toHaveLength(1);
    // In the consumer's language: the order went to Germany.
    expect(requested[0].subject).toBe(`Wir haben Ihre Retourenanfrage ${returnIdOf(requested[0].subject)} erhalten`);
    const statusPath = new URL(statusUrl).pathname;
    expect(requested[0].text).toContain(statusPath);

    // The merchant approves it in the console.
    const merchant = await world.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const console_ = await merchant.newPage();
    console_.setDefaultTimeout(5_000);
    await console_.goto(`${world.baseUrl}/console/returns/`);
    await console_.getByLabel('Client id').fill(shop.clientId);
    await console_.getByLabel('Client secret').fill(shop.clientSecret);
    await console_.getByRole('button', { name: 'Sign in' }).click();
    await console_.goto(`${world.baseUrl}/console/returns/`);
    const returnId = (await page.locator('dt:text("Return number") + dd').innerText()).trim();
    await console_.getByRole('button', { name: `Approve return ${returnId}` }).click();
    await expect.poll(() => console_.locator(`tr:has-text("${returnId}")`).innerText()).toContain('approved');
    await merchant.close();

    // The label is booked by the job the approval queued, and the approval e-mail says where it is.
    await settle();
    await page.reload();
    expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('label_ready');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /Download your return label/ }).click(),
    ]);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 4).toString()).toBe('%PDF');
    const approved = mailsTo().find((mail) => mail.subject === `Ihre Retoure ${returnId} wurde genehmigt`);
    expect(approved?.text).toContain(statusPath);

    // The merchant records the refund; the page follows, and the consumer is told.
    const refund = await world.t.as(shop)('POST', '/v5/return/update/', { return_id: returnId, refund_issued: true });
    expect(refund.statusCode, refund.body).toBe(200);
    await settle();
    await page.reload();
    expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('refunded');
    expect(await page.locator('li[aria-current="step"]').innerText()).toContain('Refunded');
    const refunded = mailsTo().find((mail) => mail.subject === `Die Erstattung für Ihre Retoure ${returnId} ist veranlasst`);
    expect(refunded?.text).toContain('20');
    expect(errors, errors.join('\n')).toEqual([]);
    await consumer.close();
  });
});

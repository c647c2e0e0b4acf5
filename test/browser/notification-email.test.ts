import { afterAll, beforeAll, expect, it } from 'vitest';
import { SmtpSink } from '../notifications/smtp-sink.js';
import { collectPageErrors, describeWithBrowser, saveScreenshot, useSampleWorld } from './browser-harness.js';

/** A consumer's e-mail as Chromium renders it, and its unsubscribe page, from a message sent over real SMTP. */
describeWithBrowser('consumer e-mail and unsubscribe page in Chromium', () => {
  const smtp = new SmtpSink();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());
  const world = useSampleWorld(() => ({ WAYBILL_SMTP_URL: smtp.url, WAYBILL_SMTP_FROM: 'Nordlicht Books <updates@nordlicht.example>' }));

  it('renders the out-for-delivery e-mail, and its unsubscribe page stops the next message', async () => {
    const api = world.t.as(world.sample.account);
    const renamed = await world.t.admin('PATCH', `/admin/v1/accounts/${world.sample.account.accountUuid}/`, { name: 'Nordlicht Books' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const created = await api('POST', '/v5/shipment/', {
      shipment_id: 'SO-10490',
      tracking_number: 'WB3000490',
      carrier_reference: 'sandbox',
      notification_email: ['mia.koch@example.com'],
      recipient_address: { first_name: 'Mia', last_name: 'Koch', city: 'Hamburg', postal_code: '20095', country_code: 'GB' },
      expected_delivery: { from: '2026-11-24T10:00:00+01:00', to: '2026-11-24T14:00:00+01:00' },
    });
    expect(created.statusCode, created.body).toBe(200);
    for (let i = 0; i < 3; i++) await world.t.context.worker.drain();
    const [mail] = smtp.to('mia.koch@example.com');
    expect(mail, 'the e-mail reached the SMTP server').toBeDefined();

    const context = await world.browser.newContext({ viewport: { width: 680, height: 560 }, deviceScaleFactor: 1, locale: 'en-GB' });
    const page = await context.newPage();
    await page.setContent(mail.mail.html as string, { waitUntil: 'load' });
    expect(await page.getByText('WB3000490').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Track your parcel' }).getAttribute('href')).toMatch(/^https:\/\/waybill\.test\/t\//);
    saveScreenshot('notification-email', await page.screenshot({ fullPage: true }));

    // The footer's link, on the service's real address.
    const link = new URL(mail.mail.text?.match(/https:\/\/waybill\.test\/notifications\/unsubscribe\/\S+/)?.[0] as string);
    const errors = collectPageErrors(page);
    const response = await page.goto(`${world.baseUrl}${link.pathname}`);
    expect(response?.status()).toBe(200);
    expect(await page.locator('script').count()).toBe(0);
    await page.getByLabel(/Stop all updates from/).check();
    await page.getByRole('button').click();
    await page.waitForLoadState('load');
    expect(await page.locator('[role="status"]').count()).toBe(1);
    expect(errors, errors.join('\n')).toEqual([]);

    // Everything from this merchant is now suppressed for that address, another shipment included.
    const next = await api('POST', '/v5/shipment/', {
      shipment_id: 'SO-10491',
      tracking_number: 'WB3000491',
      carrier_reference: 'sandbox',
      notification_email: ['mia.koch@example.com'],
    });
    for (let i = 0; i < 3; i++) await world.t.context.worker.drain();
    const log = await api('GET', '/v5/notification/log/', undefined, { shipment_uuid: next.json().data.shipment_uuid });
    expect(log.json().data.data[0]).toMatchObject({ status: 'suppressed', reason: 'unsubscribed' });
    expect(smtp.to('mia.koch@example.com')).toHaveLength(1);
    await context.close();
  });
});

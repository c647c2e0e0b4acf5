import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { enablePortal, formFields, itemIndex, orderShipment, portalBrowser, shipOrder } from './portal-fixtures.js';

const DAY = 86_400_000;

/**
 * The consumer's returns portal through HTTP: find an order, choose items, get a return made by the policy's
 * rule (approved with a sandbox label, or pending the merchant), follow it; and what it refuses.
 */
describe('the returns portal', () => {
  let t: TestApp;
  let shop: TestAccount;
  let other: TestAccount;
  let ref: string;
  let otherRef: string;
  /** The status page of a return left pending by one test, approved in the next. */
  let pendingStatusUrl: string;
  const consumer = portalBrowser.bind(null);

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.account({ features: ['returns', 'booking'], carriers: [{ carrier_reference: 'sb', booking: ['return'] }] });
    other = await t.account({ features: ['returns'] });
    const now = t.clock.now().getTime();
    const daysAgo = (days: number) => new Date(now - days * DAY).toISOString().slice(0, 19).concat('Z');
    await shipOrder(t, shop, orderShipment('OUT-1', 'SO-1001', { email: 'Grace@Example.com', postal_code: '10115' }), daysAgo(3));
    await shipOrder(t, shop, orderShipment('OUT-2', 'SO-1002', { email: 'ada@example.com', postal_code: '10117' }), daysAgo(45));
    await shipOrder(t, other, orderShipment('OTHER-1', 'SO-1001', { email: 'someone@example.com', postal_code: '80331' }), daysAgo(2));
    ref = await enablePortal(t, shop, (policy) => {
      policy.return_methods = ['drop_off', 'send_by_consumer'];
      policy.auto_approval = { enabled: true, max_value: { amount: 15, currency: 'EUR' } };
      policy.non_returnable = { product_ids: ['GIFT'], product_references: [], categories: [] };
    });
    otherRef = await enablePortal(t, other);
  });
  afterAll(() => t?.close());

  const returnsOf = async () => (await t.context.database.db.selectFrom('returns').select(['return_id', 'status']).execute()).length;

  async function openOrder(order: string, contact: string, lang = 'en') {
    const browser = consumer(t);
    const found = await browser.post(`/returns/${ref}/find`, { order, contact, lang });
    expect(found.statusCode, found.body).toBe(303);
    const page = await browser.get(found.headers.location as string);
    expect(page.statusCode).toBe(200);
    return { url: (found.headers.location as string).split('?')[0], page: page.body, browser };
  }

  it('is not there while the merchant has not turned it on', async () => {
    const fresh = await t.account({ features: ['returns'] });
    const reference = (await t.as(fresh)('GET', '/v5/returns/policy/')).json().data.portal_reference;
    const res = await consumer(t).get(`/returns/${reference}`);
    expect(res.statusCode).toBe(404);
    expect((await consumer(t).get('/returns/not-a-reference')).statusCode).toBe(404);
  });

  it('opens on the find form, in the browser’s language, without any script', async () => {
    const res = await consumer(t).get(`/returns/${ref}`, { 'accept-language': 'de-DE,de;q=0.9' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-language']).toBe('de');
    expect(res.body).toContain('Rücksendung starten');
    expect(res.body).toContain(`action="/returns/${ref}/find"`);
    expect(res.body).not.toContain('<script');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(res.body).toMatch(/<label for="order">/);
  });

  it('names the form type to a client that posts another', async () => {
    for (const type of ['text/plain', 'multipart/form-data; boundary=x']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/returns/${ref}/find`,
        headers: { 'content-type': type },
        payload: 'order=SO-1001',
      });
      expect(res.statusCode, type).toBe(400);
      expect(res.json()).toEqual({
        api_response: '4000',
        message: 'Invalid request format: unsupported Content-Type, send application/x-www-form-urlencoded',
      });
    }
  });

  it('answers a wrong e-mail address and an unknown order the same way', async () => {
    const browser = consumer(t, '198.51.100.1');
    const wrongContact = await browser.post(`/returns/${ref}/find`, { order: 'SO-1001', contact: 'nobody@example.com' });
    const unknownOrder = await browser.post(`/returns/${ref}/find`, { order: 'SO-9999', contact: 'nobody@example.com' });
    expect(wrongContact.statusCode).toBe(200);
    expect(unknownOrder.statusCode).toBe(200);
    expect(wrongContact.body.replace('SO-1001', 'X')).toBe(unknownOrder.body.replace('SO-9999', 'X'));
    // Another account's order of the same number, with its recipient's address: not in this portal.
    const foreign = await browser.post(`/returns/${ref}/find`, { order: 'SO-1001', contact: 'someone@example.com' });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.body).toContain('could not find an order');
  });

  it('finds an order by its e-mail address in any case, or its postal code, and lists what can be returned', async () => {
    const byEmail = await openOrder('SO-1001', 'grace@example.COM');
    expect(byEmail.page).toContain('Shirt');
    const byPostal = await openOrder('#SO-1001', '101 15', 'de');
    expect(byPostal.page).toContain('Zu klein');
    expect(byPostal.page).toContain('Dieser Artikel ist von der Rückgabe ausgeschlossen.');
    const shirt = itemIndex(byEmail.page, 'id:P-1');
    expect(byEmail.page).toContain(`<select id="item_${shirt}_quantity"`);
    expect(byEmail.page).not.toContain('name="item_2_key" value="id:GIFT"');
  });

  it('shows items past the window without a way to choose them', async () => {
    const { page } = await openOrder('SO-1002', 'ada@example.com');
    expect(page).toContain('The return period has ended.');
    expect(page).toContain('Nothing in this order can be returned any more.');
    expect(page).not.toContain('name="item_0_quantity"');
  });

  it('refuses a form without a reason, naming the field, and makes nothing', async () => {
    const before = await returnsOf();
    const { url, page, browser } = await openOrder('SO-1001', 'grace@example.com');
    const shirt = itemIndex(page, 'id:P-1');
    const res = await browser.post(url, { ...formFields(page), [`item_${shirt}_quantity`]: '1', return_method: 'drop_off' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(`id="item_${shirt}_reason-error"`);
    expect(res.body).toMatch(
      new RegExp(`id="item_${shirt}_reason" name="item_${shirt}_reason" aria-describedby="item_${shirt}_reason-error" aria-invalid="true"`),
    );
    expect(res.body).toContain('Choose a reason for this item.');
    const nothing = await browser.post(url, { ...formFields(page), return_method: 'drop_off' });
    expect(nothing.statusCode).toBe(422);
    expect(nothing.body).toContain('Choose at least one item to return.');
    expect(await returnsOf()).toBe(before);
  });

  it('makes a return pending the merchant above the policy’s value, which the merchant approves, and the label follows', async () => {
    const { url, page, browser } = await openOrder('SO-1001', 'grace@example.com');
    const shirt = itemIndex(page, 'id:P-1');
    const fields = {
      ...formFields(page),
      [`item_${shirt}_quantity`]: '1',
      [`item_${shirt}_reason`]: 'too_small',
      return_method: 'drop_off',
      comment: 'Runs small',
    };
    const sent = await browser.post(url, fields);
    expect(sent.statusCode, sent.body).toBe(303);
    const statusUrl = sent.headers.location as string;
    expect(statusUrl).toMatch(new RegExp(`^/returns/${ref}/status/[0-9a-f-]{36}\\.[A-Za-z0-9_-]{43}\\?lang=en$`));

    // The same form again (a double click, a reload): the same return.
    const count = await returnsOf();
    const again = await browser.post(url, fields);
    expect(again.headers.location).toBe(statusUrl);
    expect(await returnsOf()).toBe(count);

    const status = await browser.get(statusUrl);
    expect(status.body).toContain('data-status="requested"');
    expect(status.body).not.toContain('Get my return label');

    const returnId = /<dt>Return number<\/dt><dd>([^<]+)<\/dd>/.exec(status.body)?.[1];
    expect(returnId).toMatch(/^RP-[0-9A-F]{16}$/);
    const details = (await t.as(shop)('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: returnId as string })).json().data;
    expect(details.source).toBe('portal');
    // The consumer hears about it at the order's address (its recipient's, as the order has no notification_email).
    expect(details.notification_email).toEqual(['Grace@Example.com']);
    expect(details.line_items).toEqual([
      expect.objectContaining({ product_id: 'P-1', quantity: 1, product_cost: 20, return_reason: 'too_small' }),
    ]);

    const approved = await t.as(shop)('POST', '/v5/return/update/', { return_id: returnId, return_status: 'approved' });
    expect(approved.statusCode, approved.body).toBe(200);
    const withButton = await browser.get(statusUrl);
    expect(withButton.body).toContain('data-status="approved"');
    // The consumer asks before the job that books it runs; the job then finds it booked.
    const asked = await browser.post(`${statusUrl.split('?')[0]}/label`, { lang: 'en' });
    expect(asked.statusCode).toBe(303);
    expect(asked.headers.location).not.toContain('label=failed');
    const ready = await browser.get(asked.headers.location as string);
    expect(ready.body).toContain('data-status="label_ready"');
    // Dropped off: the return carrier's points nearest the consumer's postal code.
    expect(ready.body).toContain('Drop-off points near you');
    expect(ready.body.match(/<ul class="points">([\s\S]*?)<\/ul>/)?.[1].match(/<li>/g)).toHaveLength(5);
    const link = /<a class="button" href="([^"]+)" download>/.exec(ready.body)?.[1];
    expect(link).toBeDefined();
    // A link on the portal's own origin.
    expect(link).toMatch(/^\/files\/documents\//);
    const label = await t.app.inject({ method: 'GET', url: (link as string).replace(/&amp;/g, '&') });
    expect(label.statusCode).toBe(200);
    expect(label.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
  });

  it('approves a return within the policy’s value at once and books its label', async () => {
    const { url, page, browser } = await openOrder('SO-1001', 'grace@example.com');
    const socks = itemIndex(page, 'ref:SKU-9');
    const sent = await browser.post(url, {
      ...formFields(page),
      [`item_${socks}_quantity`]: '1',
      [`item_${socks}_reason`]: 'changed_mind',
      return_method: 'send_by_consumer',
    });
    expect(sent.statusCode, sent.body).toBe(303);
    const status = await browser.get(sent.headers.location as string);
    expect(status.body).toContain('data-status="label_ready"');
    expect(status.body).toContain('Sock Shop');
    expect(status.body).toContain('Lagerstraße 5');
    // Sent by the consumer: no drop-off points.
    expect(status.body).not.toContain('Drop-off points near you');
  });

  it('refuses a form opened before its items were returned', async () => {
    const first = await openOrder('SO-1001', 'grace@example.com');
    const second = await openOrder('SO-1001', 'grace@example.com');
    const shirt = itemIndex(first.page, 'id:P-1');
    const choose = (page: string) => ({
      ...formFields(page),
      [`item_${shirt}_quantity`]: '1',
      [`item_${shirt}_reason`]: 'damaged',
      return_method: 'drop_off',
    });
    const made = await first.browser.post(first.url, choose(first.page));
    expect(made.statusCode).toBe(303);
    pendingStatusUrl = made.headers.location as string;
    const before = await returnsOf();
    const stale = await second.browser.post(second.url, choose(second.page));
    expect(stale.statusCode).toBe(422);
    expect(stale.body).toContain('This item can no longer be returned.');
    expect(await returnsOf()).toBe(before);
  });

  it('books the label of a pending return the merchant approves, by a job, once', async () => {
    const browser = consumer(t);
    const page = await browser.get(pendingStatusUrl);
    expect(page.body).toContain('data-status="requested"');
    const returnId = /<dt>Return number<\/dt><dd>([^<]+)<\/dd>/.exec(page.body)?.[1] as string;
    const approved = await t.as(shop)('POST', '/v5/return/update/', { return_id: returnId, return_status: 'approved' });
    expect(approved.statusCode, approved.body).toBe(200);
    const jobs = () => t.context.database.db.selectFrom('jobs').select(['kind', 'status']).where('kind', '=', 'return.label').execute();
    expect((await jobs()).length).toBeGreaterThan(0);
    await t.context.worker.drain();
    expect((await browser.get(pendingStatusUrl)).body).toContain('data-status="label_ready"');
    const bookings = await t.context.database.db.selectFrom('bookings').select('id').execute();
    // Approving again (an update of another field) books nothing more.
    await t.as(shop)('POST', '/v5/return/update/', { return_id: returnId, internal_notes: 'checked' });
    await t.context.worker.drain();
    expect(await t.context.database.db.selectFrom('bookings').select('id').execute()).toHaveLength(bookings.length);
  });

  it('shows a return only by its signed link, and an order only in its own account’s portal', async () => {
    const { page } = await openOrder('SO-1001', 'grace@example.com');
    expect(page).toContain('Already returned.');
    const rows = await t.context.database.db.selectFrom('returns').select('return_uuid').execute();
    const signed = await t.app.inject({ method: 'GET', url: `/returns/${ref}/status/${rows[0].return_uuid}.${'A'.repeat(43)}` });
    expect(signed.statusCode).toBe(404);
    const res = await consumer(t).post(`/returns/${ref}/find`, { order: 'SO-1001', contact: 'grace@example.com' });
    const token = (res.headers.location as string).split('/order/')[1].split('?')[0];
    // The order's token opens nothing in another account's portal.
    const foreign = await consumer(t).get(`/returns/${otherRef}/order/${token}`);
    expect(foreign.body).toContain('This page has expired.');
  });

  it('never answers another order’s return for a form id taken from it', async () => {
    const made = await t.context.database.db
      .selectFrom('returns')
      .select(['return_id', 'order_id'])
      .where('order_id', '=', 'SO-1001')
      .executeTakeFirstOrThrow();
    const { url, page, browser } = await openOrder('SO-1002', 'ada@example.com');
    const before = await returnsOf();
    const res = await browser.post(url, { ...formFields(page), form_id: (made.return_id as string).slice(3) });
    expect(res.statusCode).not.toBe(303);
    expect(res.body).not.toContain('/status/');
    expect(await returnsOf()).toBe(before);
  });

  it('limits finding per address: after five misses, even the right pair waits', async () => {
    const browser = consumer(t, '192.0.2.50');
    for (let i = 0; i < 6; i++) await browser.post(`/returns/${ref}/find`, { order: `SO-${5000 + i}`, contact: 'x@example.com' });
    const limited = await browser.post(`/returns/${ref}/find`, { order: 'SO-1001', contact: 'grace@example.com' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('Too many attempts.');
    // Another address is not slowed by these misses.
    expect(
      (await consumer(t, '192.0.2.51').post(`/returns/${ref}/find`, { order: 'SO-1001', contact: 'grace@example.com' })).statusCode,
    ).toBe(303);
  });
});

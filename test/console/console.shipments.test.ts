import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookableShipment, createShipment } from '../booking/fixtures.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { type ConsoleBrowser, signIn, visibleText } from './console-client.js';

/** The shipment ids of the list page's rows, in order. */
function listed(page: string): string[] {
  return [...page.matchAll(/<td><a href="\/console\/shipments\/[0-9a-f-]{36}\/">([^<]+)<\/a><\/td>/g)].map((m) => m[1]);
}

describe('console: shipments', () => {
  let t: TestApp;
  let acct: TestAccount;
  let other: TestAccount;
  let browser: ConsoleBrowser;
  let bookedUuid: string;
  beforeAll(async () => {
    t = await createTestApp();
    const carriers = [{ carrier_reference: 'sb', booking: ['outbound'] }];
    acct = await t.account({ features: ['booking'], carriers });
    other = await t.account({ carriers });
    for (let i = 0; i < 28; i++) {
      t.clock.advance(1_000);
      await createShipment(t, acct.token, { shipment_id: `C-${String(i).padStart(2, '0')}`, order_id: i % 7 === 0 ? 'ORD-7' : undefined });
    }
    t.clock.advance(1_000);
    await createShipment(t, acct.token, { shipment_id: 'C-TRACKED', tracking_number: 'WB4000004', carrier_reference: 'sb' });
    bookedUuid = await createShipment(t, acct.token, bookableShipment('C-BOOKED'));
    const booked = await t.call(acct.token, 'POST', '/v5/booking/', { shipment_uuid: bookedUuid, carrier_reference: 'sb' });
    expect(booked.statusCode, booked.body).toBe(200);
    await createShipment(t, other.token, { shipment_id: 'OTHER-1', tracking_number: 'WB2000001', carrier_reference: 'sb' });
    await t.context.worker.runOnce();
    browser = await signIn(t, acct);
  });
  afterAll(() => t.close());

  it('lists the account’s shipments newest first, 25 a page, with a next-page link that keeps the filters', async () => {
    const first = await browser.get('/console/shipments/');
    expect(first.statusCode).toBe(200);
    const ids = listed(first.body);
    expect(ids).toHaveLength(25);
    expect(ids.slice(0, 3)).toEqual(['C-BOOKED', 'C-TRACKED', 'C-27']);
    expect(ids).not.toContain('OTHER-1');
    const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(first.body)![1].replace(/&amp;/g, '&');
    const second = await browser.get(next);
    expect(listed(second.body)).toEqual(['C-04', 'C-03', 'C-02', 'C-01', 'C-00']);
    expect(second.body).not.toContain('rel="next"');
    expect(second.body).toContain('First page');
  });

  it('searches by tracking number, shipment id and order id, and filters by status and dates', async () => {
    const search = async (query: string) => listed((await browser.get(`/console/shipments/?${query}`)).body);
    expect(await search('search_by=tracking_number&q=WB4000004')).toEqual(['C-TRACKED']);
    expect(await search('search_by=shipment_id&q=C-05')).toEqual(['C-05']);
    expect(await search('search_by=order_id&q=ORD-7')).toEqual(['C-21', 'C-14', 'C-07', 'C-00']);
    expect(await search('status=delivered')).toEqual(['C-TRACKED']);
    expect(await search('search_by=order_id&q=ORD-7&status=delivered')).toEqual([]);
    const today = t.clock.now().toISOString().slice(0, 10);
    expect((await search(`created_date_from=${today}&created_date_to=${today}&status=delivered`)).length).toBe(1);
    expect(await search('created_date_from=2001-01-01&created_date_to=2001-01-02')).toEqual([]);
    // Another account's tracking number finds nothing here.
    const none = await browser.get('/console/shipments/?search_by=tracking_number&q=WB2000001');
    expect(none.statusCode).toBe(200);
    expect(visibleText(none.body)).toContain('No shipments match these filters.');
    // The form shows what was searched.
    const kept = (await browser.get('/console/shipments/?search_by=order_id&q=ORD-7&status=pending')).body;
    expect(kept).toContain('<option value="order_id" selected>');
    expect(kept).toContain('value="ORD-7"');
    expect(kept).toContain('<option value="pending" selected>');
  });

  it('answers bad filters with the list form and messages naming the field, never an error page', async () => {
    const badDate = await browser.get('/console/shipments/?created_date_from=2026-13-45');
    expect(badDate.statusCode).toBe(400);
    expect(visibleText(badDate.body)).toContain('created_date_from: Enter an ISO 8601 date or date-time.');
    const badStatus = await browser.get('/console/shipments/?status=lost');
    expect(badStatus.statusCode).toBe(400);
    expect(visibleText(badStatus.body)).toContain('status: Must be one of:');
    const twice = await browser.get('/console/shipments/?q=a&q=b');
    expect(twice.statusCode).toBe(400);
    expect(visibleText(twice.body)).toContain('q: Send this field once.');
    const badCursor = await browser.get('/console/shipments/?next_page=nonsense');
    expect(badCursor.statusCode).toBe(400);
    expect(visibleText(badCursor.body)).toContain('next_page: Invalid page cursor');
    const markup = await browser.get(`/console/shipments/?search_by=shipment_id&q=${encodeURIComponent('<b>x</b>')}`);
    expect(markup.statusCode).toBe(200);
    expect(markup.body).toContain('value="&lt;b&gt;x&lt;/b&gt;"');
    expect(markup.body).not.toContain('<b>x</b>');
  });

  it('shows a shipment with its details and its timeline newest first, in the events’ local time', async () => {
    const details = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'C-TRACKED' })).json().data;
    const res = await browser.get(`/console/shipments/${details.shipment_uuid}/`);
    expect(res.statusCode).toBe(200);
    const text = visibleText(res.body);
    expect(text).toContain('Shipment C-TRACKED');
    expect(text).toContain('WB4000004');
    expect(text).toContain('Waybill Sandbox');
    expect(text).toContain('delivered');
    const timeline = res.body.slice(res.body.indexOf('<ol class="timeline">'));
    const shown = [...timeline.matchAll(/<p class="what">([^<]*)/g)].map((m) => m[1].trim());
    expect(details.all_events.length).toBeGreaterThan(3);
    expect(shown).toEqual(details.all_events.map((e: { event: string }) => e.event.replace(/&/g, '&amp;').replace(/'/g, '&#39;')));
    // Times with a zone are shown on that zone's clock with its offset; date-only events stay dates.
    const zoned = details.all_events.find((e: { timezone: string | null; time: string }) => e.timezone && e.time.length > 10);
    expect(zoned).toBeDefined();
    expect(timeline).toMatch(/\(UTC[+-]\d{2}:\d{2}\)|\(UTC\)/);
    expect(res.body).toContain(`href="/t/${details.tracking_page_reference}"`);
  });

  it('lists the documents with a label link that downloads the PDF without any bearer token', async () => {
    const res = await browser.get(`/console/shipments/${bookedUuid}/`);
    expect(res.statusCode).toBe(200);
    const link = /<a href="(\/files\/documents\/[^"]+)" download>Download label \(PDF\)<\/a>/.exec(res.body);
    expect(link).not.toBeNull();
    const pdf = await t.app.inject({ method: 'GET', url: link![1].replace(/&amp;/g, '&') });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The link is signed: changed, it is refused.
    const tampered = await t.app.inject({
      method: 'GET',
      url: link![1].replace(/&amp;/g, '&').replace(/signature=(.)/, (_, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`),
    });
    expect(tampered.statusCode).toBe(403);
  });

  it('answers another account’s shipment, an unknown one, and a malformed id with the not-found page', async () => {
    const theirs = (await t.call(other.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: 'OTHER-1' })).json().data;
    const otherBrowser = await signIn(t, other);
    expect((await otherBrowser.get(`/console/shipments/${theirs.shipment_uuid}/`)).statusCode).toBe(200);
    for (const path of [
      `/console/shipments/${theirs.shipment_uuid}/`,
      `/console/shipments/${crypto.randomUUID()}/`,
      '/console/shipments/x/',
    ]) {
      const res = await browser.get(path);
      expect(res.statusCode, path).toBe(404);
      expect(visibleText(res.body)).toContain('Not found');
      expect(res.body).not.toContain('OTHER-1');
      expect(res.body).not.toContain('WB2000001');
    }
    // And their list holds only theirs.
    expect(listed((await otherBrowser.get('/console/shipments/')).body)).toEqual(['OTHER-1']);
    expect((await otherBrowser.get(`/console/shipments/${bookedUuid}/`)).statusCode).toBe(404);
  });
});
